import { and, count, sql, type SQL } from "drizzle-orm";
import type { Tx } from "../client";
import { prepared } from "../prepared";
import { payments, type Business } from "../schema";
import { filterConditions, ownScopeWithoutCoinOrAmount, searchPattern, searchSides, type Limit, type PaymentFilter, type Value } from "./payment-filter";
import { NEWEST_FIRST, detailsQuery, paymentsByIds } from "./payments-read";

/*
 * The statements of a list page's ids and its count, each in the form that plans best for its
 * filter (named with parameters, or with values inline).
 */

/** Up to this many matches `totalCount` is an exact count; above it, the planner's estimate. */
export const EXACT_COUNT_LIMIT = 10_000;

/** The page's ids: newest first (`createdAt desc, id desc`, the list indexes' order). */
export function pageIdsStatement(tx: Tx, where: SQL, limit: Limit, offset: number) {
  return tx.select({ id: payments.id }).from(payments).where(where).orderBy(...NEWEST_FIRST).limit(limit).offset(offset);
}

/**
 * A search's page ids with the number of matches in each row (`count(*) over ()`), for a search
 * narrowed by other filters too (a plain one: `namedSearchPage`), planned for its values. A
 * trigram search finds every match through the GIN index before it can sort them, so counting
 * them there costs next to nothing, where a separate count would search again. Unfiltered and
 * status lists are different: their page stops after 20 rows of an index walk, and counting
 * would read every match.
 *
 * The matches are the two lookups, each narrowed by the other filters, appended: the customer's
 * side is an index-only scan of `payments_customer_idx`, which includes the status and
 * `createdAt` it is most often narrowed by. The OR of the two in one bitmap read the row of every
 * payment the customer's lookup found, to check the other filters; with a pattern in many
 * addresses the bitmap went lossy, and every row of its pages was read: 6.1 s on PostgreSQL at a
 * million payments for a pattern in half the store's addresses and one status, 0.14 s this way.
 * The text side leaves out the payments whose customer matches, which the other side holds: the
 * two are disjoint, so no step has to find the payments in both, which a `UNION` did by sorting
 * or hashing every match (for a pattern in every payment's name, ~0.3 s more than the OR took,
 * where this form costs ~0.1 s more; docs/performance.md, "A search is two disjoint lookups appended").
 */
export function searchPageIdsStatement(tx: Tx, business: Business, f: PaymentFilter, limit: number, offset: number) {
  const others = filterConditions(business, { ...f, search: undefined });
  const matches = searchSides(sql`${payments.id}, ${payments.createdAt}`, searchPattern(f.search!), others);
  return matchesPage(tx, sql`(${matches}) m`, undefined, limit, offset);
}

/** A page of `matches` (a subquery `m` of ids and their `created_at`), newest first, with their count. */
function matchesPage(tx: Tx, matches: SQL, where: SQL | undefined, limit: Limit | SQL, offset: number | SQL) {
  return (
    tx
      .select({ id: sql<string>`m.id`.as("id"), total: sql<number>`count(*) over ()`.mapWith(Number).as("total") })
      .from(matches)
      .where(where)
      .orderBy(sql`m.created_at desc nulls last`, sql`m.id desc nulls last`)
      // drizzle types a limit and an offset as a number or a placeholder, and writes any SQL given.
      .limit(limit as Limit)
      .offset(offset as number)
  );
}

/** The count of matches, stopping after EXACT_COUNT_LIMIT + 1 rows. */
export function cappedCountStatement(tx: Tx, where: SQL) {
  return tx.select({ total: count().as("total") }).from(tx.select({ one: sql`1` }).from(payments).where(where).limit(EXACT_COUNT_LIMIT + 1).as("m"));
}

/**
 * The page's ids with the capped count in each row, for when the total is not known yet: one
 * statement instead of two (the count is an uncorrelated subquery, run once). Not a window count
 * over the first EXACT_COUNT_LIMIT + 1 rows: materialising those for the window cost ~3× the
 * separate count on PostgreSQL.
 */
