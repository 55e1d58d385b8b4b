import { z } from "zod";
import { CryptoCoinNameSchema, PaymentStatusSchema } from "./schemas";
import { parseQuery, queryDateTime, queryDecimal, queryInteger, queryText } from "@/lib/http/query";

export const MAX_PAGE_SIZE = 100;

export const ListPaymentsQuerySchema = z
  .strictObject({
    PageNumber: queryInteger({ min: 1, max: 1_000_000 }, { description: "Page number, from 1 (default 1).", example: 1 })
      .default(1)
      .meta({ override: { default: 1 } }),
    PageSize: queryInteger({ min: 1, max: MAX_PAGE_SIZE }, { description: `Results per page, at most ${MAX_PAGE_SIZE} (default 20).`, example: 20 })
      .default(20)
      .meta({ override: { default: 20 } }),
    fromTime: queryDateTime({
      description: "Start of the date range of `createdAt`, inclusive; not after `toTime`. An RFC 3339 date-time with an offset (`Z` or `+01:00`).",
      example: "2026-11-01T00:00:00Z",
    }).optional(),
    toTime: queryDateTime({
      description: "End of the date range of `createdAt`, inclusive; not before `fromTime`.",
      example: "2026-11-30T23:59:59Z",
    }).optional(),
    statuses: z
      .array(PaymentStatusSchema)
      .optional()
      .meta({
        description:
          "Only payments in one of these statuses. Repeat the parameter once per value (`statuses=PENDING&statuses=COMPLETED`); `statuses[]=…` and comma-separated values (`statuses=PENDING,COMPLETED`) are read too.",
        examples: [["AWAITING_PAYMENT", "PENDING"]],
        param: { style: "form", explode: true },
      }),
    cryptoCoins: z
      .array(CryptoCoinNameSchema)
      .optional()
      .meta({
        description:
          "Only payments whose customer selected one of these coins. Repeat the parameter once per value; `cryptoCoins[]=…` and comma-separated values are read too.",
        examples: [["BITCOIN"]],
        param: { style: "form", explode: true },
      }),
    fromAmount: queryDecimal(0, {
      description: "Minimum requested amount (`prePaymentAmount`), inclusive; not more than `toAmount`.",
      example: 10,
    }).optional(),
    toAmount: queryDecimal(0, {
      description: "Maximum requested amount (`prePaymentAmount`), inclusive; not less than `fromAmount`.",
      example: 100,
    }).optional(),
    searchString: queryText(200, {
      description: "Case-insensitive substring of the name, description, note or customer email. An empty value applies no filter.",
      example: "jane@",
    }).optional(),
    onBehalfOfBusinessId: queryInteger(
      { min: 1, max: Number.MAX_SAFE_INTEGER },
      { description: "Only payments made on behalf of this business.", example: 2, format: "int64" },
    ).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.fromTime && q.toTime && Date.parse(q.fromTime) > Date.parse(q.toTime)) {
      ctx.addIssue({ code: "custom", path: ["toTime"], message: "must not be before fromTime" });
    }
    if (q.fromAmount !== undefined && q.toAmount !== undefined && q.fromAmount > q.toAmount) {
      ctx.addIssue({ code: "custom", path: ["toAmount"], message: "must not be less than fromAmount" });
    }
  })
  .meta({
    id: "ListPaymentsQuery",
    description: "Rules across parameters: `toTime` is not before `fromTime`, and `toAmount` is not less than `fromAmount` (400 otherwise).",
  });
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuerySchema>;

const ARRAY_PARAMS = new Set(["statuses", "cryptoCoins"]);

/** D1: the list's query, with `statuses` and `cryptoCoins` repeating. */
export function parseListQuery(search: URLSearchParams): ListPaymentsQuery {
  return parseQuery(search, ListPaymentsQuerySchema, ARRAY_PARAMS);
}
