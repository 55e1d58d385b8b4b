import { z } from "zod";
import { COIN_NAMES } from "@/lib/chains/coins";

const urlField = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");

const percent = z.number().min(0, "must be between 0 and 100").max(100, "must be between 0 and 100");

const settings = {
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  webhookUrl: urlField.nullable(),
  paymentLifetimeSeconds: z.number().int("must be a whole number of seconds").min(5, "must be at least 5").max(604800, "must be at most 604800 (7 days)"),
  enabledCoins: z.array(z.enum(COIN_NAMES as [string, ...string[]])).min(1, "must name at least one coin"),
  feePercent: percent,
  underpaymentTolerancePercent: percent,
};

export const CreateBusinessSchema = z
  .strictObject({
    ...settings,
    mode: z.enum(["test", "live"]).default("test"),
    webhookUrl: settings.webhookUrl.optional(),
    paymentLifetimeSeconds: settings.paymentLifetimeSeconds.optional(),
    enabledCoins: settings.enabledCoins.optional(),
    feePercent: percent.optional(),
    underpaymentTolerancePercent: percent.optional(),
    parentBusinessId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .meta({ id: "CreateBusinessRequest" });
export type CreateBusinessInput = z.infer<typeof CreateBusinessSchema>;

export const PatchBusinessSchema = z
  .strictObject({
    name: settings.name.optional(),
    mode: z.enum(["test", "live"]).optional(),
    webhookUrl: settings.webhookUrl.optional(),
    paymentLifetimeSeconds: settings.paymentLifetimeSeconds.optional(),
    enabledCoins: settings.enabledCoins.optional(),
    feePercent: percent.optional(),
    underpaymentTolerancePercent: percent.optional(),
  })
  .meta({ id: "PatchBusinessRequest" });
export type PatchBusinessInput = z.infer<typeof PatchBusinessSchema>;

export const CreateApiKeySchema = z
  .strictObject({
    businessIds: z.array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).min(1).max(100).optional(),
    expiresInSeconds: z.number().int().min(60, "must be at least 60").max(10 * 365 * 86400).optional(),
  })
  .meta({ id: "CreateApiKeyRequest" });
export type CreateApiKeyInput = z.infer<typeof CreateApiKeySchema>;
