import type { ActionResult } from "@/lib/checkout/actions";

/** The error of a server action, announced to screen readers as it appears. */
export function FormError({ result, id }: { result: ActionResult | null; id?: string }) {
  return (
    <p id={id} role="alert" className="mt-2 text-sm font-medium text-red-700 empty:hidden">
      {result && !result.ok ? result.error : ""}
    </p>
  );
}