export function countedPageIdsStatement(tx: Tx, where: SQL, limit: Limit, offset: number) {
  return tx
    .select({ id: payments.id, total: sql<number>`(${cappedCountStatement(tx, where)})`.mapWith(Number).as("total") })
    .from(payments)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(limit)
    .offset(offset);
}

/**
 * The shape of a first page whose best plan is the same whatever the filter's values: the
 * account's own payments, newest first, narrowed at most by one status and a `createdAt` range.
 * The list indexes (`payments_business_created_idx`, `payments_business_status_created_idx`)
 * hold exactly that order for every business, status and range, so the page walks one of them
 * and stops after `size` entries whether a status is common or rare, a range long or empty.
 * Undefined for every other list: several statuses, coins, amounts, a search or a
 * sub-business's scope, whose best plan depends on the values.
 */
export function firstPageShape(business: Business, f: PaymentFilter, page: { number: number; size: number }): string | undefined {
  const plain = page.number === 1 && ownScopeWithoutCoinOrAmount(business, f) && !f.search && (f.statuses?.length ?? 0) <= 1;
  return plain ? `${f.statuses?.length ? "status" : "all"}${f.fromTime ? ":from" : ""}${f.toTime ? ":to" : ""}` : undefined;
}

/**
 * A first page of such a shape (`firstPageShape`) as a named statement, values as parameters:
 * PostgreSQL parses it once per connection and settles on its generic plan, the walk of the
 * shape's index (a parameter for the page size makes the planner assume a tenth of the matches
 * are wanted, which still leaves that walk the cheapest: no other plan avoids the sort).
 * Planning the page anew for its inline values cost more than running it: in PGlite 0.24-0.42
 * ms of planning for 0.06-0.08 ms of execution, and 1.67 against 0.60 ms per status page in all
 * (docs/performance.md, "The first page … is a named statement on a generic plan"). Later pages are planned for their offset, inline.
 */
export function namedFirstPage(tx: Tx, shape: string, f: PaymentFilter, counted: boolean) {
  const name = `listFirstPage:${shape}:${counted ? "counted" : "page"}`;
  return prepared(tx, name, () => {
    const ph = sql.placeholder;
    const where = and(
      sql`${payments.businessId} = ${ph("businessId")}`,
      f.statuses?.length ? sql`${payments.status} = ${ph("status")}` : undefined,
      f.fromTime ? sql`${payments.createdAt} >= ${ph("fromTime")}::timestamptz` : undefined,
      f.toTime ? sql`${payments.createdAt} <= ${ph("toTime")}::timestamptz` : undefined,
    )!;
    const query = counted ? countedPageIdsStatement(tx, where, ph("size"), 0) : pageIdsStatement(tx, where, ph("size"), 0);
    return query.prepare(name.replace(/\W/g, "_"));
  });
}

/**
 * Whether a list is a search and nothing else, on the account's own payments, with a run of three
 * ASCII letters or digits: one trigram at least whatever the database's locale, so the trigram
 * indexes have an entry to look up (with none, a GIN scan reads the whole index).
 */
export function isPlainSearch(business: Business, f: PaymentFilter): boolean {
  return !!f.search && /[a-z0-9]{3}/i.test(f.search) && ownScopeWithoutCoinOrAmount(business, f) && !f.statuses?.length && !f.fromTime && !f.toTime;
}

/**
 * A page of a plain search (`isPlainSearch`) as a named statement, its pattern a parameter. It
 * runs on its generic plan: the two trigram lookups, whatever the pattern. Planning a search for
 * its inline pattern cost ~0.15-0.35 ms of a ~0.75-1.0 ms statement at a million payments on
 * PostgreSQL (docs/performance.md, "A plain search's page is one named statement"). PostgreSQL's list connection asks for generic
 * plans (the generic-plans setting, db/client.ts); PGlite gets one because the statement hides its values from the
 * planner (`unseen`).
 *
 * The matches are found in a subquery that knows nothing of the account (`offset 0` keeps
 * PostgreSQL from merging it into the outer query), so no plan can walk the account's list index
 * instead: for a generic plan the account's share of the store is a guess, and with many
 * accounts that walk looks cheap, and reads every payment of a large one.
 */
