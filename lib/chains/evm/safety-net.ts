import { erc20Abi, type Address } from "viem";
import type { Db } from "@/db/client";
import { listTransfers } from "@/db/queries/charges";
import { watchedCharges } from "@/db/queries/chain-watch";
import { isTerminal } from "@/domain/transitions";
import type { CoinName } from "@/domain/coins";
import type { EvmClient } from "./rpc";
import { EVM_COINS } from "./follower";
import { log } from "@/log/logger.mjs";

/**
 * The Ethereum safety net after catching up: asks the node what every open payment's address
 * holds (its Ether balance, or its balance of the charge's token) and compares it with the
 * transfers recorded for it. Standard JSON-RPC has no "transactions to this address" query, so
 * a shortfall in the records cannot be filled in from here: it is logged, naming the payment, for
 * the operator (the block-by-block reading plus eth_getLogs over every range is the real
 * check). One or two calls per open address, once per start. Returns the addresses in question.
 */
export async function checkOpenEvmAddresses(
  db: Db,
  o: { client: EvmClient; contractOf: (coin: CoinName) => string | undefined; now: Date },
): Promise<number> {
  const open = (await watchedCharges(db, EVM_COINS, o.now)).filter((c) => !isTerminal(c.status));
  let mismatched = 0;
  for (const c of open) {
    const address = c.address as Address;
    const contract = o.contractOf(c.coin);
    if (c.coin !== "ETHEREUM" && c.coin !== "CONTRACT_ERC20_ETH" && !contract) continue;
    const held = contract
      ? await o.client.readContract({ address: contract as Address, abi: erc20Abi, functionName: "balanceOf", args: [address] })
      : await o.client.getBalance({ address });
    const recorded = (await listTransfers(db, c.paymentId)).filter((t) => !t.dropped).reduce((sum, t) => sum + BigInt(t.amount), 0n);
    if (held > recorded) {
      mismatched++;
      log.warn({ component: "watcher", chain: "ETHEREUM", paymentId: c.paymentId, address: c.address, coin: c.coin, held: String(held), recorded: String(recorded) }, `payment ${c.paymentId}: ${c.address} holds ${held} base units of ${c.coin}, ${recorded} recorded`);
    }
  }
  log.info({ component: "watcher", chain: "ETHEREUM", addresses: open.length, mismatched }, `checked the ${open.length} open address(es) directly${mismatched ? `; ${mismatched} hold more than recorded` : ""}`);
  return mismatched;
}
