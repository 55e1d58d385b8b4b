import type { Db } from "@/db/client";
import { listTransfers } from "@/db/queries/charges";
import { watchedCharges } from "@/db/queries/chain-watch";
import type { CoinName } from "@/domain/coins";
import { isTerminal } from "@/domain/transitions";
import { TRON_COINS } from "./follower";
import { readTrc20Balance, readTrxBalance, type TronClient } from "./rpc";
import { log } from "@/log/logger.mjs";

/**
 * The TRON safety net after catching up, as Ethereum's: asks the node what every open payment's
 * address holds (its TRX, or its balance of the charge's token) and compares it with the
 * transfers recorded. A full node has no "transactions to this address" query, so a shortfall is
 * logged, naming the payment, for the operator; the block-by-block reading is the real check.
 * One call per open address, once per start. Returns the addresses in question.
 */
export async function checkOpenTronAddresses(db: Db, o: { client: TronClient; contractOf: (coin: CoinName) => string | undefined; now: Date }): Promise<number> {
  const open = (await watchedCharges(db, TRON_COINS, o.now)).filter((c) => !isTerminal(c.status));
  let mismatched = 0;
  for (const c of open) {
    const native = c.coin === "TRON" || c.coin === "CONTRACT_TRC20_TRX";
    const contract = o.contractOf(c.coin);
    if (!native && !contract) continue;
    const held = contract ? await readTrc20Balance(o.client, contract, c.address) : await readTrxBalance(o.client, c.address);
    const recorded = (await listTransfers(db, c.paymentId)).filter((t) => !t.dropped).reduce((sum, t) => sum + BigInt(t.amount), 0n);
    if (held > recorded) {
      mismatched++;
      log.warn({ component: "watcher", chain: "TRON", paymentId: c.paymentId, address: c.address, coin: c.coin, held: String(held), recorded: String(recorded) }, `payment ${c.paymentId}: ${c.address} holds ${held} base units of ${c.coin}, ${recorded} recorded`);
    }
  }
  log.info({ component: "watcher", chain: "TRON", addresses: open.length, mismatched }, `checked the ${open.length} open address(es) directly${mismatched ? `; ${mismatched} hold more than recorded` : ""}`);
  return mismatched;
}
