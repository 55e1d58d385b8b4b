import { z } from "zod";
import { urlField } from "@/lib/http/url-field";
import { KEY_FAMILIES, networkOfFamily, validateExtendedPublicKey, type KeyFamily } from "@/lib/chains/derive";
import { COIN_NAMES } from "@/lib/chains/coins";


/**
 * Account-level extended public keys per key family (live businesses' deposit-address source).
 * Each is checked for the right network and script type; an empty string removes one.
 */
const ExtendedPublicKeysSchema = z
  .strictObject(
    Object.fromEntries(KEY_FAMILIES.map((f) => [f, z.string().max(200).optional()])) as Record<
      KeyFamily,
      z.ZodOptional<z.ZodString>
    >,
  )
  .superRefine((keys, ctx) => {
    for (const [family, key] of Object.entries(keys) as [KeyFamily, string | undefined][]) {
      if (!key) continue;
      try {
        validateExtendedPublicKey(networkOfFamily(family), key, family);
      } catch (e) {
        ctx.addIssue({ code: "custom", path: [family], message: (e as Error).message });
      }
    }
  })
  .meta({
    id: "ExtendedPublicKeys",
    description:
      "Account extended public keys (xpub/zpub) by family: BITCOIN (m/84'/0'/0'), BITCOIN_CASH (m/44'/145'/0'), LITECOIN (m/84'/2'/0'), ETHEREUM (m/44'/60'/0', also ERC-20), TRON (m/44'/195'/0', also TRC-20). Deposit addresses are derived from them; the service never holds private keys.",
  });

const percent = z.number().min(0, "must be between 0 and 100").max(100, "must be between 0 and 100");

const settings = {
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").meta({ description: "Name of the business." }),
  webhookUrl: urlField.nullable().meta({ description: "Default webhook address (https:// for a live business); null for none." }),
  paymentLifetimeSeconds: z
    .number()
    .int("must be a whole number of seconds")
    .min(5, "must be at least 5")
    .max(604800, "must be at most 604800 (7 days)")
    .meta({ description: "Time from createdAt to expiresAt of new payments. Default 3600." }),
  enabledCoins: z
    .array(z.enum(COIN_NAMES as [string, ...string[]]))
    .min(1, "must name at least one coin")
    .meta({ description: "Coins offered on checkout. Default: every coin the business's mode can serve." }),
  feePercent: percent.meta({ description: "Platform fee, in percent of the settled amount. Default 0." }),
  underpaymentTolerancePercent: percent.meta({ description: "A payment short by at most this percent counts as paid in full. Default 0." }),
  extendedPublicKeys: ExtendedPublicKeysSchema,
};

export const CreateBusinessSchema = z
  .strictObject({
    ...settings,
    mode: z
      .enum(["test", "live"])
      .default("test")
      .meta({ description: "`test` pays on a simulated chain; `live` on real chains." }),
    webhookUrl: settings.webhookUrl.optional(),
    paymentLifetimeSeconds: settings.paymentLifetimeSeconds.optional(),
    enabledCoins: settings.enabledCoins.optional(),
    feePercent: settings.feePercent.optional(),
    underpaymentTolerancePercent: settings.underpaymentTolerancePercent.optional(),
    extendedPublicKeys: settings.extendedPublicKeys.optional(),
    parentBusinessId: z
      .number()
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ format: "int64", description: "Makes this a sub-business of the given top-level business." }),
  })
  .meta({ id: "CreateBusinessRequest" });
export type CreateBusinessInput = z.infer<typeof CreateBusinessSchema>;

export const PatchBusinessSchema = z
  .strictObject({
    name: settings.name.optional(),
    mode: z.enum(["test", "live"]).optional().meta({ description: "`test` pays on a simulated chain; `live` on real chains." }),
    webhookUrl: settings.webhookUrl.optional(),
    paymentLifetimeSeconds: settings.paymentLifetimeSeconds.optional(),
    enabledCoins: settings.enabledCoins.optional(),
    feePercent: settings.feePercent.optional(),
    underpaymentTolerancePercent: settings.underpaymentTolerancePercent.optional(),
    extendedPublicKeys: settings.extendedPublicKeys.optional(),
  })
  .meta({ id: "PatchBusinessRequest" });
export type PatchBusinessInput = z.infer<typeof PatchBusinessSchema>;

export const CreateApiKeySchema = z
  .strictObject({
    businessIds: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Businesses the key may act for: this business and/or its sub-businesses. Default: this business." }),
    expiresInSeconds: z
      .number()
      .int()
      .min(60, "must be at least 60")
      .max(10 * 365 * 86400)
      .optional()
      .meta({ description: "Lifetime of the key. Omitted: the key does not expire." }),
  })
  .meta({ id: "CreateApiKeyRequest" });
export type CreateApiKeyInput = z.infer<typeof CreateApiKeySchema>;
