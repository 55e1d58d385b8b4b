import type { ChainLine, Overview, RatesLine } from "@/lib/dashboard/overview";
import { formatUtc } from "../format";
import { chainName, chainStateName, coinName, rateSourceName } from "../names";

const DOT: Record<string, string> = {
  healthy: "bg-emerald-600",
  starting: "bg-sky-600",
  failing: "bg-red-600",
  stalled: "bg-amber-500",
  "not configured": "bg-slate-400",
};

function ChainItem({ c }: { c: ChainLine }) {
  const state = chainStateName(c.state);
  const network = c.networkName ?? (c.network ? { main: "mainnet", test: "testnet", regtest: "regtest" }[c.network] : null);
  return (
    <li className="py-2 text-sm" data-testid="chain" data-chain={c.chain} data-state={c.state}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">{chainName(c.chain).label}</span>
        {network ? <span className="text-slate-600">{network}</span> : null}
        <span className="inline-flex items-center gap-1.5 text-slate-800" title={`${state.api}: ${state.hint ?? ""}`}>
          <span aria-hidden="true" className={`inline-block size-2 rounded-full ${DOT[c.state] ?? "bg-slate-400"}`} />
          {state.label}
        </span>
      </div>
      <p className="mt-0.5 text-slate-700">
        {c.coins.length ? `Your coins on it: ${c.coins.map((x) => coinName(x).label).join(", ")}.` : "None of your coins."}
        {c.lag !== null && c.state !== "not configured" ? ` ${c.lag} block${c.lag === 1 ? "" : "s"} behind the node.` : ""}
        {c.lastTickAt ? <> Last read {formatUtc(c.lastTickAt.toISOString())}.</> : null}
      </p>
      {c.lastError && c.state !== "healthy" ? <p className="mt-0.5 break-words text-red-800">Last error: {c.lastError}</p> : null}
    </li>
  );
}

function Rates({ r }: { r: RatesLine }) {
  const source = rateSourceName(r.source);
  return (
    <div className="text-sm" data-testid="rates">
      <p className="text-slate-800">
        Exchange rates come from: <span className="font-medium">{source.label}</span> <code className="font-mono text-xs text-slate-600">{source.api}</code>
        {r.asOf ? `, as of ${r.asOf}` : ""}.
      </p>
      {!r.servesBusiness ? (
        <p className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-red-900 ring-1 ring-red-200">
          The built-in table serves test businesses only: this live business cannot quote a price until the operator sets market providers or a rates file.
        </p>
      ) : null}
      {r.providers.length ? (
        <ul className="mt-2 space-y-1">
          {r.providers.map((p) => (
            <li key={p.provider} className="text-slate-700">
              <span className="font-medium text-slate-900">{p.provider}</span>
              {p.lastSuccessAt ? ` · last price ${formatUtc(p.lastSuccessAt)}` : " · no price yet"}
              {p.lastError && (!p.lastSuccessAt || (p.lastErrorAt ?? "") > p.lastSuccessAt) ? <span className="text-red-800"> · failing: {p.lastError}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {r.unusableCoins.length ? (
        <div className="mt-2 rounded-lg bg-amber-50 px-3 py-2 text-amber-950 ring-1 ring-amber-200" data-testid="unusable-coins">
          <p className="font-medium">Coins customers cannot pay in now, for want of a fresh rate:</p>
          <ul className="mt-1 list-disc pl-5">
            {r.unusableCoins.map((c) => (
              <li key={c.coin}>
                {coinName(c.coin).label} <code className="font-mono text-xs">{c.coin}</code>: {c.why}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="mt-2 text-slate-700">Every coin you accept has a usable rate.</p>
      )}
    </div>
  );
}

/**
 * Whether what the business's payments depend on works: each watched chain's watcher (its state,
 * lag and last error, with the business's coins on it) and the exchange rates (their source, the
 * market providers' last price and error, the enabled coins without a usable rate). In test mode
 * the chains only inform: payments are made on the simulated chain.
 */
export function Health({ overview: o }: { overview: Overview }) {
  return (
    <section aria-labelledby="health-heading" className="space-y-3">
      <h3 id="health-heading" className="text-base font-semibold text-slate-900">Chains and exchange rates</h3>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
          <h4 className="font-semibold text-slate-900">Chains</h4>
          {o.business.mode === "test" ? (
            <p className="mt-1 text-sm text-slate-700">Test mode: your payments use the simulated chain. These are the chains live businesses are paid on.</p>
          ) : null}
          <ul className="mt-1 divide-y divide-slate-100">
            {o.chains.map((c) => (
              <ChainItem key={c.chain} c={c} />
            ))}
          </ul>
        </div>
        <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
          <h4 className="mb-1 font-semibold text-slate-900">Exchange rates</h4>
          <Rates r={o.rates} />
        </div>
      </div>
    </section>
  );
}
