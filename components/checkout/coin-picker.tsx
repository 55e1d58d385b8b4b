import type { ReactNode } from "react";
import { useTranslations } from "next-intl";
import type { CoinName } from "@/domain/coins";
import { assetChoices, assetOfCoin } from "@/lib/checkout/offering";
import type { CheckoutView } from "@/lib/checkout/view";
import { CoinChoiceForm } from "./coin-choice-form";
import { AssetIcon, NetworkIcon } from "./coin-icon";

type Coin = CheckoutView["coins"][number];

/**
 * The customer's choice of coin: the offered coins grouped by asset, then network
 * (lib/checkout/offering.ts). The logos are drawn here, on the server, so the browser loads
 * only those of the coins offered and none of the icon package's code.
 */
export function CoinPicker({ paymentId, coins, current }: { paymentId: string; coins: Coin[]; current?: CoinName }) {
  const t = useTranslations("checkout.choose");
  if (coins.length === 0) {
    return <p className="text-sm text-slate-600">{t("none")}</p>;
  }
  const assets = assetChoices(coins);
  const icons: Record<string, ReactNode> = {};
  for (const a of assets) {
    icons[`asset:${a.symbol}`] = <AssetIcon symbol={a.symbol} />;
    for (const n of a.networks) icons[`network:${a.symbol}:${n.network}`] = <NetworkIcon network={n.network} idPrefix={`network-${a.symbol}`} />;
  }
  return <CoinChoiceForm paymentId={paymentId} assets={assets} current={current} currentAsset={assetOfCoin(assets, current)?.symbol} icons={icons} />;
}
