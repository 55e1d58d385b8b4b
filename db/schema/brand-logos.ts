import { sql } from "drizzle-orm";
import { check, customType, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { LOGO_MEDIA_TYPES } from "@/domain/brand";

/** PostgreSQL's bytea as a Buffer (drizzle-orm has no bytea column of its own; postgres.js reads bytea as a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array)),
});

/** LOGO_MEDIA_TYPES as an SQL list of literals, for the CHECK (DDL takes no parameters; the values are fixed, not input). */
const TYPE_LIST = sql.raw(LOGO_MEDIA_TYPES.map((t) => `'${t}'`).join(", "));

/**
 * Merchants' checkout logos, addressed by content: the SHA-256 of the bytes is the key, the
 * served URL (/logos/<sha256>) and its ETag, so a URL never changes meaning and can be cached
 * for good. `businesses.logo_sha256` points here; a logo no business points to any more is
 * deleted when it is replaced (lib/businesses/logo.ts). The bytes are kept out of `businesses`,
 * whose rows are read on every API call.
 */
export const brandLogos = pgTable(
  "brand_logos",
  {
    sha256: text("sha256").primaryKey(),
    /** The type the bytes were found to be by their content (never a file name or a browser's claim). */
    contentType: text("content_type").notNull(),
    content: bytea("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [check("brand_logos_content_type_check", sql`${t.contentType} in (${TYPE_LIST})`)],
);

export type BrandLogo = typeof brandLogos.$inferSelect;
