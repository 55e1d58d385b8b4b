-- The dashboard's payments chart counts a range of a business's payments per day, with how many
-- are completed and their net USD (db/queries/payments-dashboard.ts). With status and
-- net_amount_usd in the list indexes it reads them by an index-only scan instead of every row of
-- the range (docs/performance.md, "Dashboard"). Rebuilt in the migration's transaction, as in 0006.
DROP INDEX IF EXISTS "payments_business_created_idx";--> statement-breakpoint
CREATE INDEX "payments_business_created_idx" ON "payments" USING btree ("business_id", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("status", "net_amount_usd");--> statement-breakpoint
DROP INDEX IF EXISTS "payments_obo_created_idx";--> statement-breakpoint
CREATE INDEX "payments_obo_created_idx" ON "payments" USING btree ("on_behalf_of_business_id", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("status", "net_amount_usd") WHERE "on_behalf_of_business_id" IS NOT NULL;
--> statement-breakpoint
-- How many distinct UTC days the payments span, so the chart's GROUP BY on this expression is
-- planned as a hash of a few groups, not a sort of every row (PostgreSQL 14+ statistics on an
-- expression; ANALYZE fills them).
CREATE STATISTICS IF NOT EXISTS "payments_created_day_stats" ON (("created_at" AT TIME ZONE 'UTC')::date) FROM "payments";
