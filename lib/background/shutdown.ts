import { closeDb } from "@/db/client";
import { stopBackground, whenBackgroundIdle } from "./driver";

/**
 * The process's last step when the server stops (instrumentation.ts registers it with
 * `onShutdown`, lib/background/shutdown-hook.mjs), once the requests under way are answered:
 * 1. the Inngest driver sends the events of the changes committed so far;
 * 2. background work stops: the runner starts no new tick and its jobs under way end at their
 *    next safe point (a webhook pass, a chain's tick: whatever they claimed is leased or
 *    recorded step by step, so what is left stays due for the next start);
 * 3. the database closes for good: PostgreSQL's connections end after their queries; the
 *    embedded PGlite shuts down cleanly, writing a checkpoint, so the next start replays nothing
 *    (after a crash PostgreSQL skips the 32 sequence values it logs ahead: ids jump).
 * Steps 1 and 2 give up when `until` aborts, so the database is still closed within the bound.
 * Resolves to whether they finished (false: some background work was abandoned).
 */
export async function shutdown(until: AbortSignal): Promise<boolean> {
  const finished = (await settled(whenBackgroundIdle(), until)) && (await settled(stopBackground(), until));
  await closeDb({ final: true });
  return finished;
}

/** True once `work` is done, false if `until` aborts first. */
function settled(work: Promise<void>, until: AbortSignal): Promise<boolean> {
  if (until.aborted) return Promise.resolve(false);
  return Promise.race([work.then(() => true), new Promise<boolean>((resolve) => until.addEventListener("abort", () => resolve(false), { once: true }))]);
}
