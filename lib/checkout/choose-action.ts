"use server";

import { selectCoinAction, type ActionResult } from "./actions";

/**
 * The coin picker's form: `asset` steps to that asset's networks (or back to the assets when
 * empty); `coin` chooses the coin. In the browser the picker steps between assets and networks
 * itself; this answers the same form posted before JavaScript runs (or without it), and the page
 * is rendered again with the step it returns.
 */
export type ChooseResult = ActionResult & { asset?: string | null };

export async function chooseCoinAction(prev: ChooseResult | null, form: FormData): Promise<ChooseResult> {
  const asset = form.get("asset");
  if (typeof asset === "string" && !form.has("coin")) return { ok: true, asset: /^[A-Z0-9]{1,12}$/.test(asset) ? asset : null };
  return selectCoinAction(prev, form);
}
