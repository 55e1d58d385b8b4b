import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { PAYMENT_NETWORKS, paymentNetworkOf } from "@/domain/assets";
import { COIN_NAMES, COINS, type CoinName } from "@/domain/coins";
import { defaultEnabledCoins, servableCoins } from "@/domain/watched-chains";
import { assetChoices, type AssetChoice } from "@/lib/checkout/offering";
import { checkoutView } from "@/lib/checkout/view";
import { ASSET_ICONS, AssetIcon, NETWORK_ICONS, NetworkIcon } from "@/components/checkout/coin-icon";
import { createPayment, newBusiness } from "../helpers";

const offered = (coins: readonly CoinName[], unavailable: readonly CoinName[] = []) => coins.map((coin) => ({ coin, available: !unavailable.includes(coin) }));
const summary = (assets: AssetChoice[]) => assets.map((a) => `${a.symbol}: ${a.networks.map((n) => `${n.networkName}=${n.coin}`).join(", ")}`);

describe("the checkout's choice of coin: the asset, then its network", () => {
  it("groups the whole catalogue by asset, most held first, each network once with the PLATFORM_CRYPTO coin", () => {
    const assets = assetChoices(offered(COIN_NAMES));
    expect(assets.slice(0, 4).map((a) => a.symbol)).toEqual(["BTC", "ETH", "USDT", "USDC"]);
    expect(summary(assets)).toEqual([
      "BTC: Bitcoin=BITCOIN",
      "ETH: Ethereum=ETHEREUM",
      "USDT: Ethereum=ETH_TETHER, TRON=TRX_TETHER, Solana=SOL_TETHER, TON=TON_TETHER",
      "USDC: Ethereum=ETH_USD_COIN, TRON=TRX_USD_C, Solana=SOL_USD_COIN",
      "LTC: Litecoin=LITECOIN",
      "BCH: Bitcoin Cash=BITCOIN_CASH",
      "SOL: Solana=SOLANA",
      "TRX: TRON=TRON",
      "XMR: Monero=MONERO",
      "TON: TON=TON",
      "BNB: Ethereum=BNB",
      "DAI: Ethereum=ETH_DAI",
      "BUSD: Ethereum=ETH_BUSD",
      "MATIC: Ethereum=ETH_MATIC",
      "SHIB: Ethereum=ETH_SHIBA_INU",
      "APE: Ethereum=ETH_APE_COIN",
      "CRO: Ethereum=ETH_CRONOS",
      "UNI: Ethereum=ETH_UNISWAP",
    ]);
    const usdt = assets.find((a) => a.symbol === "USDT")!;
    expect(usdt.name).toBe("Tether");
    expect(usdt.networks.map((n) => n.standard)).toEqual(["ERC-20", "TRC-20", "SPL", "Jetton"]);
    expect(assets.find((a) => a.symbol === "ETH")!.networks[0].standard).toBeNull();
  });

  it("whatever order the coins come in, a contract coin yields to its twin; alone, it is listed under its asset and network", () => {
    const twins = assetChoices(offered(["CONTRACT_TRC20_USDT", "CONTRACT_ERC20_ETH", "TRX_TETHER", "ETHEREUM"]));
    expect(summary(twins)).toEqual(["ETH: Ethereum=ETHEREUM", "USDT: TRON=TRX_TETHER"]);
    const alone = assetChoices(offered(["BITCOIN", "CONTRACT_TRC20_USDT", "CONTRACT_ERC20_USDC", "ETH_USD_COIN"]));
    expect(summary(alone)).toEqual(["BTC: Bitcoin=BITCOIN", "USDT: TRON=CONTRACT_TRC20_USDT", "USDC: Ethereum=ETH_USD_COIN"]);
    expect(alone[1].networks[0].standard).toBe("TRC-20");
  });

  it("names Bitcoin Cash's network Bitcoin Cash, though the spec's network field says BTC", () => {
    expect(COINS.BITCOIN_CASH.network).toBe("BTC");
    expect(paymentNetworkOf("BITCOIN_CASH")).toBe("BITCOIN_CASH");
    expect(assetChoices(offered(["BITCOIN_CASH"]))[0].networks[0].networkName).toBe("Bitcoin Cash");
  });

  it("an asset is available while one of its networks can be quoted", () => {
    const some = assetChoices(offered(["ETH_TETHER", "TRX_TETHER"], ["ETH_TETHER"]))[0];
    expect(some.available).toBe(true);
    expect(some.networks.map((n) => n.available)).toEqual([false, true]);
    expect(assetChoices(offered(["ETH_TETHER", "TRX_TETHER"], ["ETH_TETHER", "TRX_TETHER"]))[0].available).toBe(false);
  });

  it("every asset and every network has its logo, drawn as a decorative SVG", () => {
    const symbols = new Set(COIN_NAMES.map((c) => COINS[c].symbol));
    for (const symbol of symbols) {
      expect(ASSET_ICONS[symbol], symbol).toBeTypeOf("function");
      const svg = renderToStaticMarkup(createElement(AssetIcon, { symbol }));
      expect(svg, symbol).toMatch(/^<svg [^>]*aria-hidden="true"/);
      expect(svg, symbol).toContain("<path");
    }
    for (const network of PAYMENT_NETWORKS) {
      expect(NETWORK_ICONS[network], network).toBeTypeOf("function");
      expect(renderToStaticMarkup(createElement(NetworkIcon, { network })), network).toMatch(/^<svg [^>]*aria-hidden="true"/);
    }
    // Two drawings of one logo on a page keep their gradient ids apart.
    const ids = (html: string) => [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    const trx = ids(renderToStaticMarkup(createElement(AssetIcon, { symbol: "TRX" })));
    const tron = ids(renderToStaticMarkup(createElement(NetworkIcon, { network: "TRON", idPrefix: "network-TRX" })));
    expect(trx.length).toBeGreaterThan(0);
    expect(trx.filter((id) => tron.includes(id))).toEqual([]);
  });
});

describe("a new business's coins", () => {
  // The embedded database starts with the first query: in the hook, whose time limit allows for a busy machine.
  beforeAll(async () => {
    await getDb();
  });

  it("are BTC, ETH, LTC, and USDT and USDC on Ethereum and TRON, all of watched chains", () => {
    expect(defaultEnabledCoins()).toEqual(["BITCOIN", "ETHEREUM", "LITECOIN", "ETH_TETHER", "ETH_USD_COIN", "TRX_TETHER", "TRX_USD_C"]);
    for (const coin of defaultEnabledCoins()) expect(servableCoins("live")).toContain(coin);
    expect(servableCoins("test")).toEqual(COIN_NAMES);
  });

  it("show a test business's first checkout five assets, USDT and USDC each on Ethereum and TRON", async () => {
    const db = await getDb();
    const b = await newBusiness();
    expect(b.enabledCoins).toEqual(defaultEnabledCoins());
    const { id } = await createPayment(b, { currency: "USD", amount: 25 });
    const assets = assetChoices((await checkoutView(db, id))!.coins);
    expect(summary(assets)).toEqual([
      "BTC: Bitcoin=BITCOIN",
      "ETH: Ethereum=ETHEREUM",
      "USDT: Ethereum=ETH_TETHER, TRON=TRX_TETHER",
      "USDC: Ethereum=ETH_USD_COIN, TRON=TRX_USD_C",
      "LTC: Litecoin=LITECOIN",
    ]);
  });
});
