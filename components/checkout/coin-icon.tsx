import type { FC, SVGProps } from "react";
import Ape from "@bitgo-forks/cryptocurrency-icons/react/ape.js";
import Bch from "@bitgo-forks/cryptocurrency-icons/react/bch.js";
import Bnb from "@bitgo-forks/cryptocurrency-icons/react/bnb.js";
import Btc from "@bitgo-forks/cryptocurrency-icons/react/btc.js";
import Busd from "@bitgo-forks/cryptocurrency-icons/react/busd.js";
import Cro from "@bitgo-forks/cryptocurrency-icons/react/cro.js";
import Dai from "@bitgo-forks/cryptocurrency-icons/react/dai.js";
import Eth from "@bitgo-forks/cryptocurrency-icons/react/eth.js";
import Ltc from "@bitgo-forks/cryptocurrency-icons/react/ltc.js";
import Matic from "@bitgo-forks/cryptocurrency-icons/react/matic.js";
import Shib from "@bitgo-forks/cryptocurrency-icons/react/shib.js";
import Sol from "@bitgo-forks/cryptocurrency-icons/react/sol.js";
import Ton from "@bitgo-forks/cryptocurrency-icons/react/ton.js";
import Trx from "@bitgo-forks/cryptocurrency-icons/react/trx.js";
import Uni from "@bitgo-forks/cryptocurrency-icons/react/uni.js";
import Usdc from "@bitgo-forks/cryptocurrency-icons/react/usdc.js";
import Usdt from "@bitgo-forks/cryptocurrency-icons/react/usdt.js";
import Xmr from "@bitgo-forks/cryptocurrency-icons/react/xmr.js";
import type { PaymentNetwork } from "@/domain/assets";

type Icon = FC<SVGProps<SVGSVGElement> & { prefixId?: string }>;

/** Each asset's logo by ticker (@bitgo-forks/cryptocurrency-icons, CC0-1.0): every ticker of domain/coins.ts. */
export const ASSET_ICONS: Record<string, Icon> = {
  BTC: Btc,
  ETH: Eth,
  USDT: Usdt,
  USDC: Usdc,
  LTC: Ltc,
  BCH: Bch,
  SOL: Sol,
  TRX: Trx,
  XMR: Xmr,
  TON: Ton,
  BNB: Bnb,
  DAI: Dai,
  BUSD: Busd,
  MATIC: Matic,
  SHIB: Shib,
  APE: Ape,
  CRO: Cro,
  UNI: Uni,
};

/** Each network's logo: the logo of the network's own coin, as wallets show a chain. */
export const NETWORK_ICONS: Record<PaymentNetwork, Icon> = {
  BITCOIN: Btc,
  ETHEREUM: Eth,
  TRON: Trx,
  SOLANA: Sol,
  LITECOIN: Ltc,
  BITCOIN_CASH: Bch,
  MONERO: Xmr,
  TON: Ton,
};

const SIZES = { sm: "size-5", md: "size-9", lg: "size-11" } as const;

/**
 * A logo beside the coin's or network's written name: decorative, so hidden from assistive
 * technology. `idPrefix` keeps the ids of an icon's gradients unique when it is drawn twice on
 * a page (the TRX asset and the TRON network share one).
 */
function Logo({ icon: Svg, idPrefix, size }: { icon: Icon | undefined; idPrefix: string; size: keyof typeof SIZES }) {
  if (!Svg) return <span aria-hidden="true" className={`inline-block shrink-0 rounded-full bg-slate-200 ${SIZES[size]}`} />;
  return <Svg aria-hidden="true" focusable="false" prefixId={`${idPrefix}-`} className={`shrink-0 ${SIZES[size]}`} />;
}

export function AssetIcon({ symbol, size = "md", idPrefix = "asset" }: { symbol: string; size?: keyof typeof SIZES; idPrefix?: string }) {
  return <Logo icon={ASSET_ICONS[symbol]} idPrefix={`${idPrefix}-${symbol}`} size={size} />;
}

export function NetworkIcon({ network, size = "md", idPrefix = "network" }: { network: PaymentNetwork; size?: keyof typeof SIZES; idPrefix?: string }) {
  return <Logo icon={NETWORK_ICONS[network]} idPrefix={`${idPrefix}-${network}`} size={size} />;
}
