import { formatUtc } from "../format";

/** One try at sending: when, whether the other side took it, its code, how long it took, and what it answered. */
export type AttemptRow = { attemptedAt: string; succeeded: boolean; code: number | null; latencyMs: number; answer: string | null };

type Props = {
  caption: string;
  rows: AttemptRow[];
  /** The words of the outcome and columns: "Delivered" / "HTTP status" for webhooks, "Accepted" / "SMTP code" for e-mails. */
  succeeded: string;
  codeHeader: string;
  answerHeader: string;
  rowTestId: string;
};

/** The attempts of one webhook delivery or customer e-mail, as both logs show them. */
export function AttemptsTable({ caption, rows, succeeded, codeHeader, answerHeader, rowTestId }: Props) {
  return (
    <table className="min-w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-50 text-left text-slate-600">
        <tr>
          <th scope="col" className="px-3 py-1.5">Time (UTC)</th>
          <th scope="col" className="px-3 py-1.5">Result</th>
          <th scope="col" className="px-3 py-1.5 text-right">{codeHeader}</th>
          <th scope="col" className="px-3 py-1.5 text-right">Latency</th>
          <th scope="col" className="px-3 py-1.5">{answerHeader}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a, i) => (
          <tr key={i} className="border-t border-slate-100" data-testid={rowTestId}>
            <td className="whitespace-nowrap px-3 py-1.5">{formatUtc(a.attemptedAt)}</td>
            <td className="px-3 py-1.5">{a.succeeded ? succeeded : "Failed"}</td>
            <td className="px-3 py-1.5 text-right tabular-nums">{a.code ?? "—"}</td>
            <td className="px-3 py-1.5 text-right tabular-nums">{a.latencyMs} ms</td>
            <td className="max-w-sm truncate px-3 py-1.5 font-mono text-xs" title={a.answer ?? ""}>
              {a.answer ?? ""}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
