-- searchString's match on a customer's email finds the customer's payments in this index. With
-- the columns a search page sorts, filters and returns, it answers them by an index-only scan
-- instead of reading each payment's row (docs/performance.md, change 42). drizzle's index
-- builder has no INCLUDE, so the schema declares the index by its key alone. Rebuilt in the
-- migration's transaction: a btree of one bigint, seconds at a million payments.
DROP INDEX IF EXISTS "payments_customer_idx";--> statement-breakpoint
CREATE INDEX "payments_customer_idx" ON "payments" USING btree ("customer_id") INCLUDE ("business_id", "created_at", "id");
