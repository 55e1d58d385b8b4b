CREATE TABLE "solana_references" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"last_signature" text,
	"checked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "solana_references_reference_unique" UNIQUE("reference")
);
--> statement-breakpoint
CREATE TABLE "solana_unmatched" (
	"signature" text NOT NULL,
	"business_id" bigint NOT NULL,
	"coin" text NOT NULL,
	"amount" text NOT NULL,
	"slot" bigint NOT NULL,
	"seen_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "solana_unmatched_signature_business_id_coin_pk" PRIMARY KEY("signature","business_id","coin")
);
--> statement-breakpoint
CREATE TABLE "solana_wallets" (
	"business_id" bigint PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"swept_until" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "solana_references" ADD CONSTRAINT "solana_references_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solana_unmatched" ADD CONSTRAINT "solana_unmatched_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solana_wallets" ADD CONSTRAINT "solana_wallets_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "solana_references_checked_at_idx" ON "solana_references" USING btree ("checked_at");--> statement-breakpoint
CREATE INDEX "solana_unmatched_business_idx" ON "solana_unmatched" USING btree ("business_id","seen_at");
