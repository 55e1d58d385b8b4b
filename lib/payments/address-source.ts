import type { Business } from "@/db/schema";
import { config } from "@/lib/config";
import type { LiveCoin } from "@/lib/chains/health";
import type { CoinName } from "@/domain/coins";
import { keyFamilyOf, networkOfFamily, validateExtendedPublicKey } from "@/lib/wallets/derive";
import { watchedChainOf, type WatchedChain } from "@/domain/watched-chains";
import type { Tx } from "@/db/client";
import { findMoneroWallet } from "@/db/queries/monero";
import { findSolanaWallet } from "@/db/queries/solana";
import { findTonWallet, type TonWallet } from "@/db/queries/ton";
import { tonAddressFits } from "@/lib/wallets/ton";
import { moneroAddressFits } from "@/lib/chains/monero/address";

/**
 * The merchant wallets a business gave beside its extended public keys, kept in tables of their
 * own (db/schema/monero.ts, db/schema/solana.ts, db/schema/ton.ts): read for a business by `withWalletSources`.
 */
export type WalletSources = { moneroAddress?: string | null; solanaWallet?: string | null; tonWallet?: TonWallet | null };

type Source = Pick<Business, "mode" | "extendedPublicKeys"> & WalletSources;

/** The business with its own wallets' addresses, for the checks below (a live business's only: test ones pay the simulator). */
export async function withWalletSources<B extends Pick<Business, "id" | "mode">>(db: Tx, business: B): Promise<B & WalletSources> {
  if (business.mode !== "live") return business;
  return { ...business, moneroAddress: (await findMoneroWallet(db, business.id))?.primaryAddress ?? null, solanaWallet: (await findSolanaWallet(db, business.id)) ?? null, tonWallet: (await findTonWallet(db, business.id)) ?? null };
}

const CHAIN_NAMES: Record<WatchedChain, string> = { BITCOIN: "Bitcoin", LITECOIN: "Litecoin", BITCOIN_CASH: "Bitcoin Cash", ETHEREUM: "Ethereum", TRON: "TRON", SOLANA: "Solana", MONERO: "Monero", TON: "TON" };

/**
 * Why a payment may not offer the coin (at creation, from configuration alone), or null when it
 * may: test businesses always may (the simulated chain); live businesses when the coin's chain
 * has a node configured and the business an extended public key of the coin's family. Whether
 * the chain is healthy now is asked when the customer chooses (canServeNow): a node that is down
 * for a moment does not refuse payments that may well be paid once it is back.
 */
export function addressSourceProblem(business: Source, coin: CoinName): string | null {
  if (business.mode === "test") return null;
  const chain = watchedChainOf(coin);
  if (chain === null) return "this service watches no chain of it";
  // lib/config names each chain's node variable after the chain.
  if (config().chains.rpcUrls[chain] === undefined) return `no ${CHAIN_NAMES[chain]} node is configured (${chain === "MONERO" ? "MONERO_DAEMON_URL" : chain === "TON" ? "TON_API_URL" : `${chain}_RPC_URL`})`;
  if (coin === "MONERO") return moneroSourceProblem(business);
  // Solana is paid to the merchant's one wallet, each payment told apart by its reference: no key derives addresses.
  if (chain === "SOLANA") return business.solanaWallet ? null : "no Solana wallet address (solanaWallet)";
  // TON too: the merchant's one wallet, each payment told apart by its comment.
  if (chain === "TON") return business.tonWallet ? null : "no TON wallet address (tonWallet)";
  const family = keyFamilyOf(coin);
  if (family === null || !business.extendedPublicKeys[family]) return `no extended public key (extendedPublicKeys.${family ?? chain})`;
  return null;
}

/** Monero pays subaddresses the wallet-rpc makes in the business's view-only wallet: both must be there. */
function moneroSourceProblem(business: Source): string | null {
  if (!config().chains.monero?.walletRpcUrl) return "no Monero wallet-rpc is configured (MONERO_WALLET_RPC_URL)";
  return business.moneroAddress ? null : "no Monero wallet (PUT …/monero-wallet: primary address, private view key, restore height)";
}

export function hasAddressSource(business: Source, coin: CoinName): boolean {
  return addressSourceProblem(business, coin) === null;
}

/**
 * Whether the customer can pay in the coin now: for a live business, its chain is healthy
 * (`live`, from chainsHealth) and the business's key derives addresses on the chain's network
 * (a mainnet key cannot pay a regtest node, nor the reverse).
 */
export function canServeNow(business: Source, coin: CoinName, live: ReadonlyMap<CoinName, LiveCoin>): boolean {
  if (business.mode === "test") return true;
  const on = live.get(coin);
  if (coin === "MONERO") return Boolean(on && business.moneroAddress && moneroAddressFits(business.moneroAddress, on.network));
  if (watchedChainOf(coin) === "SOLANA") return Boolean(on && business.solanaWallet);
  // A testnet form of the address is paid on a test network only, a mainnet form on mainnet only; a raw one, or a private network, takes either.
  if (watchedChainOf(coin) === "TON") return Boolean(on && business.tonWallet && (on.network === "regtest" || tonAddressFits(business.tonWallet.testnet, on.network === "test")));
  const family = keyFamilyOf(coin);
  const key = family && business.extendedPublicKeys[family];
  if (!on || !family || !key) return false;
  try {
    validateExtendedPublicKey(networkOfFamily(family), key, coin, on.network);
    return true;
  } catch {
    return false;
  }
}
