CREATE TABLE "ton_comments" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"comment" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ton_comments_comment_unique" UNIQUE("comment")
);
--> statement-breakpoint
CREATE TABLE "ton_unmatched" (
	"tx_hash" text NOT NULL,
	"business_id" bigint NOT NULL,
	"coin" text NOT NULL,
	"amount" text NOT NULL,
	"comment" text,
	"sender" text,
	"lt" text NOT NULL,
	"seen_at" timestamp (3) with time zone NOT NULL,
	"payment_id" uuid,
	"resolved_at" timestamp (3) with time zone,
	CONSTRAINT "ton_unmatched_tx_hash_business_id_coin_pk" PRIMARY KEY("tx_hash","business_id","coin")
);
--> statement-breakpoint
CREATE TABLE "ton_wallets" (
	"business_id" bigint PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"testnet" boolean,
	"followed" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ton_comments" ADD CONSTRAINT "ton_comments_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ton_unmatched" ADD CONSTRAINT "ton_unmatched_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ton_unmatched" ADD CONSTRAINT "ton_unmatched_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ton_wallets" ADD CONSTRAINT "ton_wallets_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ton_unmatched_business_idx" ON "ton_unmatched" USING btree ("business_id","seen_at");
