import { z } from "zod";
import { COIN_NAMES } from "./coins";

/** Design §5: the test-mode simulator's request body. Coin amounts are whole coins (0.0015 BTC). */
export const SimulateRequestSchema = z
  .discriminatedUnion(
    "action",
    [
      z.strictObject({
        action: z.literal("select"),
        coin: z.enum(COIN_NAMES as [string, ...string[]], { error: "must be a coin identifier" }),
      }),
      z.strictObject({
        action: z.literal("pay"),
        amount: z.number().positive("must be greater than 0").optional(),
        confirmations: z.number().int().min(0).max(1000).optional(),
      }),
      z.strictObject({
        action: z.literal("confirm"),
        confirmations: z.number().int().min(1).max(1000).optional(),
      }),
      z.strictObject({ action: z.literal("fail") }),
    ],
    { error: "must be one of select, pay, confirm, fail" },
  )
  .meta({ id: "SimulateRequest", description: "Test-mode only: drive the simulated chain." });
