ALTER TABLE "businesses" ADD COLUMN "confirmations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "chain_id" integer;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "tip" integer;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "coins" text[];--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "tip_changed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "ticked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "last_error_at" timestamp (3) with time zone;