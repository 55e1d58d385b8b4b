CREATE TABLE "brand_logos" (
	"sha256" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brand_logos_content_type_check" CHECK ("brand_logos"."content_type" in ('image/png', 'image/jpeg', 'image/webp'))
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "accent_color" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "logo_sha256" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_logo_sha256_brand_logos_sha256_fk" FOREIGN KEY ("logo_sha256") REFERENCES "public"."brand_logos"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "businesses_logo_idx" ON "businesses" USING btree ("logo_sha256");--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_accent_color_check" CHECK ("businesses"."accent_color" ~ '^#[0-9a-f]{6}$');