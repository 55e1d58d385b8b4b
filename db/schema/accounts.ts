import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";

/*
 * Merchant users of the dashboard. The first six tables are Better Auth's (lib/accounts/auth.ts):
 * its field names (the JS keys) are fixed by the library; the SQL names follow ours. Passwords
 * live in `accounts.password` as Better Auth's scrypt hash; sessions are rows, their token the
 * cookie's value.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
  createdAt: at("created_at").notNull(),
  updatedAt: at("updated_at").notNull(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: at("expires_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: at("created_at").notNull(),
    updatedAt: at("updated_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: at("access_token_expires_at"),
    refreshTokenExpiresAt: at("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: at("created_at").notNull(),
    updatedAt: at("updated_at").notNull(),
  },
  (t) => [index("accounts_user_idx").on(t.userId)],
);

export const verifications = pgTable("verifications", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: at("expires_at").notNull(),
  createdAt: at("created_at").notNull(),
  updatedAt: at("updated_at").notNull(),
});

/** TOTP secrets (encrypted by Better Auth) and backup codes of users who enabled two-factor sign-in. */
export const twoFactors = pgTable("two_factors", {
  id: text("id").primaryKey(),
  secret: text("secret").notNull(),
  backupCodes: text("backup_codes").notNull(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  verified: boolean("verified"),
  failedVerificationCount: integer("failed_verification_count"),
  lockedUntil: at("locked_until"),
});

/** Better Auth's rate-limit counters, in the database so every instance shares them. */
export const authRateLimits = pgTable("auth_rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * Failed sign-ins per email address (lowercased), whether or not a user has it, so a lockout
 * answers alike for both. `failures` counts within the window opened at `windowStartedAt`.
 */
export const signInLockouts = pgTable("sign_in_lockouts", {
  email: text("email").primaryKey(),
  failures: integer("failures").notNull(),
  windowStartedAt: at("window_started_at").notNull(),
  lockedUntil: at("locked_until"),
});

export const MEMBER_ROLES = ["owner", "developer", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Which businesses a user belongs to, with which role. */
export const businessMembers = pgTable(
  "business_members",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    businessId: bigint("business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.businessId] }), index("business_members_business_idx").on(t.businessId)],
);

/**
 * An owner's invitation of a further user: the link carries a random token shown once; only its
 * SHA-256 is stored. Accepting it (before `expires_at`) creates the user and the membership.
 */
export const memberInvites = pgTable(
  "member_invites",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    businessId: bigint("business_id", { mode: "number" })
      .notNull()
      .references(() => businesses.id),
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: at("expires_at").notNull(),
    acceptedAt: at("accepted_at"),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("member_invites_token_uq").on(t.tokenHash)],
);

export type UserRow = typeof users.$inferSelect;
export type BusinessMemberRow = typeof businessMembers.$inferSelect;
