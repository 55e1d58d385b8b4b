import { randomBytes } from "node:crypto";
import { tronBase58Of } from "@/lib/chains/tron/address";
import { startTronNode, type TronAccount } from "../../test/chains/nodes/tron-node";

/**
 * The fake java-tron node (the tests' `startTronNode`, test/chains/nodes/tron-node.ts) made ready
 * for the chain-watcher bench: a private network with one emulated TRC-20 token (USDT, 6
 * decimals) and payers of the bench's own holding TRX and USDT. No java-tron can run here, so the
 * node is an in-memory chain served over HTTP from this very process: its answers are part of
 * what a tick costs (the bench measures them apart, scan-reads.ts).
 *
 * A block is made one of two ways. Traffic alone: `mineBusy`, transfers between the node's own
 * funded accounts built and signed by tronweb without a broadcast (~1 ms each). With transfers to
 * watched charges: every transaction of the block broadcast (built and signed here, checked by
 * the node as java-tron checks a broadcast, ~3 ms each), then one block mined from the pool, so
 * the watched payments sit among as much traffic as any other block.
 */

export type TronCoin = "TRON" | "TRX_TETHER";
export type TronOutput = { to: string; coin: TronCoin; units: bigint };

/** A random TRON address (base58 `T…`): nobody's. */
export function randomTronAddress(): string {
  return tronBase58Of(`41${randomBytes(20).toString("hex")}`);
}

export type TronBench = Awaited<ReturnType<typeof startTronBench>>;

export async function startTronBench() {
  const node = await startTronNode({ network: "private" });
  const usdt = node.deployToken({ symbol: "USDT", decimals: 6, name: "Tether USD" });
  const payers: TronAccount[] = Array.from({ length: 8 }, () => node.newAccount(10n ** 15n));
  for (const p of payers) node.mint(usdt.address, p.address, 10n ** 15n);
  let next = 0;

  /** One transaction per output, each from the next payer, broadcast in order; returns the txIDs. */
  async function pay(outputs: TronOutput[]): Promise<string[]> {
    const ids: string[] = [];
    for (const o of outputs) {
      const from = payers[next++ % payers.length];
      ids.push(o.coin === "TRON" ? await node.sendTrx(from, o.to, o.units) : await node.sendToken(from, usdt.address, o.to, o.units));
    }
    return ids;
  }

  return {
    node,
    url: node.url,
    usdt,
    pay,
    /** Mines `n` blocks; the first takes every broadcast transaction. */
    mine: (n: number) => node.mine(n),
    /**
     * One block of `trx` TRX and `token` USDT transfers, plus one to each of `watched`: traffic
     * alone by mineBusy, with watched outputs everything broadcast (to random addresses) and mined.
     */
    async block(o: { trx: number; token: number; watched: TronOutput[] }): Promise<void> {
      if (o.watched.length === 0) return node.mineBusy(1, { trx: o.trx, token: { contract: usdt.address, count: o.token } });
      await pay([
        ...Array.from({ length: o.trx }, (_, i): TronOutput => ({ to: randomTronAddress(), coin: "TRON", units: BigInt(1_000 + i) })),
        ...Array.from({ length: o.token }, (_, i): TronOutput => ({ to: randomTronAddress(), coin: "TRX_TETHER", units: BigInt(1_000 + i) })),
        ...o.watched,
      ]);
      await node.mine(1);
    },
    version: async () => "fake java-tron (test/chains/nodes/tron-node.ts)",
    stop: () => node.stop(),
  };
}
