CREATE TABLE "exchange_rates" (
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"value" numeric NOT NULL,
	"fetched_at" timestamp (3) with time zone NOT NULL,
	"rejected_value" numeric,
	"rejected_at" timestamp (3) with time zone,
	"rejected_why" text,
	CONSTRAINT "exchange_rates_provider_kind_key_pk" PRIMARY KEY("provider","kind","key")
);
--> statement-breakpoint
CREATE TABLE "rate_provider_runs" (
	"provider" text PRIMARY KEY NOT NULL,
	"last_attempt_at" timestamp (3) with time zone,
	"last_success_at" timestamp (3) with time zone,
	"last_error" text,
	"last_error_at" timestamp (3) with time zone,
	"backoff_until" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "rate_refresh" (
	"name" text PRIMARY KEY NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "rate_fetched_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "usd_per_currency_unit" numeric;--> statement-breakpoint
CREATE INDEX "exchange_rates_key_idx" ON "exchange_rates" USING btree ("kind","key");