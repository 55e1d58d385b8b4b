import net from "node:net";
import path from "node:path";

/*
 * The client side of the embedded database's backup socket (served by db/pglite-server.mjs): a
 * line `dump` or `ping`, answered by a line of JSON and, for `dump`, that many bytes of PGlite's
 * gzipped tar of the data directory.
 */

/** The socket the running service answers backup requests on: in DATA_DIR, beside `pgdata`. */
export function backupSocketPath(dataDir: string): string {
  return path.resolve(dataDir, "backup.sock");
}

/** The data directory proper: PostgreSQL's files, under DATA_DIR (db/client.ts opens the same). */
export function pgdataPath(dataDir: string): string {
  return path.resolve(dataDir, "pgdata");
}

/** Nothing answers on the socket: no service runs on this data directory. */
export class NotServing extends Error {}

type Answer = { ok: true; bytes?: number } | { ok: false; error: string };

function ask(socketPath: string, request: "dump" | "ping"): Promise<{ answer: Answer; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    socket.once("connect", () => socket.write(`${request}\n`));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ECONNREFUSED") reject(new NotServing(`nothing answers on ${socketPath}`));
      else reject(err);
    });
    socket.once("end", () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      if (newline < 0) return reject(new Error(`the service closed the backup socket without an answer (${all.length} bytes)`));
      try {
        resolve({ answer: JSON.parse(all.subarray(0, newline).toString("utf8")) as Answer, body: all.subarray(newline + 1) });
      } catch {
        reject(new Error("the backup socket's answer is not the expected JSON line"));
      }
    });
  });
}

/** Whether a service (or a restore, or a backup of a stopped directory) holds this data directory now. */
export async function serviceAnswers(dataDir: string): Promise<boolean> {
  try {
    await ask(backupSocketPath(dataDir), "ping");
    return true;
  } catch (err) {
    if (err instanceof NotServing) return false;
    throw err;
  }
}

/** The running service's consistent copy of its data directory (PGlite's gzipped tar). Throws NotServing. */
export async function requestDump(dataDir: string): Promise<Buffer> {
  const { answer, body } = await ask(backupSocketPath(dataDir), "dump");
  if (!answer.ok) throw new Error(`the service could not dump its database: ${answer.error}`);
  if (body.length !== answer.bytes) throw new Error(`the dump was cut short: ${body.length} of ${answer.bytes} bytes`);
  return body;
}
