import type { Db } from "@/db/client";
import type { CoinName } from "@/domain/coins";
import type { ChainNet } from "@/lib/wallets/derive";
import type { DecidePayment, FollowResult } from "./cursor-walk";

/** What a node says it serves: its network, an EVM chain's id, and the coins the chain can take there. */
export type NodeIdentity = { network: ChainNet; chainId: number | null; coins: CoinName[]; tokens: Map<string, CoinName[]> };

export type TickOptions = { owner: string; lateWindowMs: number; leaseMs: number; now: () => Date; decide: DecidePayment };

/**
 * The chain adapter interface: one chain's node as the orchestrator (follow.ts) drives it,
 * whatever its family. A network family implements it in a folder of its own (bitcoin/, evm/):
 * a node client, a follower that walks blocks through the cursor walk and records transfers
 * (hash, height, block hash, confirmations), and a safety net asking the node about open
 * addresses; `driverFor` (drivers.ts) names it.
 */
export type ChainDriver = {
  /** Asks the node which network it serves (once per process, and again after a failure). */
  identify(): Promise<NodeIdentity>;
  /** One watcher tick: blocks since the cursor, the mempool, confirmations, statuses. */
  tick(db: Db, id: NodeIdentity, o: TickOptions): Promise<FollowResult>;
  /** After catching up on start: asks the node directly about every open address. */
  checkOpenAddresses(db: Db, now: Date, decide: DecidePayment): Promise<number>;
};
