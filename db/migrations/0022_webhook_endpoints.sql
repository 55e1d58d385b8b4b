CREATE TABLE "webhook_endpoints" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" bigint NOT NULL,
	"url" text NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp (3) with time zone,
	"description" text DEFAULT '' NOT NULL,
	"event_types" text[],
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp (3) with time zone,
	"failing_since" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_endpoints_disabled_reason_check" CHECK ("webhook_endpoints"."disabled_reason" in ('manual', 'failing'))
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "endpoint_id" bigint;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_business_idx" ON "webhook_endpoints" USING btree ("business_id","id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Data, before the business's URL column goes: each business with a webhook URL gets one
-- endpoint with that URL and the business's signing secret, and the deliveries already made to
-- that URL (pending ones included) are tied to it, so they are sent where they were going,
-- signed with the secret they would have been signed with.
INSERT INTO "webhook_endpoints" ("business_id", "url", "secret", "created_at", "updated_at")
SELECT "id", "webhook_url", "webhook_secret", now(), now() FROM "businesses" WHERE "webhook_url" IS NOT NULL ORDER BY "id";--> statement-breakpoint
UPDATE "webhook_deliveries" AS d SET "endpoint_id" = e."id"
FROM "webhook_endpoints" AS e
WHERE e."business_id" = d."business_id" AND e."url" = d."url" AND d."endpoint_id" IS NULL;--> statement-breakpoint
ALTER TABLE "businesses" DROP COLUMN "webhook_url";