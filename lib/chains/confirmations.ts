import { COINS, type CoinName } from "@/domain/coins";

/**
 * Confirmations a transfer needs before it counts as paid (PROCESSING), per coin.
 *
 * - BITCOIN 1, BITCOIN_CASH 1: BTCPay Server's default ("SpeedPolicy: MediumSpeed" = 1
 *   confirmation), the usual merchant trade-off for payments of everyday size.
 * - LITECOIN 2: 2.5-minute blocks, so 2 confirmations arrive faster than 1 Bitcoin one.
 * - ETHEREUM network (ETH and every ERC-20) 12: the long-standing exchange/processor figure
 *   from proof-of-work days; ~2.5 minutes, well before finality but past ordinary reorgs.
 * - TRON network (TRX and TRC-20) 19: TRON's solidification — a block is irreversible once
 *   19 of the 27 super representatives have built on it.
 * - SOLANA network 32: the depth at which a slot is "finalized" (rooted).
 * - MONERO 10: outputs are spendable after 10 blocks (the protocol's lock), the figure
 *   wallets and processors wait for.
 * - TON 1, TON_TETHER 1: blocks are final on commit (BFT consensus), so one masterchain block suffices.
 */
const BY_COIN: Partial<Record<CoinName, number>> = {
  BITCOIN: 1,
  BITCOIN_CASH: 1,
  LITECOIN: 2,
  MONERO: 10,
  TON: 1,
  TON_TETHER: 1,
};

const BY_NETWORK = { ETHEREUM: 12, TRON: 19, SOLANA: 32 } as const;

export function requiredConfirmations(coin: CoinName): number {
  const own = BY_COIN[coin];
  if (own !== undefined) return own;
  const network = COINS[coin].network;
  if (network === "ETHEREUM" || network === "TRON" || network === "SOLANA") return BY_NETWORK[network];
  throw new Error(`No confirmation policy for ${coin}`);
}
