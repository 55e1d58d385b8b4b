import type { Address } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/db/client";
import { isDue, pollIntervalMs } from "@/lib/chains/solana/follower";
import { solanaDriver } from "@/lib/chains/solana/driver";
import { SPL_MINTS } from "@/domain/solana";
import { networkNameOf } from "@/domain/watched-chains";
import { chainsTable } from "../../scripts/admin-tables";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { oneChainFileAtATime } from "../serial";
import { DEVNET_GENESIS, startSolanaNode, type SolanaNode } from "./nodes/solana-node";
import { SolanaWallet } from "./nodes/solana-wallet";
import { log } from "@/log/logger.mjs";
import { freshSolanaCursor, solanaLivePayment, solanaWatcher } from "./solana-live-payment";

/**
 * The Solana driver (lib/chains/solana/driver.ts) and the watcher's polling, against fake Solana
 * nodes (LiteSVM behind JSON-RPC): the cluster read from the genesis hash, the mints checked,
 * each reference's backoff, the catch-up after downtime that asks about every reference, and
 * the lease between two instances.
 */

const chainFile = oneChainFileAtATime();
const MAINNET_GENESIS = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";
const MINUTE = 60_000;

describe("Solana driver: identifying the node", () => {
  const nodes: SolanaNode[] = [];
  const started = async (genesisHash?: string) => {
    const node = await startSolanaNode({ genesisHash });
    nodes.push(node);
    return node;
  };
  afterAll(async () => Promise.all(nodes.map((n) => n.close())));

  it("reads the cluster from the genesis hash: mainnet-beta is main, devnet test, any other a private development cluster", async () => {
    vi.spyOn(log, "error").mockImplementation(() => {});
    const mainnet = await started(MAINNET_GENESIS);
    // The built-in mainnet mints do not exist on this node: both are refused, SOL stays.
    expect(await solanaDriver(mainnet.url, { tokenMints: {} }).identify()).toMatchObject({ network: "main", chainId: 101, coins: ["SOLANA"] });
    expect(networkNameOf("SOLANA", 101)).toBe("mainnet-beta");
    const devnet = await started(DEVNET_GENESIS);
    expect(await solanaDriver(devnet.url, { tokenMints: {} }).identify()).toMatchObject({ network: "test", chainId: 103, coins: ["SOLANA"] });
    expect(networkNameOf("SOLANA", 103)).toBe("devnet");
    const own = await started();
    expect(await solanaDriver(own.url, { tokenMints: {} }).identify()).toMatchObject({ network: "regtest", chainId: null, coins: ["SOLANA"] });
    expect(networkNameOf("SOLANA", null)).toBe("private");
    // npm run admin -- chains names the cluster.
    const row = { chain: "SOLANA", state: "healthy", endpoint: own.url, tip: 5, cursor: 5, lag: 0, lastTickAt: null, tipChangedAt: null, lastError: null, lastErrorAt: null, coins: ["SOLANA"] };
    expect(chainsTable([{ ...row, network: "regtest", chainId: null, networkName: "private" }])).toMatch(/SOLANA\s+healthy\s+regtest \(private\)/);
    expect(chainsTable([{ ...row, network: "main", chainId: 101, networkName: "mainnet-beta" }])).toMatch(/main \(mainnet-beta, 101\)/);
    vi.restoreAllMocks();
  });

  it("offers an SPL coin only for a mint of the SPL Token program with the coin's decimals", async () => {
    const node = await started();
    const issuer = await SolanaWallet.funded(node.url);
    const usdc = await issuer.createMint(6);
    const nine = await issuer.createMint(9);
    const errors = vi.spyOn(log, "error").mockImplementation(() => {});
    const id = await solanaDriver(node.url, { tokenMints: { SOL_USD_COIN: usdc, SOL_TETHER: nine } }).identify();
    expect(id.coins).toEqual(["SOLANA", "SOL_USD_COIN"]);
    expect(errors.mock.calls.map((c) => String(c[1]))).toEqual([expect.stringContaining(`SOL_TETHER is not offered: the mint ${nine} is refused: it has 9 decimals, SOL_TETHER has 6`)]);
    errors.mockClear();
    // A wallet is no mint: it belongs to the System program.
    const wallet = await solanaDriver(node.url, { tokenMints: { SOL_USD_COIN: issuer.address } }).identify();
    expect(wallet.coins).toEqual(["SOLANA"]);
    expect(String(errors.mock.calls[0]?.[1])).toMatch(/belongs to 11111111111111111111111111111111, not the SPL Token program/);
    vi.restoreAllMocks();
    expect(SPL_MINTS.SOL_USD_COIN).toBe("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
  });
});

describe("Solana watcher: polling, catch-up and two instances", () => {
  let node: SolanaNode;
  let db: Db;
  let payer: SolanaWallet;
  let merchant: Address;
  let w: ReturnType<typeof solanaWatcher>;
  const livePayment = () => solanaLivePayment(db, "SOLANA", merchant, (id) => chainFile.retire(id));

  beforeAll(async () => {
    db = await getDb();
    node = await startSolanaNode();
    payer = await SolanaWallet.funded(node.url, 100_000_000_000n);
    merchant = (await SolanaWallet.funded(node.url, 1_000_000_000n)).address;
    w = solanaWatcher(db, node.url, () => new Map());
  });
  afterAll(async () => node?.close());

  it("asks about a fresh charge's reference every tick, an older one less often, a closed one rarely", () => {
    expect(pollIntervalMs(5 * MINUTE, false)).toBe(0);
    expect(pollIntervalMs(30 * MINUTE, false)).toBe(30_000);
    expect(pollIntervalMs(5 * 60 * MINUTE, false)).toBe(2 * MINUTE);
    expect(pollIntervalMs(3 * 24 * 60 * MINUTE, false)).toBe(10 * MINUTE);
    expect(pollIntervalMs(0, true)).toBe(10 * MINUTE);
    const now = new Date();
    const chosenAt = new Date(now.getTime() - 30 * MINUTE);
    expect(isDue({ chosenAt, checkedAt: null, status: "AWAITING_PAYMENT" }, now)).toBe(true);
    expect(isDue({ chosenAt, checkedAt: new Date(now.getTime() - 10_000), status: "AWAITING_PAYMENT" }, now)).toBe(false);
    expect(isDue({ chosenAt, checkedAt: new Date(now.getTime() - 31_000), status: "AWAITING_PAYMENT" }, now)).toBe(true);
  });

  it("finds a payment made while the watcher was down: a backed-off reference waits its turn, the first tick after a start asks about every one", async () => {
    const start = Date.now() + 20 * MINUTE; // the charge is twenty minutes old: asked every 30 s
    const at = (ms: number) => ({ now: () => new Date(start + ms) });
    const p = await livePayment();
    const o = w.options();
    expect(await w.tick(o, at(0))).toMatchObject({ followed: true });
    expect(await w.tick(o, at(5_000))).toMatchObject({ followed: true, transfers: 0 }); // asked at 0: not yet due again
    const sig = await payer.pay({ recipient: merchant, amount: p.units, reference: p.reference });
    expect(await w.tick(o, at(10_000))).toMatchObject({ transfers: 0 });
    expect(await w.status(p.id)).toBe("AWAITING_PAYMENT");
    // A restart: the driver's first tick asks about all (`all`), whatever their backoff.
    expect(await w.tick(o, { ...at(15_000), all: true })).toMatchObject({ transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("pays a charge its turn comes to after the backoff, from the signature it read last (until)", async () => {
    const start = Date.now() + 20 * MINUTE;
    const at = (ms: number) => ({ now: () => new Date(start + ms) });
    const p = await livePayment();
    const o = w.options();
    await w.tick(o, at(0));
    const sig = await payer.pay({ recipient: merchant, amount: p.units, reference: p.reference });
    expect(await w.tick(o, at(10_000))).toMatchObject({ transfers: 0 });
    const calls = node.calls.get("getTransaction") ?? 0;
    expect(await w.tick(o, at(31_000))).toMatchObject({ transfers: 1 });
    expect(node.calls.get("getTransaction")).toBe(calls + 1);
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig }]);
    // Asked again: nothing newer than that signature, no transaction read again.
    expect(await w.tick(o, at(62_000))).toMatchObject({ transfers: 0 });
    expect(node.calls.get("getTransaction")).toBe(calls + 1);
  });

  it("lets one instance follow the chain; the other takes over once the lease lapses, and a payment is recorded once", async () => {
    const p = await livePayment();
    const t0 = Date.now();
    const a = w.options({ owner: "a", leaseMs: 1_000, now: () => new Date(t0) });
    expect(await w.tick(a)).toMatchObject({ followed: true });
    const b = { ...a, owner: "b", now: () => new Date(t0 + 500) };
    expect(await w.tick(b)).toMatchObject({ followed: false });
    const sig = await payer.pay({ recipient: merchant, amount: p.units, reference: p.reference });
    // a stopped: b waits out a's lease, then goes on from a's cursor.
    const later = { ...b, now: () => new Date(t0 + 1_500) };
    expect(await w.tick(later)).toMatchObject({ followed: true, transfers: 1 });
    expect(await w.cursorOf(a)).toMatchObject({ leaseOwner: "b", height: node.chain.slot });
    // Both at once after b's lease: one follows; the payment is still recorded once.
    const both = await Promise.all([w.tick({ ...a, now: () => new Date(t0 + 3_000), all: true }), w.tick({ ...b, now: () => new Date(t0 + 3_000), all: true })]);
    expect(both.filter((r) => r.followed)).toHaveLength(1);
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig }]);
    expect(await w.status(p.id)).toBe("COMPLETED");
  });

  it("follows the chain's own cursor through the driver: the first tick after a start asks about every reference", async () => {
    await freshSolanaCursor(db);
    const p = await livePayment();
    const sig = await payer.pay({ recipient: merchant, amount: p.units, reference: p.reference });
    const driver = solanaDriver(node.url, { tokenMints: {} });
    const id = await driver.identify();
    const result = await driver.tick(db, id, { owner: "driver", lateWindowMs: 86_400_000, leaseMs: 30_000, now: () => new Date(), decide: reconcilePayment });
    expect(result).toMatchObject({ followed: true, transfers: 1 });
    expect(await w.transfersOf(p.id)).toMatchObject([{ txId: sig }]);
  });
});
