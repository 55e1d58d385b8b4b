-- drizzle-kit generated DROP + CREATE INDEX here; ALTER INDEX gives the same indexes without
-- rebuilding them (minutes and a write lock on a large store). Turning fastupdate off keeps
-- what is already pending, so the pending lists are merged into the indexes now.
ALTER INDEX "customers_email_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "payments_search_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('customers_email_trgm_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('payments_search_trgm_idx'::regclass);
