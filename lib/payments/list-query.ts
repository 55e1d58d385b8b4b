import { z } from "zod";
import { CryptoCoinNameSchema, PaymentStatusSchema } from "./schemas";
import { parseWith, validationError } from "@/lib/http/parse";

export const MAX_PAGE_SIZE = 100;

export const ListPaymentsQuerySchema = z
  .strictObject({
    PageNumber: z.coerce.number({ error: "must be an integer" }).int("must be an integer").min(1, "must be at least 1").max(1_000_000, "must be at most 1000000").default(1).meta({ description: "Page number, from 1." }),
    PageSize: z.coerce
      .number({ error: "must be an integer" })
      .int("must be an integer")
      .min(1, "must be at least 1")
      .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
      .default(20)
      .meta({ description: "Results per page." }),
    fromTime: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z" })
      .optional()
      .meta({ description: "Start of the date range of `createdAt`, inclusive." }),
    toTime: z.iso
      .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z" })
      .optional()
      .meta({ description: "End of the date range of `createdAt`, inclusive." }),
    statuses: z
      .array(PaymentStatusSchema)
      .optional()
      .meta({
        description: "Only payments in one of these statuses. Repeat the parameter once per value.",
        param: { style: "form", explode: true },
      }),
    cryptoCoins: z
      .array(CryptoCoinNameSchema)
      .optional()
      .meta({
        description: "Only payments whose customer selected one of these coins. Repeat the parameter once per value.",
        param: { style: "form", explode: true },
      }),
    fromAmount: z.coerce
      .number({ error: "must be a number" })
      .min(0, "must not be negative")
      .optional()
      .meta({ description: "Minimum requested amount (`prePaymentAmount`), inclusive." }),
    toAmount: z.coerce
      .number({ error: "must be a number" })
      .min(0, "must not be negative")
      .optional()
      .meta({ description: "Maximum requested amount (`prePaymentAmount`), inclusive." }),
    searchString: z
      .string()
      .max(200, "must be at most 200 characters")
      .optional()
      .meta({ description: "Case-insensitive substring of the name, description, note or customer email." }),
    onBehalfOfBusinessId: z.coerce
      .number({ error: "must be an integer" })
      .int("must be an integer")
      .positive("must be positive")
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ format: "int64", description: "Only payments made on behalf of this business." }),
  })
  .superRefine((q, ctx) => {
    if (q.fromTime && q.toTime && Date.parse(q.fromTime) > Date.parse(q.toTime)) {
      ctx.addIssue({ code: "custom", path: ["toTime"], message: "must not be before fromTime" });
    }
    if (q.fromAmount !== undefined && q.toAmount !== undefined && q.fromAmount > q.toAmount) {
      ctx.addIssue({ code: "custom", path: ["toAmount"], message: "must not be less than fromAmount" });
    }
  })
  .meta({ id: "ListPaymentsQuery" });
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuerySchema>;

const ARRAY_PARAMS = new Set(["statuses", "cryptoCoins"]);
const CANONICAL = new Map(Object.keys(ListPaymentsQuerySchema.shape).map((k) => [k.toLowerCase(), k]));

/**
 * D1: parameter names match case-insensitively; `statuses` and `cryptoCoins` repeat (a
 * trailing `[]` is accepted too); a single-valued parameter given twice is an error.
 */
export function parseListQuery(search: URLSearchParams): ListPaymentsQuery {
  // Null-prototype records: a parameter named `constructor`, `toString` or `__proto__` is just an unknown name.
  const raw: Record<string, string | string[]> = Object.create(null);
  const errors: Record<string, string[]> = Object.create(null);
  for (const [name, value] of search) {
    const key = CANONICAL.get(name.toLowerCase().replace(/\[\]$/, "")) ?? name;
    if (!CANONICAL.has(key.toLowerCase())) {
      (errors[name] ??= []).push(`unknown query parameter; allowed: ${[...CANONICAL.values()].join(", ")}`);
      continue;
    }
    if (ARRAY_PARAMS.has(key)) {
      const list = (raw[key] ??= []) as string[];
      list.push(...value.split(",").map((v) => v.trim()).filter(Boolean));
    } else if (key in raw) {
      (errors[key] ??= []).push("given more than once");
    } else if (value.trim() !== "") {
      // An empty value (`?searchString=`) means the filter is not applied.
      raw[key] = value.trim();
    }
  }
  if (Object.keys(errors).length) throw validationError(errors, "Query");
  return parseWith(ListPaymentsQuerySchema, raw, "Query");
}
