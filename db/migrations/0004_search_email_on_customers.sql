ALTER TABLE "payments" drop column "search_text";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(coalesce("payments"."name", '') || E'
' || coalesce("payments"."description", '') || E'
' || coalesce("payments"."note", ''))) STORED;--> statement-breakpoint
-- Dropping the column dropped its index; drizzle-kit does not see that, so it is made again here.
CREATE INDEX "payments_search_trgm_idx" ON "payments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin (lower("email") gin_trgm_ops);