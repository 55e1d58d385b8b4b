CREATE TABLE "customer_email_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email_id" bigint NOT NULL,
	"attempted_at" timestamp (3) with time zone NOT NULL,
	"succeeded" boolean NOT NULL,
	"smtp_code" integer,
	"response" text,
	"latency_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_emails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payment_id" uuid NOT NULL,
	"business_id" bigint NOT NULL,
	"event_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"message_id" text NOT NULL,
	"recipient" text NOT NULL,
	"locale" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"locked_until" timestamp (3) with time zone,
	"last_error" text,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "customer_emails_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "customer_emails_status_check" CHECK ("customer_emails"."status" in ('pending', 'sent', 'failed', 'unsent'))
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "email_notifications" jsonb DEFAULT '{"receipt":true,"detected":true,"underpaid":true,"expired":true}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "customer_locale" text;--> statement-breakpoint
ALTER TABLE "customer_email_attempts" ADD CONSTRAINT "customer_email_attempts_email_id_customer_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."customer_emails"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_emails" ADD CONSTRAINT "customer_emails_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_emails" ADD CONSTRAINT "customer_emails_event_id_payment_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."payment_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_email_attempts_email_idx" ON "customer_email_attempts" USING btree ("email_id","id");--> statement-breakpoint
CREATE INDEX "customer_emails_due_idx" ON "customer_emails" USING btree ("next_attempt_at") WHERE "customer_emails"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "customer_emails_payment_idx" ON "customer_emails" USING btree ("payment_id","id");