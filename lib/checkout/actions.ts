"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { simulate, type SimulateAction } from "@/lib/checkout/simulator";
import { cancelPayment } from "@/lib/checkout/cancel";
import { setCustomerEmail } from "@/lib/checkout/customer";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { ApiError, notFound } from "@/lib/http/errors";

/**
 * The checkout page's server actions. Each one re-validates its input (the browser can send
 * anything), calls one service function, refreshes the page on success, and answers a plain
 * result: customers see `ApiError.detail`, never a stack trace or an internal error.
 */
export type ActionResult = { ok: true } | { ok: false; error: string };

const GENERIC_ERROR = "Something went wrong on our side. Please try again in a moment.";

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Invalid input.";
}

async function run(work: () => Promise<unknown>): Promise<ActionResult> {
  try {
    await work();
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, error: e.detail };
    console.error("[checkout] action failed", e);
    return { ok: false, error: GENERIC_ERROR };
  }
  refresh();
  return { ok: true };
}

const UNKNOWN_PAYMENT = "This payment does not exist.";
const paymentIdField = z.uuid(UNKNOWN_PAYMENT);

const selectInput = z.object({
  paymentId: paymentIdField,
  coin: z.string().regex(/^[A-Z0-9_]{1,40}$/, "Choose one of the offered coins."),
});

export async function selectCoinAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = selectInput.safeParse({ paymentId: field(form, "paymentId"), coin: field(form, "coin") });
  if (!input.success) return { ok: false, error: firstIssue(input.error) };
  return run(async () => selectCoin(await getDb(), input.data.paymentId, input.data.coin));
}

const emailInput = z.object({
  paymentId: paymentIdField,
  email: z
    .string()
    .trim()
    .min(1, "Enter your email address.")
    .max(254, "That email address is too long.")
    .pipe(z.email("Enter a valid email address, like name@example.com.")),
});

export async function setEmailAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = emailInput.safeParse({ paymentId: field(form, "paymentId"), email: field(form, "email") ?? "" });
  if (!input.success) return { ok: false, error: firstIssue(input.error) };
  return run(async () => setCustomerEmail(await getDb(), input.data.paymentId, input.data.email));
}

const cancelInput = z.object({ paymentId: paymentIdField });

export async function cancelAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = cancelInput.safeParse({ paymentId: field(form, "paymentId") });
  if (!input.success) return { ok: false, error: firstIssue(input.error) };
  return run(async () => cancelPayment(await getDb(), input.data.paymentId));
}

/** Whole coins as typed by a person: digits with an optional fraction, no sign or exponent. */
const coinAmount = z
  .string()
  .trim()
  .regex(/^\d{1,20}(\.\d{1,18})?$/, "Enter an amount in whole coins, like 0.0005.")
  .refine((v) => Number(v) > 0, "Enter an amount greater than 0.");

const simulateInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("pay-full"), paymentId: paymentIdField }),
  z.object({ intent: z.literal("pay-part"), paymentId: paymentIdField, amount: coinAmount }),
  z.object({
    intent: z.literal("confirm"),
    paymentId: paymentIdField,
    confirmations: z.coerce
      .number("Enter a number of confirmations.")
      .int("Enter a whole number of confirmations.")
      .min(1, "Add at least 1 confirmation.")
      .max(1000, "Add at most 1000 confirmations at a time."),
  }),
  z.object({ intent: z.literal("fail"), paymentId: paymentIdField }),
]);

function toSimulation(input: z.infer<typeof simulateInput>): SimulateAction {
  switch (input.intent) {
    case "pay-full":
      return { action: "pay" };
    case "pay-part":
      return { action: "pay", amount: Number(input.amount) };
    case "confirm":
      return { action: "confirm", confirmations: input.confirmations };
    case "fail":
      return { action: "fail" };
  }
}

/** The test-mode panel (design §5): simulated transfers, confirmations and drops. Test businesses only. */
export async function simulateAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = simulateInput.safeParse({
    intent: field(form, "intent"),
    paymentId: field(form, "paymentId"),
    amount: field(form, "amount"),
    confirmations: field(form, "confirmations"),
  });
  if (!input.success) return { ok: false, error: firstIssue(input.error) };
  const { paymentId } = input.data;
  return run(async () => {
    const db = await getDb();
    const view = await checkoutView(db, paymentId);
    if (!view) throw notFound(UNKNOWN_PAYMENT);
    if (!view.testMode) throw notFound("The simulated chain is only available for test-mode payments.");
    await simulate(db, paymentId, toSimulation(input.data));
  });
}
