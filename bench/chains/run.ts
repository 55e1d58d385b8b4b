/**
 * `npm run bench -- --chains`: the chain watchers against nodes, in this process (no HTTP
 * server): litecoind -regtest, anvil and the fake java-tron node started as the tests start them
 * (the last serves from this process: no TRON node can run here), the service's database (PGlite
 * in a fresh DATA_DIR, or PostgreSQL with --db postgres), and
 * 1. latency.ts: block (or broadcast) → PENDING / COMPLETED webhook, with the embedded runner's jobs;
 * 2. scan.ts: a tick's cost per block against 100 … 100 000 watched addresses, and the catch-up
 *    after 1 000 blocks of downtime.
 * `--chains tron` needs neither litecoind nor anvil; `--chains solana` runs alone (bench/chains/solana.ts).
 * Prints a table and appends the raw figures to bench/results/<date>-chains.json.
 */
import { execFileSync } from "node:child_process";
import os from "node:os";
import { closeDb, openDb } from "../db";
import type { ChainName, Options } from "../options";
import { machine } from "../report";
import { prepareTarget, pointThisProcessAt } from "../target";
import { startEvmBench, type EvmBench } from "./evm";
import { measureLatency, startReceiver, type Paid } from "./latency";
import { startLitecoinBench, type LitecoinBench } from "./litecoin";
import { chainsTable, writeChainsResult, type ChainsResult } from "./report";
import { measureScan } from "./scan";
import { startTronBench, type TronBench } from "./tron";
import { runSolanaChains } from "./solana";
import { runTonChains } from "./ton";
import { runMoneroChains } from "./monero";

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const load = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

/**
 * The chains whose watcher is not a block scan, each measured on its own (bench/chains/<name>.ts)
 * in a process of its own after the others, as the service's configuration is read once per
 * process: Monero asks wallets, TON follows merchants' accounts, Solana polls references.
 */
const ON_THEIR_OWN: [ChainName, (o: Options) => Promise<void>][] = [
  ["monero", runMoneroChains],
  ["ton", runTonChains],
  ["solana", runSolanaChains],
];

