import { EMAIL_CUSTOMERS } from "./seed";
import type { Scenario } from "./load";

export type Fixture = {
  businessId: number;
  apiKey: string;
  /** Ids of seeded payments to fetch and annotate. */
  paymentIds: string[];
  /** The seeding anchor: payment g was created g × SPACING_MS before it. */
  anchor: Date;
  /** A dashboard session of the business's owner (bench/dashboard.ts), set once the server runs. */
  dashboardCookie?: string;
};

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
const randomInt = (n: number) => 1 + Math.floor(Math.random() * n);

/** The framework's ceiling: a route handler that does no work. */
export const NOOP = "noop";
/** Reference: an unknown /v1 path — proxy.ts (which runs for every /v1 request) and the 404 catch-all, no database. */
export const V1_404 = "v1 404";

/** Every endpoint of the sweep, in table order. List pages are 20 items (PageSize=20). */
export function scenarios(f: Fixture): Scenario[] {
  const base = `/v1/businesses/${f.businessId}/payments`;
  const headers = { authorization: `Bearer ${f.apiKey}` };
  const day = 24 * 3600 * 1000;
  const api = (s: Omit<Scenario, "headers">): Scenario => ({ ...s, headers });
  return [
    { name: NOOP, method: "GET", next: () => ({ path: "/bench/noop" }) },
    { name: V1_404, method: "GET", next: () => ({ path: "/v1/no-such-endpoint" }), okStatus: 404 },
    api({
      name: "create",
      method: "POST",
      next: () => {
        const k = randomInt(EMAIL_CUSTOMERS);
        return {
          path: base,
          body: JSON.stringify({
            currency: "EUR",
            amount: (1000 + randomInt(9000)) / 100,
            name: `Order #b${k}`,
            description: "2x T-shirt, 1x mug",
            customerEmail: `buyer${k}@example.com`,
            metadata: { orderId: String(k) },
          }),
        };
      },
    }),
    api({ name: "fetch", method: "GET", next: () => ({ path: `${base}/${pick(f.paymentIds)}` }) }),
    api({ name: "list", method: "GET", next: () => ({ path: `${base}?PageSize=20` }) }),
    api({ name: "list:status", method: "GET", next: () => ({ path: `${base}?PageSize=20&statuses=COMPLETED` }) }),
    api({
      name: "list:search",
      method: "GET",
      // One customer's email: what a merchant types to find a buyer's payments.
      next: () => ({ path: `${base}?PageSize=20&searchString=${encodeURIComponent(`buyer${randomInt(EMAIL_CUSTOMERS)}@`)}` }),
    }),
    api({
      name: "list:time",
      method: "GET",
      // One day of payments (2 880 at the seeding's spacing), starting at a random point of the first 3 days.
      next: () => {
        const from = f.anchor.getTime() - randomInt(3 * 24) * 3600_000 - day;
        return {
          path: `${base}?PageSize=20&fromTime=${new Date(from).toISOString()}&toTime=${new Date(from + day).toISOString()}`,
        };
      },
    }),
    // The dashboard's pages, server-rendered for a signed-in owner: the business's overview, the
    // payments table (its first page, with the per-day chart) and a payment's page.
    ...(f.dashboardCookie
      ? [
          { name: "dash:overview", method: "GET", headers: { cookie: f.dashboardCookie }, next: () => ({ path: `/dashboard/${f.businessId}` }) } as Scenario,
          { name: "dash:list", method: "GET", headers: { cookie: f.dashboardCookie }, next: () => ({ path: `/dashboard/${f.businessId}/payments` }) } as Scenario,
          { name: "dash:detail", method: "GET", headers: { cookie: f.dashboardCookie }, next: () => ({ path: `/dashboard/${f.businessId}/payments/${pick(f.paymentIds)}` }) } as Scenario,
        ]
      : []),
    api({
      name: "note",
      method: "PUT",
      next: () => ({ path: `${base}/${pick(f.paymentIds)}/note`, body: JSON.stringify({ note: `Called the customer (${randomInt(1000)})` }) }),
    }),
  ];
}

