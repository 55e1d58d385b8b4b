CREATE TABLE "address_counters" (
	"scope" text PRIMARY KEY NOT NULL,
	"next_index" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"coin" text NOT NULL,
	"charge_type" text NOT NULL,
	"network" text,
	"address" text NOT NULL,
	"derivation_scope" text,
	"derivation_index" integer,
	"wallet_name" text,
	"quoted_units" numeric(78, 0) NOT NULL,
	"exchange_rate" numeric(38, 18) NOT NULL,
	"rate_source" text NOT NULL,
	"required_confirmations" integer NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" uuid NOT NULL,
	"tx_id" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"block_number" text,
	"from_address" text,
	"to_address" text NOT NULL,
	"dropped" boolean DEFAULT false NOT NULL,
	"late" boolean DEFAULT false NOT NULL,
	"seen_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "extended_public_keys" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charges_address_idx" ON "charges" USING btree ("network","address");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_payment_tx_uq" ON "transfers" USING btree ("payment_id","tx_id");--> statement-breakpoint
CREATE INDEX "payments_expiry_idx" ON "payments" USING btree ("expires_at") WHERE "payments"."status" in ('AWAITING_PAYMENT', 'UNDERPAID');--> statement-breakpoint
CREATE INDEX "payments_open_idx" ON "payments" USING btree ("status") WHERE "payments"."status" in ('AWAITING_PAYMENT', 'PENDING', 'UNDERPAID', 'PROCESSING');