/*
 * One service instance's background work, as `npm start` runs it (the embedded runner over the
 * database at DATABASE_URL), for test/rates/instances.test.ts: it prints "ready" once the
 * database is open and the runner started, and runs until killed.
 */
import { getDb } from "@/db/client";
import { startEmbeddedRunner } from "@/lib/background/runner";

await getDb();
startEmbeddedRunner(getDb);
console.log("ready");
setInterval(() => {}, 60_000);
