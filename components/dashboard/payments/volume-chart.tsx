"use client";

import { useSyncExternalStore } from "react";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { PaymentVolume } from "@/lib/dashboard/payments-chart";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const noop = () => () => {};

/**
 * Payments per UTC day of the chosen range: bars for the payments created and for those of them
 * now completed, a line for the completed ones' net total in USD (after the fee). The drawing is
 * for the eye; the same figures are in the caption and in the table below it, which is what
 * assistive technology reads.
 */
export function VolumeChart({ volume }: { volume: PaymentVolume }) {
  // The chart measures its container: drawn in the browser only (no empty server render).
  const mounted = useSyncExternalStore(noop, () => true, () => false);
  const { totals } = volume;
  const active = volume.days.filter((d) => d.created > 0);
  return (
    <figure aria-labelledby="volume-caption" className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
      <figcaption id="volume-caption" className="text-sm text-slate-800">
        <span className="font-semibold">Payments per day, {volume.from} to {volume.to} (UTC, by day created).</span>{" "}
        <span data-testid="volume-summary">
          {totals.created} created, {totals.completed} completed, {usd.format(Number(totals.completedNetUsd))} completed net in USD (after the fee).
        </span>
        {volume.clipped ? " The chosen range is longer than a year: its last 366 days are shown." : null}
      </figcaption>
      <div aria-hidden="true" className="mt-3 h-64 w-full">
        {mounted ? (
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={volume.days} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid stroke="#e2e8f0" vertical={false} />
              <XAxis dataKey="day" tick={{ fontSize: 12, fill: "#475569" }} minTickGap={24} />
              <YAxis yAxisId="count" allowDecimals={false} tick={{ fontSize: 12, fill: "#475569" }} width={40} />
              <YAxis yAxisId="usd" orientation="right" tick={{ fontSize: 12, fill: "#475569" }} width={64} tickFormatter={(v: number) => `$${v}`} />
              <Tooltip formatter={(value, name) => (name === "Completed, net USD" ? usd.format(Number(value)) : value)} />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              <Bar yAxisId="count" dataKey="created" name="Created" fill="#64748b" />
              <Bar yAxisId="count" dataKey="completed" name="Completed" fill="#047857" />
              <Line yAxisId="usd" dataKey="completedNetUsd" name="Completed, net USD" stroke="#4338ca" strokeWidth={2} dot={false} type="monotone" />
            </ComposedChart>
          </ResponsiveContainer>
        ) : null}
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-indigo-800 underline underline-offset-2">The figures as a table</summary>
        {active.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No payments in this range.</p>
        ) : (
          <div role="region" aria-label="Payments per day" tabIndex={0} className="mt-2 max-h-72 overflow-auto focus-visible:outline-2 focus-visible:outline-indigo-700">
            <table className="min-w-full text-sm">
              <caption className="sr-only">Payments per day (days without payments left out)</caption>
              <thead>
                <tr className="text-left text-slate-600">
                  <th scope="col" className="px-2 py-1">Day (UTC)</th>
                  <th scope="col" className="px-2 py-1 text-right">Created</th>
                  <th scope="col" className="px-2 py-1 text-right">Completed</th>
                  <th scope="col" className="px-2 py-1 text-right">Completed, net USD</th>
                </tr>
              </thead>
              <tbody>
                {active.map((d) => (
                  <tr key={d.day} className="border-t border-slate-100 tabular-nums">
                    <th scope="row" className="px-2 py-1 text-left font-normal">{d.day}</th>
                    <td className="px-2 py-1 text-right">{d.created}</td>
                    <td className="px-2 py-1 text-right">{d.completed}</td>
                    <td className="px-2 py-1 text-right">{usd.format(d.completedNetUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </figure>
  );
}
