const TONES: Record<string, string> = {
  BTC: "bg-orange-100 text-orange-800",
  BCH: "bg-green-100 text-green-800",
  ETH: "bg-indigo-100 text-indigo-800",
  LTC: "bg-slate-200 text-slate-800",
  USDT: "bg-emerald-100 text-emerald-800",
  USDC: "bg-blue-100 text-blue-800",
  SOL: "bg-fuchsia-100 text-fuchsia-800",
  TRX: "bg-red-100 text-red-800",
  XMR: "bg-orange-100 text-orange-900",
};

/** A round token with the coin's ticker: a readable stand-in for a logo. */
export function CoinBadge({ symbol, size = "md" }: { symbol: string; size?: "md" | "lg" }) {
  const dims = size === "lg" ? "size-11 text-xs" : "size-9 text-[0.65rem]";
  return (
    <span
      aria-hidden="true"
      className={`inline-flex shrink-0 items-center justify-center rounded-full font-bold tracking-tight ${dims} ${
        TONES[symbol] ?? "bg-slate-100 text-slate-700"
      }`}
    >
      {symbol.slice(0, 4)}
    </span>
  );
}
