ALTER TABLE "charges" ADD COLUMN "changed_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "tx_hash" text GENERATED ALWAYS AS (split_part("transfers"."tx_id", ':', 1)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "spends" text[];--> statement-breakpoint
CREATE INDEX "charges_changed_at_idx" ON "charges" USING btree ("changed_at");