import { defineConfig } from "drizzle-kit";

// Migrations are generated only (`npm run db:generate`), never pushed; the same SQL runs on
// PGlite and PostgreSQL at start-up.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
