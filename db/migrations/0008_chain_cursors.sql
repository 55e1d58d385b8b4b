CREATE TABLE "chain_cursors" (
	"chain" text PRIMARY KEY NOT NULL,
	"network" text NOT NULL,
	"height" integer,
	"block_hash" text,
	"lease_owner" text,
	"lease_until" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
