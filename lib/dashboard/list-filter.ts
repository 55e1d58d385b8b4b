export { paymentFilterOf } from "@/lib/payments/read";

/** Next's `searchParams` (a value or a list per name) as URLSearchParams, repeats kept in order. */
export function searchParamsOf(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(record)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, v);
  }
  return out;
}
