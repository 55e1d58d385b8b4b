import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**"],
    environment: "node",
    globalSetup: ["./test/global-setup.ts", "./test/chains/nodes/monero-global.ts"],
    setupFiles: ["./test/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file runs in its own worker with its own in-memory PGlite (or shares the PostgreSQL at DATABASE_URL).
    pool: "forks",
    maxWorkers: 2,
  },
});
