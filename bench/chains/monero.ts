/**
 * `npm run bench -- --chains monero`: the Monero watcher against a real regtest monerod and one
 * monero-wallet-rpc (Debian's `monero`; test/chains/nodes/monero.ts starts them), in this process:
 * 1. latency with the embedded runner's jobs: a payment's broadcast → PENDING webhook, and the
 *    block giving its 10th confirmation → COMPLETED webhook, for a live business whose webhook is a
 *    local receiver;
 * 2. a tick's time with 1, 10 and 100 businesses sharing the wallet-rpc, each with an open payment
 *    (a session per business per tick: open_wallet, refresh, get_transfers), one new block per
 *    tick, and what a business's first payment costs (generate_from_keys, create_address).
 * Businesses get keys made here (random ed25519 scalars, the address encoded in Monero's base58),
 * so no full wallet is made per business. Writes bench/results/<date>-monero.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ed25519 } from "@noble/curves/ed25519.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { chainCursors } from "@/db/schema";
import { closeDb, openDb } from "../db";
import type { Options } from "../options";
import { machine } from "../report";
import { prepareTarget, pointThisProcessAt } from "../target";
import { startReceiver, startTimedRunner } from "./latency";

const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const ENCODED = [0, 2, 3, 5, 6, 7, 9, 10, 11];

/** Monero's base58: 8-byte blocks, each exactly 11 characters (a shorter last block fewer), the inverse of lib/chains/monero/address.ts. */
function base58(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8) {
    const block = bytes.subarray(i, i + 8);
    let n = 0n;
    for (const b of block) n = (n << 8n) | BigInt(b);
    let chars = "";
    for (let k = 0; k < ENCODED[block.length]; k++, n /= 58n) chars = ALPHABET[Number(n % 58n)] + chars;
    out += chars;
  }
  return out;
}

/** A mainnet (and regtest) wallet's primary address and private view key, from random scalars. */
function randomKeys(): { primaryAddress: string; privateViewKey: string } {
  const L = ed25519.Point.CURVE().n;
  const scalar = () => {
    let n = 0n;
    for (const b of crypto.getRandomValues(new Uint8Array(64))) n = (n << 8n) | BigInt(b);
    return (n % (L - 1n)) + 1n;
  };
  const [spend, view] = [scalar(), scalar()];
  const body = new Uint8Array([18, ...ed25519.Point.BASE.multiply(spend).toBytes(), ...ed25519.Point.BASE.multiply(view).toBytes()]);
  const le = new Uint8Array(32);
  for (let i = 0, v = view; i < 32; i++, v >>= 8n) le[i] = Number(v & 0xffn);
  return { primaryAddress: base58(new Uint8Array([...body, ...keccak_256(body).subarray(0, 4)])), privateViewKey: bytesToHex(le) };
}

