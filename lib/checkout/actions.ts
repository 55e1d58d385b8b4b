"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { simulate, type SimulateAction } from "@/lib/checkout/simulator";
import { cancelPayment } from "@/lib/checkout/cancel";
import { setCustomerEmail } from "@/lib/checkout/customer";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { checkoutErrors, checkoutLocale } from "@/lib/checkout/locale";
import { COINS, type CoinName } from "@/domain/coins";
import { ApiError, notFound, type ProblemCode } from "@/lib/http/errors";
import { log } from "@/log/logger.mjs";

/**
 * The checkout page's server actions. Each one re-validates its input (the browser can send
 * anything), calls one service function, refreshes the page on success, and answers a plain
 * result in the customer's language: a message chosen by the error's kind (the service's
 * `ApiError.detail` is the API's English), never a stack trace or an internal error.
 */
export type ActionResult = { ok: true } | { ok: false; error: string };

type ErrorKey = Parameters<Awaited<ReturnType<typeof checkoutErrors>>>[0];
/** What each action says for each kind of refusal; any other kind gets `generic`. */
type Refusals = Partial<Record<ProblemCode, ErrorKey>>;

function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
}

async function errorText(key: ErrorKey, values?: Record<string, string>): Promise<string> {
  return (await checkoutErrors())(key, values);
}

/** The schemas' messages are keys of `checkout.errors`: the first issue's, in the customer's language. */
async function firstIssue(error: z.ZodError): Promise<ActionResult> {
  return { ok: false, error: await errorText((error.issues[0]?.message as ErrorKey | undefined) ?? "generic") };
}

/** Runs one service call; a refusal is answered by its kind, in the customer's language (`values` fill its message). */
async function run(work: () => Promise<unknown>, refusals: Refusals, values?: Record<string, string>): Promise<ActionResult> {
  try {
    await work();
  } catch (e) {
    if (!(e instanceof ApiError)) log.error({ component: "checkout", err: e }, "a checkout action failed");
    const key = (e instanceof ApiError && refusals[e.code]) || "generic";
    return { ok: false, error: await errorText(key, values) };
  }
  refresh();
  return { ok: true };
}

const paymentIdField = z.uuid("unknownPayment" satisfies ErrorKey);

const selectInput = z.object({
  paymentId: paymentIdField,
  coin: z.string().regex(/^[A-Z0-9_]{1,40}$/, "chooseOffered" satisfies ErrorKey),
});

export async function selectCoinAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = selectInput.safeParse({ paymentId: field(form, "paymentId"), coin: field(form, "coin") });
  if (!input.success) return firstIssue(input.error);
  const coin = COINS[input.data.coin as CoinName]?.name ?? input.data.coin;
  return run(
    async () => selectCoin(await getDb(), input.data.paymentId, input.data.coin),
    { "validation-error": "coinUnavailable", conflict: "coinLocked", "rate-unavailable": "rateUnavailable", "not-found": "unknownPayment" },
    { coin },
  );
}

const emailInput = z.object({
  paymentId: paymentIdField,
  email: z
    .string()
    .trim()
    .min(1, "emailRequired" satisfies ErrorKey)
    .max(254, "emailTooLong" satisfies ErrorKey)
    .pipe(z.email("emailInvalid" satisfies ErrorKey)),
});

export async function setEmailAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = emailInput.safeParse({ paymentId: field(form, "paymentId"), email: field(form, "email") ?? "" });
  if (!input.success) return firstIssue(input.error);
  return run(async () => setCustomerEmail(await getDb(), input.data.paymentId, input.data.email, await checkoutLocale()), {
    "validation-error": "emailUnusable",
    conflict: "emailAlreadySet",
    "not-found": "unknownPayment",
  });
}

const cancelInput = z.object({ paymentId: paymentIdField });

export async function cancelAction(_prev: ActionResult | null, form: FormData): Promise<ActionResult> {
  const input = cancelInput.safeParse({ paymentId: field(form, "paymentId") });
  if (!input.success) return firstIssue(input.error);
  return run(async () => cancelPayment(await getDb(), input.data.paymentId), { conflict: "cannotCancel", "not-found": "unknownPayment" });
}

/**
 * Whole coins as typed by a person: digits with an optional fraction, no sign or exponent. A
 * decimal comma is read as the point, as customers in most of the checkout's languages type it.
 */
const coinAmount = z
  .string()
  .trim()
  .overwrite((v) => v.replace(",", "."))
  .regex(/^\d{1,20}(\.\d{1,18})?$/, "amountFormat" satisfies ErrorKey)
  .refine((v) => Number(v) > 0, "amountPositive" satisfies ErrorKey);

const simulateInput = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("pay-full"), paymentId: paymentIdField }),
  z.object({ intent: z.literal("pay-part"), paymentId: paymentIdField, amount: coinAmount }),
  z.object({
    intent: z.literal("confirm"),
    paymentId: paymentIdField,
    confirmations: z.coerce
      .number("confirmationsNumber" satisfies ErrorKey)
      .int("confirmationsWhole" satisfies ErrorKey)
      .min(1, "confirmationsMin" satisfies ErrorKey)
      .max(1000, "confirmationsMax" satisfies ErrorKey),
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
  if (!input.success) return firstIssue(input.error);
  const { paymentId } = input.data;
  return run(
    async () => {
      const db = await getDb();
      const view = await checkoutView(db, paymentId);
      if (!view?.testMode) throw notFound("The simulated chain is only available for test-mode payments.");
      await simulate(db, paymentId, toSimulation(input.data));
    },
    { "not-found": "notTestMode", conflict: "nothingToSimulate", "validation-error": "amountRefused" },
  );
}
