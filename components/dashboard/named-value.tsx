import type { Named } from "./names";

/**
 * An API value in words, with the value itself beside them as quiet secondary text: inline
 * ("Underpaid UNDERPAID") or under the words (`stacked`, in narrow cells). The hint, when there
 * is one, is the element's tooltip.
 */
export function NamedValue({ named, stacked = false, className = "" }: { named: Named; stacked?: boolean; className?: string }) {
  const same = named.label === named.api;
  return (
    <span title={named.hint} className={className}>
      {named.label}
      {same ? null : stacked ? (
        <span className="block font-mono text-xs font-normal text-slate-600">{named.api}</span>
      ) : (
        <>
          {" "}
          <code className="font-mono text-xs font-normal text-slate-600">{named.api}</code>
        </>
      )}
    </span>
  );
}
