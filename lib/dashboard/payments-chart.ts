import type { Db } from "@/db/client";
import { paymentsPerDay } from "@/db/queries/payments-dashboard";
import { authorize } from "@/lib/accounts/authorize";
import { Big } from "@/domain/decimal";
import { parseListQuery, type ListPaymentsQuery } from "@/lib/payments/list-query";
import { paymentFilterOf } from "./list-filter";

/*
 * The payments chart: per UTC day of creation, how many payments were created, how many of them
 * are completed, and the completed ones' total in USD. Requested amounts are in many currencies
 * and cannot be added up, so the money figure is `netAmountUsd`: what a completed payment settled
 * for in USD, after the platform fee, at the rate locked with its quote.
 */

/** Without a `fromTime`, the chart covers this many days up to `toTime` (or today). */
export const CHART_DEFAULT_DAYS = 30;
/** At most this many days are drawn: a longer range shows its last CHART_MAX_DAYS days. */
export const CHART_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

export type ChartDay = { day: string; created: number; completed: number; completedNetUsd: number };

export type PaymentVolume = {
  /** First and last day drawn, `YYYY-MM-DD` (UTC). */
  from: string;
  to: string;
  /** The chosen range was longer than CHART_MAX_DAYS: only its last days are drawn. */
  clipped: boolean;
  /** Every day of the range, oldest first, days without payments included. */
  days: ChartDay[];
  totals: { created: number; completed: number; completedNetUsd: string };
};

const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const startOfDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/**
 * The range drawn: the query's `fromTime`..`toTime`; without a `toTime` up to `now` (or to the
 * `fromTime`, when that is later); without a `fromTime` the CHART_DEFAULT_DAYS days up to its end;
 * never more than CHART_MAX_DAYS days (the last ones).
 */
export function chartRange(q: Pick<ListPaymentsQuery, "fromTime" | "toTime">, now: Date): { from: Date; to: Date; clipped: boolean } {
  const given = q.fromTime ? Date.parse(q.fromTime) : undefined;
  const to = q.toTime ? Date.parse(q.toTime) : Math.max(now.getTime(), given ?? 0);
  let from = given ?? startOfDay(to) - (CHART_DEFAULT_DAYS - 1) * DAY_MS;
  const earliest = startOfDay(to) - (CHART_MAX_DAYS - 1) * DAY_MS;
  const clipped = from < earliest;
  if (clipped) from = earliest;
  return { from: new Date(from), to: new Date(to), clipped };
}

/**
 * The chart's figures for the payments the URL's filters select (the list's own filter, the
 * range as `chartRange` draws it), one entry per day.
 */
export async function paymentVolume(db: Db, userId: string, businessId: unknown, search: URLSearchParams, now = new Date()): Promise<PaymentVolume> {
  const { business } = await authorize(db, userId, businessId, "view");
  const query = parseListQuery(search);
  const range = chartRange(query, now);
  const rows = await paymentsPerDay(db, business, { ...paymentFilterOf(query), fromTime: range.from, toTime: range.to });
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days: ChartDay[] = [];
  let completedNetUsd = new Big(0);
  for (let t = startOfDay(range.from.getTime()); t <= range.to.getTime(); t += DAY_MS) {
    const day = dayOf(t);
    const r = byDay.get(day);
    days.push({ day, created: r?.created ?? 0, completed: r?.completed ?? 0, completedNetUsd: r ? Number(r.completedNetUsd) : 0 });
    if (r) completedNetUsd = completedNetUsd.plus(r.completedNetUsd);
  }
  return {
    from: days[0]?.day ?? dayOf(range.from.getTime()),
    to: days.at(-1)?.day ?? dayOf(range.to.getTime()),
    clipped: range.clipped,
    days,
    totals: {
      created: rows.reduce((n, r) => n + r.created, 0),
      completed: rows.reduce((n, r) => n + r.completed, 0),
      completedNetUsd: completedNetUsd.toFixed(2),
    },
  };
}
