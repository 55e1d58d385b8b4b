import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { log } from "@/log/logger.mjs";

export type EmbeddedDatabase = {
  /** The Unix socket postgres.js connects to (in a directory only this user can enter). */
  socketPath: string;
  /** Resolves when the thread has stopped on its own (a crash): the handle is then unusable. */
  exited: Promise<void>;
  /** Closes PGlite (a clean shutdown of the data directory) and stops the thread. */
  close: () => Promise<void>;
};

const PREFIX = "cryptopay-db-";

/**
 * Socket directories of processes that no longer run: a process killed by a signal (a test
 * worker, `kill -9`) runs no exit handler, so its directory stays behind until the next start.
 */
function removeOrphanedSocketDirs(): void {
  let names: string[];
  try {
    names = readdirSync(os.tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^cryptopay-db-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processRuns(pid)) continue;
    rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (err) {
    // EPERM: it exists, under another user (whose directory is not ours to remove anyway).
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

export type EmbeddedOptions = {
  /** Where the thread answers backup requests (db/embedded-backup.ts); refuses to start when another process answers there. */
  backupSocketPath?: string;
};

/**
 * Starts PGlite on a thread of its own (db/pglite-server.mjs) and resolves once it listens.
 * `dataDir` undefined = in memory.
 */
export async function startEmbeddedDatabase(dataDir: string | undefined, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  removeOrphanedSocketDirs();
  // mkdtemp creates the directory 0700: no other user of the machine reaches the socket.
  // A short path: a Unix socket's path is limited to ~107 bytes. The name carries the process
  // id, so a later start can tell an orphan from a directory in use.
  const dir = mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${process.pid}-`));
  const socketPath = path.join(dir, ".s.PGSQL.5432");
  const script = path.join(process.cwd(), "db", "pglite-server.mjs");
  const worker = new Worker(script, { workerData: { dataDir, socketPath, ...options } });
  // The thread must not keep a finished script (a CLI, a test) alive; open connections do.
  worker.unref();
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  // A process that ends without closing (a script, a test worker, `next start` stopped by a
  // signal) never sees the thread's exit event: the directory goes with the process instead.
  process.once("exit", removeDir);

  let closing = false;
  const exited = new Promise<void>((resolve) => {
    worker.once("exit", (code) => {
      process.off("exit", removeDir);
      removeDir();
      if (!closing) log.error({ component: "database", exitCode: code }, `embedded database: its thread stopped (exit code ${code})`);
      resolve();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onMessage = (msg: { type: string; message?: string }) => {
      if (msg.type === "ready") {
        worker.off("message", onMessage);
        worker.off("error", onError);
        resolve();
      } else if (msg.type === "error") {
        reject(new Error(`embedded database: ${msg.message}`));
      }
    };
    const onError = (err: Error) => reject(err);
    worker.on("message", onMessage);
    worker.once("error", onError);
  }).catch(async (err) => {
    closing = true;
    await worker.terminate();
    throw err;
  });
  worker.on("error", (err) => log.error({ component: "database", err }, "embedded database: its thread failed"));

  return {
    socketPath,
    exited,
    close: async () => {
      closing = true;
      const closed = new Promise<void>((resolve) => {
        worker.on("message", (msg: { type: string }) => msg.type === "closed" && resolve());
        worker.once("exit", () => resolve());
      });
      worker.postMessage({ type: "close" });
      await closed;
      await worker.terminate();
    },
  };
}
