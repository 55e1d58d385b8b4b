import { ASSET_NAMES, assetNameOf, NETWORK_NAMES, PAYMENT_NETWORKS, paymentNetworkOf, tokenStandardOf, type PaymentNetwork } from "@/domain/assets";
import { COINS, type CoinName } from "@/domain/coins";

/**
 * The checkout's choice of coin, in two steps as exchanges and Coinbase Commerce present it:
 * first the asset (BTC, ETH, USDT, …), then, for an asset offered on several networks, the
 * network (USDT on Ethereum, TRON or Solana). Each network choice is one coin of the catalogue.
 */
export type NetworkChoice = {
  coin: CoinName;
  network: PaymentNetwork;
  networkName: string;
  /** "ERC-20", "TRC-20" or "SPL" for a token; null for the network's own coin. */
  standard: string | null;
  available: boolean;
};

export type AssetChoice = {
  symbol: string;
  name: string;
  networks: NetworkChoice[];
  /** Whether any of its networks can be quoted now. */
  available: boolean;
};

const ASSET_ORDER = Object.keys(ASSET_NAMES);
const rank = (order: readonly string[], key: string) => (order.includes(key) ? order.indexOf(key) : order.length);

/**
 * The offered coins grouped by asset, most held assets first and each asset's networks in a
 * fixed order. A contract-charge coin (CONTRACT_ERC20_USDT, …) pays the same asset on the same
 * network as its catalogue twin (ETH_TETHER): when both are offered the customer gets one choice,
 * the PLATFORM_CRYPTO coin; a contract coin offered alone is listed like any other.
 */
export function assetChoices(coins: readonly { coin: CoinName; available: boolean }[]): AssetChoice[] {
  const byAsset = new Map<string, Map<PaymentNetwork, NetworkChoice>>();
  for (const { coin, available } of coins) {
    const { symbol, chargeType } = COINS[coin];
    const network = paymentNetworkOf(coin);
    const networks = byAsset.get(symbol) ?? new Map<PaymentNetwork, NetworkChoice>();
    byAsset.set(symbol, networks);
    const held = networks.get(network);
    if (held && (COINS[held.coin].chargeType === "PLATFORM_CRYPTO" || chargeType !== "PLATFORM_CRYPTO")) continue;
    networks.set(network, { coin, network, networkName: NETWORK_NAMES[network], standard: tokenStandardOf(coin), available });
  }
  return [...byAsset]
    .map(([symbol, networks]) => {
      const list = [...networks.values()].sort((a, b) => rank(PAYMENT_NETWORKS, a.network) - rank(PAYMENT_NETWORKS, b.network));
      return { symbol, name: assetNameOf(symbol), networks: list, available: list.some((n) => n.available) };
    })
    .sort((a, b) => rank(ASSET_ORDER, a.symbol) - rank(ASSET_ORDER, b.symbol));
}

/** The asset a coin belongs to among `assets`, for marking the customer's current choice. */
export function assetOfCoin(assets: readonly AssetChoice[], coin: CoinName | undefined): AssetChoice | undefined {
  return coin === undefined ? undefined : assets.find((a) => a.networks.some((n) => n.coin === coin) || a.symbol === COINS[coin].symbol);
}
