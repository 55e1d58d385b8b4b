-- A search narrowed by a status finds the customer's payments of that status in this index too,
-- by an index-only scan (docs/performance.md, change 43): the status joins the columns it
-- includes. Rebuilt in the migration's transaction, as in 0006: seconds at a million payments.
DROP INDEX IF EXISTS "payments_customer_idx";--> statement-breakpoint
CREATE INDEX "payments_customer_idx" ON "payments" USING btree ("customer_id") INCLUDE ("business_id", "created_at", "id", "status");
