-- drizzle-kit generated DROP + CREATE INDEX here; ALTER INDEX gives the same indexes without
-- rebuilding them (minutes and a write lock on a large store). The new limit applies to what is
-- added from now on, so what is pending already is merged into the indexes now.
ALTER INDEX "customers_email_trgm_idx" SET (fastupdate = on, gin_pending_list_limit = 256);--> statement-breakpoint
ALTER INDEX "payments_search_trgm_idx" SET (fastupdate = on, gin_pending_list_limit = 256);--> statement-breakpoint
SELECT gin_clean_pending_list('customers_email_trgm_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('payments_search_trgm_idx'::regclass);
