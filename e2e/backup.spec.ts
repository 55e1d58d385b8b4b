import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { createPayment, newBusiness } from "./helpers";

/**
 * `npm run admin -- backup` against the production build while it serves: the data directory's
 * copy comes from the embedded database's thread as `next build` bundled it
 * (db/pglite-server.mjs), and the backup restores into a fresh DATA_DIR holding the payment just
 * made. The whole round trip, with every kind of row compared, is test/db/backup-embedded.test.ts.
 */
const run = promisify(execFile);
const admin = (args: string[], dataDir: string) =>
  run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir } });

test("a backup of the running production server restores with the payment it just took", async ({ request }) => {
  const work = mkdtempSync(path.join(os.tmpdir(), "e2e-backup-"));
  try {
    const b = await newBusiness(request);
    await createPayment(request, b, { currency: "USD", amount: 12 });
    const file = path.join(work, "backup.tar.gz");

    const backup = await admin(["backup", file], ".e2e-data");
    expect(backup.stderr).toContain("Copied the running service's embedded database");
    expect(backup.stdout).toMatch(/Backup written to .*backup\.tar\.gz/);

    const restored = await admin(["restore", file], path.join(work, "data"));
    const payments = Number(/(\d+) payments/.exec(restored.stdout)?.[1]);
    expect(payments, restored.stdout).toBeGreaterThanOrEqual(1);
    // The server goes on serving after the copy.
    expect((await request.get("/readyz")).status()).toBe(200);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
