import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";

export type EmbeddedDatabase = {
  /** The Unix socket postgres.js connects to (in a directory only this user can enter). */
  socketPath: string;
  /** Resolves when the thread has stopped on its own (a crash): the handle is then unusable. */
  exited: Promise<void>;
  /** Closes PGlite (a clean shutdown of the data directory) and stops the thread. */
  close: () => Promise<void>;
};

/**
 * Starts PGlite on a thread of its own (db/pglite-server.mjs) and resolves once it listens.
 * `dataDir` undefined = in memory.
 */
export async function startEmbeddedDatabase(dataDir: string | undefined): Promise<EmbeddedDatabase> {
  // mkdtemp creates the directory 0700: no other user of the machine reaches the socket.
  // A short path: a Unix socket's path is limited to ~107 bytes.
  const dir = mkdtempSync(path.join(os.tmpdir(), "cryptopay-db-"));
  const socketPath = path.join(dir, ".s.PGSQL.5432");
  const script = path.join(process.cwd(), "db", "pglite-server.mjs");
  const worker = new Worker(script, { workerData: { dataDir, socketPath } });
  // The thread must not keep a finished script (a CLI, a test) alive; open connections do.
  worker.unref();
  const removeDir = () => rmSync(dir, { recursive: true, force: true });

  let closing = false;
  const exited = new Promise<void>((resolve) => {
    worker.once("exit", (code) => {
      removeDir();
      if (!closing) console.error(`embedded database: its thread stopped (exit code ${code})`);
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
  worker.on("error", (err) => console.error("embedded database: its thread failed", err));

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
