CREATE TABLE "businesses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"mode" text NOT NULL,
	"webhook_url" text,
	"payment_lifetime_seconds" integer DEFAULT 3600 NOT NULL,
	"enabled_coins" text[] NOT NULL,
	"fee_percent" numeric(7, 4) DEFAULT '0' NOT NULL,
	"underpayment_tolerance_percent" numeric(7, 4) DEFAULT '0' NOT NULL,
	"parent_business_id" bigint,
	"webhook_secret" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "businesses_mode_check" CHECK ("businesses"."mode" in ('test', 'live'))
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_business_id" bigint NOT NULL,
	"business_ids" bigint[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "customer_ips" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" bigint NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text,
	"city" text,
	"country" text,
	"risk_score" double precision,
	"connection_type" text DEFAULT 'Unknown' NOT NULL,
	"isp" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"email" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"business_id" bigint NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_pk" PRIMARY KEY("business_id","key")
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" uuid NOT NULL,
	"type" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"on_behalf_of_business_id" bigint,
	"customer_id" bigint NOT NULL,
	"customer_email" text,
	"name" text,
	"description" text,
	"note" text,
	"currency" text NOT NULL,
	"amount" numeric(24, 4) NOT NULL,
	"end_amount" numeric(24, 4) NOT NULL,
	"platform_fee" numeric(24, 4),
	"net_amount_usd" numeric(24, 4),
	"status" text NOT NULL,
	"offered_coins" text[] NOT NULL,
	"payment_methods" jsonb,
	"selected_payment_method" text,
	"selected_coin" text,
	"metadata" jsonb,
	"fee_transfers" jsonb,
	"redirect_url" text,
	"notify_url" text,
	"customer_ip" text,
	"customer_user_agent" text,
	"timeline" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(coalesce("payments"."name", '') || E'
' || coalesce("payments"."description", '') || E'
' || coalesce("payments"."note", '') || E'
' || coalesce("payments"."customer_email", ''))) STORED
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_owner_business_id_businesses_id_fk" FOREIGN KEY ("owner_business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_ips" ADD CONSTRAINT "customer_ips_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "businesses_parent_idx" ON "businesses" USING btree ("parent_business_id");--> statement-breakpoint
CREATE INDEX "api_keys_owner_idx" ON "api_keys" USING btree ("owner_business_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_ips_customer_ip_uq" ON "customer_ips" USING btree ("customer_id","ip");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_business_email_uq" ON "customers" USING btree ("business_id",lower("email"));--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payment_events_payment_idx" ON "payment_events" USING btree ("payment_id","id");--> statement-breakpoint
CREATE INDEX "payments_business_created_idx" ON "payments" USING btree ("business_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_business_status_created_idx" ON "payments" USING btree ("business_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_business_coin_created_idx" ON "payments" USING btree ("business_id","selected_coin","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_business_amount_idx" ON "payments" USING btree ("business_id","amount");--> statement-breakpoint
CREATE INDEX "payments_obo_created_idx" ON "payments" USING btree ("on_behalf_of_business_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "payments"."on_behalf_of_business_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_search_trgm_idx" ON "payments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_customer_idx" ON "payments" USING btree ("customer_id");