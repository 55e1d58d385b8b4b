CREATE TABLE "monero_wallets" (
	"business_id" bigint PRIMARY KEY NOT NULL,
	"primary_address" text NOT NULL,
	"private_view_key" text NOT NULL,
	"restore_height" integer NOT NULL,
	"wallet_file" text NOT NULL,
	"wallet_created_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "held" text;--> statement-breakpoint
ALTER TABLE "monero_wallets" ADD CONSTRAINT "monero_wallets_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;
