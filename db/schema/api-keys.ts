import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/** API keys are JWTs; this row (keyed by the token's `jti`) lets a key be listed and revoked. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    ownerBusinessId: bigint("owner_business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    businessIds: bigint("business_ids", { mode: "number" }).array().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, precision: 3 }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, precision: 3 }),
    /**
     * When the key last authenticated a request, to the minute: written at most once a minute
     * per key (lib/accounts/api-keys.ts, `noteKeyUse`), as every API request passes through there.
     */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, precision: 3 }),
  },
  (t) => [index("api_keys_owner_idx").on(t.ownerBusinessId)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