export function namedSearchPage(tx: Tx) {
  return prepared(tx, "listSearchPage", () => {
    const ph = sql.placeholder;
    return plainSearchPageStatement(tx, ph("pattern"), ph("businessId"), ph("size"), ph("offset")).prepare("list_search_page");
  });
}

/**
 * A value the planner cannot see: an InitPlan's output, known only when the statement runs. A
 * named statement's custom plan, made for its values, then costs what its generic plan costs,
 * and after its first five executions the plan cache keeps the generic one. PGlite has no
 * `plan_cache_mode` of its own for lists (its one session runs every statement), and a search's
 * custom plan, knowing the pattern and the page size, always looked cheaper: it planned each
 * search anew, ~0.3 ms of its thread at a million payments (docs/performance.md, "A search is two disjoint lookups appended").
 */
function unseen(value: Value<number> | Value<string>, type: "text" | "bigint"): SQL {
  return sql`(select ${value}::${sql.raw(type)})`;
}

/**
 * `namedSearchPage`'s statement, with parameters or (for EXPLAIN) values. Its matches are the
 * two lookups appended (`searchSides`) rather than `searchMatches`' OR: on its own the
 * customer's side is an index-only scan of `payments_customer_idx` (which includes the columns a
 * page needs), where the OR's bitmap read every matching payment's row, one page each, to sort
 * the matches and count them, and the page then needs only its own rows. (A `UNION` of the
 * two would hash every match to drop those found both ways: a search for a pattern in
 * half the store's addresses took 0.38 s on PostgreSQL at a million payments, 0.17 s appended.)
 */
function plainSearchPageStatement(tx: Tx, pattern: Value<string>, businessId: Value<number>, limit: Limit, offset: Value<number>) {
  const like = unseen(pattern, "text");
  const columns = sql`${payments.id}, ${payments.businessId}, ${payments.createdAt}`;
  const matches = sql`(${searchSides(columns, like)} offset 0) m`;
  return matchesPage(tx, matches, sql`m.business_id = ${unseen(businessId, "bigint")}`, unseen(limit, "bigint"), unseen(offset, "bigint"));
}

/**
 * The list's statements as they run (values inline; the second statement's ids are `$1` in the
 * service): exported so the bench can EXPLAIN them. `matches` is
 * the statement whose planner estimate stands in for the count above EXACT_COUNT_LIMIT.
 */
export function listPaymentQueries(tx: Tx, business: Business, f: PaymentFilter, page: { number: number; size: number }) {
  const where = filterConditions(business, f);
  const offset = (page.number - 1) * page.size;
  return {
    // A plain search runs with parameters on its generic plan (namedSearchPage), which at a
    // million payments has the nodes of this plan for its values.
    page: isPlainSearch(business, f)
      ? plainSearchPageStatement(tx, searchPattern(f.search!), business.id, page.size, offset)
      : f.search
        ? searchPageIdsStatement(tx, business, f, page.size, offset)
        : pageIdsStatement(tx, where, page.size, offset),
    countedPage: countedPageIdsStatement(tx, where, page.size, offset),
    /**
     * The second statement, for the page's ids (the service runs it named, `$1` for the array):
     * their details, from which the records are built. On PostgreSQL the records' own
     * statement runs instead (./payment-records-sql.ts, over `paymentsByIds` too).
     */
    details: (ids: string[]) => detailsQuery(tx, paymentsByIds(ids), NEWEST_FIRST),
    cappedCount: cappedCountStatement(tx, where),
    matches: tx.select({ one: sql`1` }).from(payments).where(where),
  };
}