export async function runMoneroChains(o: Options): Promise<void> {
  const target = await prepareTarget(o.dbs[0], o);
  const { startMonerod, startWalletRpc, mine } = await import("../../test/chains/nodes/monero");
  const { freePort } = await import("../../test/chains/nodes/free-port");
  const { moneroRpc, moneroTip } = await import("@/lib/chains/monero/rpc");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-monerod-"));
  const daemonProcess = startMonerod(dataDir, await freePort(), await freePort());
  const daemonUrl = `http://127.0.0.1:${(daemonProcess.spawnargs.find((a) => a.startsWith("--rpc-bind-port=")) ?? "").split("=")[1]}`;
  const daemon = moneroRpc(daemonUrl, { timeoutMs: 300_000 });
  const stops: (() => Promise<void>)[] = [];
  const receiver = await startReceiver();
  try {
    for (const deadline = Date.now() + 90_000; !(await moneroTip(daemon).then(() => true, () => false)); await sleep(250)) {
      if (Date.now() > deadline) throw new Error("monerod did not answer within 90 s");
    }
    const [service, spenderRpc] = await Promise.all([startWalletRpc(daemonUrl), startWalletRpc(daemonUrl)]);
    stops.push(service.stop, spenderRpc.stop);
    await spenderRpc.rpc.call("create_wallet", { filename: "spender", password: "", language: "English" }, z.unknown());
    const { address: spender } = await spenderRpc.rpc.call("get_address", { account_index: 0 }, z.object({ address: z.string() }));
    log("mining 100 blocks to the spending wallet");
    await mine(daemon, 100, spender);
    const pay = async (to: string, units: bigint) => {
      await spenderRpc.rpc.call("refresh", {}, z.unknown());
      return (await spenderRpc.rpc.call("transfer", { destinations: [{ amount: Number(units), address: to }], priority: 0 }, z.object({ tx_hash: z.string() }))).tx_hash;
    };

    pointThisProcessAt(target, o.port);
    for (const k of ["BITCOIN_RPC_URL", "BITCOIN_CASH_RPC_URL", "LITECOIN_RPC_URL", "ETHEREUM_RPC_URL", "TRON_RPC_URL", "SOLANA_RPC_URL", "RATE_PROVIDERS"]) delete process.env[k];
    Object.assign(process.env, {
      MONERO_DAEMON_URL: daemonUrl,
      MONERO_WALLET_RPC_URL: service.url,
      RATES_FILE: new URL("../../test/fixtures/pinned-rates.json", import.meta.url).pathname,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    });
    const db = await openDb();
    const { getDb } = await import("@/db/client");
    const { createBusiness } = await import("@/lib/businesses/businesses");
    const { findBusiness } = await import("@/db/queries/businesses");
    const { setMoneroWallet } = await import("@/lib/businesses/monero-wallet");
    const { createPayment } = await import("@/lib/payments/create");
    const { selectCoin } = await import("@/lib/checkout/select");
    const { findCharge } = await import("@/db/queries/charges");
    const { followMoneroChain } = await import("@/lib/chains/monero/follower");
    const { lastSession } = await import("@/lib/chains/monero/wallets");
    const { reconcilePayment } = await import("@/lib/payments/reconcile");
    const result: Record<string, unknown> = { startedAt: new Date().toISOString(), database: o.dbs[0], machine: machine(), monerod: "0.18.0.0 (Debian), regtest" };
    // Written after each part: a hundred wallets' sessions take long on a loaded machine, and a cut run keeps what it measured.
    const file = `${new URL("../results/", import.meta.url).pathname}${new Date().toISOString().slice(0, 10)}-monero.json`;
    const save = () => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(result, null, 2));
    };

    /** A live business with fresh keys, and a payment of it with MONERO chosen (its wallet made at the first). */
    const height = await moneroTip(daemon);
    async function business(webhookUrl?: string) {
      const { businessId } = await createBusiness(db, { name: "Monero bench", mode: "live", enabledCoins: ["MONERO"], ...(webhookUrl ? { webhookUrl } : {}) } as Parameters<typeof createBusiness>[1]);
      await setMoneroWallet(db, businessId, { ...randomKeys(), restoreHeight: height });
      return (await findBusiness(db, businessId))!;
    }
    /** The chain's health as a tick writes it: MONERO is offered only while followed within the minute (the scaling ticks use a cursor of their own). */
    const followed = async () => {
      const now = new Date();
      await db.update(chainCursors).set({ tickedAt: now, tipChangedAt: now }).where(eq(chainCursors.chain, "MONERO"));
    };
    async function payment(b: NonNullable<Awaited<ReturnType<typeof findBusiness>>>) {
      await followed();
      const { id } = await createPayment(db, b, { currency: "USD", amount: 20, name: "Monero bench" } as never);
      const t0 = performance.now();
      await selectCoin(db, id, "MONERO");
      const selectMs = performance.now() - t0;
      const charge = (await findCharge(db, id))!;
      return { id, address: charge.address, units: BigInt(charge.quotedUnits), selectMs };
    }

    // 1. Latency through the embedded runner (follow-chains every 5 s, deliver-webhooks every 250 ms).
    const runner = await startTimedRunner(getDb);
    const shop = await business(receiver.url);
    await sleep(6_000); // the chain's first tick: it is followed, and MONERO offered
    const latency: { pendingMs: number; completedMs: number }[] = [];
    for (let i = 0; i < o.chainSamples && i < 3; i++) {
      const p = await payment(shop);
      await sleep(Math.random() * 5_000);
      const sentAt = Date.now();
      await pay(p.address, p.units);
      const arrival = async (type: string) => {
        for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(100)) {
          const a = receiver.arrivals.find((r) => r.paymentId === p.id && r.type === type);
          if (a) return a.at;
        }
        throw new Error(`no ${type} webhook for ${p.id}`);
      };
      const pendingMs = (await arrival("PAYMENT_PENDING")) - sentAt;
      await sleep(Math.random() * 5_000);
      await mine(daemon, 10, spender);
      const minedAt = Date.now();
      const completedMs = (await arrival("PAYMENT_COMPLETED")) - minedAt;
      latency.push({ pendingMs, completedMs });
      log(`latency: broadcast → PENDING ${pendingMs} ms, 10th block → COMPLETED ${completedMs} ms`);
    }
    runner.stop();
    result.latency = { samples: latency, pendingMs: median(latency.map((l) => l.pendingMs)), completedMs: median(latency.map((l) => l.completedMs)) };
    save();

    // 2. A tick's time with 1, 10 and 100 businesses on the one wallet-rpc, each with an open payment.
    // The latency part's business counts among them: its completed payments are watched for late money, a session each tick.
    const businesses: Awaited<ReturnType<typeof business>>[] = [shop];
    const firstPayments: number[] = [];
    const ticks: Record<string, unknown>[] = [];
    const options = { daemon, wallet: service.rpc, net: "regtest" as const, owner: "bench", cursor: "MONERO-bench", lateWindowMs: 7 * 86_400_000, decide: reconcilePayment };
    await followMoneroChain(db, options); // the cursor starts at the tip
    for (const n of [1, 10, 100]) {
      while (businesses.length < n) {
        const b = await business();
        businesses.push(b);
        firstPayments.push((await payment(b)).selectMs);
      }
      await followMoneroChain(db, options); // each wallet's first session since its payment
      const runs = [];
      // A hundred sessions take minutes on a loaded machine: one tick there, three for the others.
      for (let i = 0; i < (n === 100 ? 1 : 3); i++) {
        await mine(daemon, 1, spender);
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await followMoneroChain(db, options);
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        runs.push({ ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), lastSession: { openMs: Math.round(lastSession.openMs), workMs: Math.round(lastSession.workMs) } });
      }
      const ms = median(runs.map((r) => r.ms));
      ticks.push({ businesses: n, tickMs: ms, perBusinessMs: Math.round(ms / n), runs });
      log(`${n} business(es): a tick ${ms} ms (${Math.round(ms / n)} ms a business); runs ${runs.map((r) => r.ms).join(", ")}`);
      result.ticks = ticks;
      save();
    }
    result.ticks = ticks;
    result.firstPaymentSelectMs = { median: Math.round(median(firstPayments)), max: Math.round(Math.max(...firstPayments)) };
    console.log(JSON.stringify({ latency: result.latency, ticks: ticks.map(({ runs: _r, ...t }) => t), firstPaymentSelectMs: result.firstPaymentSelectMs }, null, 2));
    save();
    console.log(`raw figures: ${file}`);
  } finally {
    await closeDb().catch(() => undefined);
    await receiver.close();
    await Promise.all(stops.map((s) => s().catch(() => undefined)));
    daemonProcess.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
    target.cleanup();
  }
}