export async function runChains(o: Options): Promise<void> {
  const kind = o.dbs[0];
  const chains = o.chains!;
  for (const [name, run] of ON_THEIR_OWN) {
    if (!chains.includes(name)) continue;
    if (chains.length === 1) return run(o);
    await runChains({ ...o, chains: chains.filter((c) => c !== name) });
    const args = process.argv.slice(2);
    const at = args.indexOf("--chains");
    args.splice(at, args[at + 1] && !args[at + 1].startsWith("--") ? 2 : 1, "--chains", name);
    execFileSync(process.execPath, [...process.execArgv, process.argv[1], ...args], { stdio: "inherit" });
    return;
  }
  let ltc: LitecoinBench | null = null;
  let evm: EvmBench | null = null;
  let tron: TronBench | null = null;
  const receiver = await startReceiver();
  const target = await prepareTarget(kind, o);
  try {
    // The nodes first: the service's configuration (read once per process) names them.
    if (chains.includes("litecoin")) ltc = await startLitecoinBench({ keys: 200, unitsPerKey: 200_000_000n });
    if (chains.includes("ethereum")) evm = await startEvmBench();
    if (chains.includes("tron")) tron = await startTronBench();
    pointThisProcessAt(target, o.port);
    const unset = ["BITCOIN_RPC_URL", "BITCOIN_CASH_RPC_URL", "LITECOIN_RPC_URL", "ETHEREUM_RPC_URL", "ETHEREUM_TOKEN_CONTRACTS", "TRON_RPC_URL", "TRON_API_KEY", "TRON_TOKEN_CONTRACTS"];
    for (const k of [...unset, "RATE_PROVIDERS"]) delete process.env[k];
    Object.assign(process.env, {
      // A live business quotes from market rates or a pinned table: the built-in figures, pinned.
      RATES_FILE: new URL("../../test/fixtures/pinned-rates.json", import.meta.url).pathname,
      ...(ltc ? { LITECOIN_RPC_URL: ltc.url } : {}),
      ...(evm ? { ETHEREUM_RPC_URL: evm.url } : {}),
      // The node's USDT as the Tether coin (CONTRACT_TRC20_USDT follows it), as an operator configures a private network's.
      ...(tron ? { TRON_RPC_URL: tron.url, TRON_TOKEN_CONTRACTS: JSON.stringify({ TRX_TETHER: tron.usdt.address }) } : {}),
      // The live business's webhook URL is this process's receiver on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    });
    const nodes = {
      ...(ltc ? { litecoin: await ltc.version() } : {}),
      ...(evm ? { ethereum: await evm.version() } : {}),
      ...(tron ? { tron: await tron.version() } : {}),
    };
    const db = await openDb();
    const { getDb } = await import("@/db/client");
    log(`${kind}: ${target.databaseUrl ?? target.dataDir}; nodes ${Object.values(nodes).join(", ")}; load ${load().join(" ")}`);
    const result: ChainsResult = {
      startedAt: new Date().toISOString(),
      database: kind,
      machine: machine(),
      nodes,
      load: { start: load() },
    };

    const { createBusiness } = await import("@/lib/businesses/businesses");
    const { findBusiness } = await import("@/db/queries/businesses");
    const { createPayment } = await import("@/lib/payments/create");
    const { selectCoin } = await import("@/lib/checkout/select");
    const { findCharge } = await import("@/db/queries/charges");
    const { TEST_EXTENDED_PUBLIC_KEYS } = await import("@/lib/wallets/derive");
    const { LITECOIN_REGTEST_TPUB } = await import("../../test/chains/nodes/litecoind");
    const enabledCoins = [...(ltc ? ["LITECOIN" as const] : []), ...(evm ? ["ETHEREUM" as const] : []), ...(tron ? ["TRON" as const, "TRX_TETHER" as const] : [])];
    const extendedPublicKeys = {
      ...(ltc ? { LITECOIN: LITECOIN_REGTEST_TPUB } : {}),
      ...(evm ? { ETHEREUM: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM } : {}),
      ...(tron ? { TRON: TEST_EXTENDED_PUBLIC_KEYS.TRON } : {}),
    };
    let shop: Awaited<ReturnType<typeof findBusiness>> | undefined;
    let seq = 0;
    /** A live business's payment and its charge, made as the API and the checkout make them. */
    async function newPayment(coin: "LITECOIN" | "ETHEREUM" | "TRON"): Promise<Paid> {
      if (!shop) {
        const { businessId } = await createBusiness(db, {
          name: "Chain bench shop",
          mode: "live",
          webhookUrl: receiver.url,
          enabledCoins,
          extendedPublicKeys,
        } as Parameters<typeof createBusiness>[1]);
        shop = await findBusiness(db, businessId);
      }
      const { id } = await createPayment(db, shop!, { currency: "USD", amount: 20, name: `Chain bench ${++seq}` } as never);
      await selectCoin(db, id, coin);
      const charge = (await findCharge(db, id))!;
      return { id, address: charge.address, units: BigInt(charge.quotedUnits), required: charge.requiredConfirmations };
    }

    result.latency = await measureLatency({ db, getDb, receiver, ltc, evm, tron, newPayment, samples: o.chainSamples, log });
    result.load.afterLatency = load();
    log(`latency done; load ${result.load.afterLatency.join(" ")}`);

    const { businessId } = await createBusiness(db, {
      name: "Chain bench watched",
      mode: "live",
      webhookUrl: receiver.url,
      enabledCoins,
      extendedPublicKeys,
    } as Parameters<typeof createBusiness>[1]);
    result.scan = await measureScan({
      db,
      businessId,
      ltc,
      evm,
      tron,
      sizes: o.chainWatched,
      blocksPerSize: 5,
      txsPerBlock: 100,
      watchedPerBlock: 3,
      recentPaid: 1000,
      catchUpBlocks: o.catchUp,
      catchUpTxsPerBlock: 20,
      log,
    });
    result.load.end = load();
    await closeDb();
    console.log(`\n${chainsTable(result)}`);
    console.log(`\nraw figures: ${writeChainsResult(result)}`);
  } finally {
    await closeDb().catch(() => undefined);
    await receiver.close();
    await ltc?.stop();
    await evm?.stop();
    await tron?.stop();
    target.cleanup();
  }
}
