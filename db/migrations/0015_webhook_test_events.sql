ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "payment_id" DROP NOT NULL;