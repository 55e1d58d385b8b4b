import { z } from "zod";
import { COIN_NAMES, COINS } from "@/domain/coins";

/** "8: BITCOIN, LITECOIN, …; 18: ETHEREUM, …": the decimals of whole-coin amounts, for the document. */
const decimalsByCoin = Object.entries(
  COIN_NAMES.reduce<Record<number, string[]>>((acc, c) => ((acc[COINS[c].decimals] ??= []).push(c), acc), {}),
)
  .map(([decimals, coins]) => `${decimals} for ${coins.join(", ")}`)
  .join("; ");

/** Far above any coin's supply, and within the base-unit column (numeric(78,0)) for 18 decimals. */
const MAX_SIMULATED_COINS = 1_000_000_000_000;

/** Design §5: the test-mode simulator's request body. Coin amounts are whole coins (0.0015 BTC). */
export const SimulateRequestSchema = z
  .discriminatedUnion(
    "action",
    [
      z
        .strictObject({
          action: z.literal("select"),
          coin: z.enum(COIN_NAMES as [string, ...string[]], { error: "must be a coin identifier" }).meta({
            description: "A coin the payment offers (the business's enabled coins, narrowed by the payment's `paymentMethods`); another coin is a 400.",
          }),
        })
        .meta({
          title: "select",
          description:
            "What the customer does on checkout: chooses a coin, locking an exchange rate and getting a deposit address. Allowed while the payment is AWAITING_PAYMENT and no transfer has been seen (choosing again replaces the charge); otherwise 409, as is a coin without an exchange rate for the payment's currency.",
        }),
      z
        .strictObject({
          action: z.literal("pay"),
          amount: z
            .number()
            .positive("must be greater than 0")
            .max(MAX_SIMULATED_COINS, `must be at most ${MAX_SIMULATED_COINS}`)
            .optional()
            .meta({
              description: `Whole coins of the selected coin, more than 0 and at most ${MAX_SIMULATED_COINS}, with at most the coin's decimals (${decimalsByCoin}); more decimals are a 400. Omitted: exactly the amount still due (the whole quoted amount when nothing is due).`,
            }),
          confirmations: z
            .number()
            .int()
            .min(0)
            .max(1000)
            .optional()
            .meta({ format: "int32", description: "Confirmations the transfer already has: 0 to 1000. Default 0." }),
        })
        .meta({
          title: "pay",
          description:
            "A transfer to the payment's deposit address. Needs a selected coin (409 otherwise). A transfer after a final status is recorded as late.",
        }),
      z
        .strictObject({
          action: z.literal("confirm"),
          confirmations: z
            .number()
            .int()
            .min(1)
            .max(1000)
            .optional()
            .meta({ format: "int32", description: "Confirmations to add to every transfer: 1 to 1000. Default: as many as the coin needs to settle." }),
        })
        .meta({ title: "confirm", description: "New blocks: adds confirmations to the transfers. Needs a transfer that was not dropped (409 otherwise)." }),
      z
        .strictObject({ action: z.literal("fail") })
        .meta({ title: "fail", description: "A reorganisation drops every transfer. Needs a transfer that was not dropped (409 otherwise)." }),
    ],
    { error: "must be one of select, pay, confirm, fail" },
  )
  .meta({
    id: "SimulateRequest",
    description:
      "Test-mode only: one action on the simulated chain, chosen by `action`. The simulator only produces transfers and confirmations; the same detection logic that watches a real chain then decides the payment's status.",
    examples: [{ action: "select", coin: "BITCOIN" }],
  });
