"use server";

import { refresh } from "next/cache";
import { getDb } from "@/db/client";
import { asUser, type ActionResult } from "@/lib/accounts/session";
import { editPaymentNote, redeliverPaymentWebhook } from "@/lib/dashboard/payments";

/*
 * The payment page's server actions. The ids are bound by the page, but a browser can send any:
 * each action calls a service that checks the signed-in user's membership and role itself
 * (lib/dashboard/payments.ts), and `asUser` turns a refusal into the form's message (its field
 * errors already a plain object, `plainFieldErrors`).
 */

export type NoteResult = ActionResult<{ note: string }>;
export type RedeliverResult = ActionResult<{ delivered: boolean; statusCode: number | null; attemptCount: number }>;

export async function saveNoteAction(businessId: string, paymentId: string, _prev: NoteResult | null, form: FormData): Promise<NoteResult> {
  const result = await asUser(async (user) => {
    const payment = await editPaymentNote(await getDb(), user.id, businessId, paymentId, form.get("note") ?? undefined);
    return { note: payment.note ?? "" };
  });
  if (!result.ok) return result;
  refresh();
  return { ...result, message: "Note saved." };
}

export async function redeliverAction(businessId: string, paymentId: string, _prev: RedeliverResult | null, form: FormData): Promise<RedeliverResult> {
  const result = await asUser(async (user) => {
    const delivery = await redeliverPaymentWebhook(await getDb(), user.id, businessId, paymentId, form.get("deliveryId"));
    // The delivery's status stays "succeeded" after a failed extra attempt: this attempt's own outcome is what to report.
    const attempt = delivery.attempts.at(-1);
    return { delivered: attempt?.succeeded ?? false, statusCode: attempt?.statusCode ?? null, attemptCount: delivery.attemptCount };
  });
  if (!result.ok) return result;
  refresh();
  const { delivered, statusCode, attemptCount } = result.data!;
  const answer = statusCode === null ? "no answer" : `HTTP ${statusCode}`;
  return { ...result, message: `Sent again (attempt ${attemptCount}): ${delivered ? "delivered" : "not delivered"}, ${answer}.` };
}
