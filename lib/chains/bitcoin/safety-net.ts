import type { Db } from "@/db/client";
import type { DecidePayment } from "../cursor-walk";
import { recordChainTransfer, watchedCharges } from "@/db/queries/chain-watch";
import { isTerminal } from "@/domain/transitions";
import { toBaseUnits } from "@/domain/amounts";
import type { CoinName } from "@/domain/coins";
import { scriptPubKeyOf } from "./scan";
import type { BitcoinRpc, DecimalText } from "./rpc";
import type { BitcoinChain } from "./follower";
import { log } from "@/log/logger.mjs";

type Unspent = { txid: string; vout: number; scriptPubKey: string; amount: DecimalText; height: number };

/** Descriptors per scantxoutset call: the node scans its whole UTXO set once per call, whatever their number. */
const CHUNK = 5_000;

/**
 * The safety net after catching up: asks the node directly what every open payment's address
 * holds (`scantxoutset`, one pass over the UTXO set for all of them, no wallet needed) and
 * records any output the block-by-block reading did not (a watcher bug, a block skipped by hand
 * in the database). Unspent outputs only: money already swept was seen when it arrived. Returns
 * the number of transfers it had to add, which should be 0.
 */
export async function checkOpenAddresses(db: Db, o: { chain: BitcoinChain; rpc: BitcoinRpc; now: Date; decide: DecidePayment }): Promise<number> {
  const open = (await watchedCharges(db, [o.chain as CoinName], o.now)).filter((c) => !isTerminal(c.status));
  const byScript = new Map<string, (typeof open)[number]>();
  for (const c of open) {
    try {
      byScript.set(scriptPubKeyOf(c.address), c);
    } catch {
      // An address of another network is nobody's on this node.
    }
  }
  const scripts = [...byScript.keys()];
  let added = 0;
  const touched = new Set<string>();
  for (let i = 0; i < scripts.length; i += CHUNK) {
    const descriptors = scripts.slice(i, i + CHUNK).map((s) => `raw(${s})`);
    const scan = await o.rpc.call<{ height: number; unspents: Unspent[] }>("scantxoutset", ["start", descriptors]);
    for (const u of scan.unspents) {
      const charge = byScript.get(u.scriptPubKey);
      if (!charge) continue;
      const changed = await recordChainTransfer(db, {
        paymentId: charge.paymentId,
        txId: `${u.txid}:${u.vout}`,
        amount: toBaseUnits(o.chain, u.amount),
        toAddress: charge.address,
        blockNumber: u.height,
        blockHash: await o.rpc.call<string>("getblockhash", [u.height]),
        confirmations: scan.height - u.height + 1,
        late: false,
        at: o.now,
      });
      if (changed) {
        added++;
        touched.add(charge.paymentId);
      }
    }
  }
  for (const id of touched) await o.decide(db, id, o.now);
  const found = added ? `; recorded ${added} output(s) the blocks had not shown` : "";
  log.info({ component: "watcher", chain: o.chain, addresses: scripts.length, added }, `checked the ${scripts.length} open address(es) directly${found}`);
  return added;
}
