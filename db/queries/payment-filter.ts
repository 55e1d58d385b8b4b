import { and, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { PaymentStatus } from "@/domain/statuses";
import { customers, payments, type Business } from "../schema";
import { paymentScope } from "./payments-read";

/* A list's filter and its WHERE: scope, time range, statuses, coins, amounts and the search. */

/** What a list is narrowed by (the list's query, its values parsed). */
export type PaymentFilter = {
  fromTime?: Date;
  toTime?: Date;
  statuses?: PaymentStatus[];
  coins?: string[];
  fromAmount?: string;
  toAmount?: string;
  search?: string;
  onBehalfOfBusinessId?: number;
};

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The list's WHERE, values included. */
export function filterConditions(business: Business, f: PaymentFilter): SQL {
  const conds: (SQL | undefined)[] = [paymentScope(business)];
  if (f.onBehalfOfBusinessId !== undefined) conds.push(eq(payments.onBehalfOfBusinessId, f.onBehalfOfBusinessId));
  if (f.fromTime) conds.push(gte(payments.createdAt, f.fromTime));
  if (f.toTime) conds.push(lte(payments.createdAt, f.toTime));
  if (f.statuses?.length) conds.push(inArray(payments.status, f.statuses));
  if (f.coins?.length) conds.push(inArray(payments.selectedCoin, f.coins));
  if (f.fromAmount !== undefined) conds.push(gte(payments.amount, f.fromAmount));
  if (f.toAmount !== undefined) conds.push(lte(payments.amount, f.toAmount));
  if (f.search) conds.push(searchMatches(searchPattern(f.search)));
  return and(...conds)!;
}

/** A `searchString` as the LIKE pattern of a case-insensitive substring. */
export function searchPattern(search: string): string {
  return `%${escapeLike(search.toLowerCase())}%`;
}

/**
 * `searchString`: a case-insensitive substring of the payment's name, description or note
 * (`payments_search_trgm_idx`), or of its customer's email (`customers_email_trgm_idx`, then
 * `payments_customer_idx`). PostgreSQL ORs the two bitmaps; the email side reads one index
 * entry per customer, not one per payment. A search's pages find their matches by
 * `searchSides`; this WHERE serves what counts a search on its own (a page past its last match).
 */
function searchMatches(pattern: Value<string> | SQL): SQL {
  return sql`(${textMatches(pattern)} or ${customerMatches(pattern)})`;
}

const textMatches = (pattern: Value<string> | SQL) => sql`${payments.searchText} like ${pattern}`;
const emailMatches = (pattern: Value<string> | SQL) => sql`lower(${customers.email}) like ${pattern}`;
const customerMatches = (pattern: Value<string> | SQL) =>
  sql`${payments.customerId} = any(array(select ${customers.id} from ${customers} where ${emailMatches(pattern)}))`;

/** A value, or a named statement's parameter. */
export type Value<T> = T | ReturnType<typeof sql.placeholder>;
/** A page's size. */
export type Limit = Value<number>;

/**
 * `columns` of the payments a search matches, each once: those whose text matches but whose
 * customer's email does not, then those whose customer's email matches (an index-only scan of
 * `payments_customer_idx`), each side narrowed by `others`. The two sides are disjoint, so no
 * step has to find the payments matched both ways; the text side's `not exists` looks up only
 * the customers of its own matches, or none when it has none.
 */
export function searchSides(columns: SQL, pattern: Value<string> | SQL, others?: SQL): SQL {
  const where = (match: SQL) => (others ? sql`${others} and ${match}` : match);
  const customerDoesNotMatch = sql`not exists (select 1 from ${customers} where ${customers.id} = ${payments.customerId} and ${emailMatches(pattern)})`;
  return sql`select ${columns} from ${payments} where ${where(sql`${textMatches(pattern)} and ${customerDoesNotMatch}`)}
    union all select ${columns} from ${payments} where ${where(customerMatches(pattern))}`;
}

/** Whether a list is of the account's own payments, narrowed by no coin and no amount. */
export function ownScopeWithoutCoinOrAmount(business: Business, f: PaymentFilter): boolean {
  return (
    business.parentBusinessId === null &&
    f.onBehalfOfBusinessId === undefined &&
    !f.coins?.length &&
    f.fromAmount === undefined &&
    f.toAmount === undefined
  );
}

