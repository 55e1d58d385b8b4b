import net from "node:net";
import path from "node:path";

/*
 * The client side of the embedded database's backup socket (served by db/pglite-server.mjs): a
 * line `snapshot` or `ping`, answered by a line of JSON; a snapshot's connection stays open while
 * the client reads the copy it names, and closing it lets the service remove the copy.
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

type Answer = { ok: true; dir?: string } | { ok: false; error: string };

/** Sends `request` and resolves with the first line of the answer, the connection still open. */
function ask(socketPath: string, request: "snapshot" | "ping"): Promise<{ answer: Answer; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let received = "";
    socket.once("connect", () => socket.write(`${request}\n`));
    const onData = (c: Buffer) => {
      received += c.toString("utf8");
      const newline = received.indexOf("\n");
      if (newline < 0) return;
      socket.off("data", onData);
      try {
        resolve({ answer: JSON.parse(received.slice(0, newline)) as Answer, socket });
      } catch {
        socket.destroy();
        reject(new Error("the backup socket's answer is not the expected JSON line"));
      }
    };
    socket.on("data", onData);
    socket.once("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ECONNREFUSED") reject(new NotServing(`nothing answers on ${socketPath}`));
      else if (err.code === "EINVAL" || err.code === "ENAMETOOLONG") {
        reject(new Error(`${socketPath} is too long a path for a Unix socket (about 100 bytes at most): use a shorter DATA_DIR`));
      } else reject(err);
    });
    socket.once("end", () => reject(new Error("the service closed the backup socket without an answer")));
  });
}

/** Whether a service (or a restore, or a backup of a stopped directory) holds this data directory now. */
export async function serviceAnswers(dataDir: string): Promise<boolean> {
  try {
    (await ask(backupSocketPath(dataDir), "ping")).socket.destroy();
    return true;
  } catch (err) {
    if (err instanceof NotServing) return false;
    throw err;
  }
}

export type Snapshot = {
  /** A consistent copy of the data directory, the service's to remove once `release` is called. */
  dir: string;
  release: () => void;
};

/** Asks the running service for a consistent copy of its data directory. Throws NotServing. */
export async function takeSnapshot(dataDir: string): Promise<Snapshot> {
  const { answer, socket } = await ask(backupSocketPath(dataDir), "snapshot");
  if (!answer.ok || !answer.dir) {
    socket.destroy();
    throw new Error(`the service could not copy its database: ${answer.ok ? "no directory named" : answer.error}`);
  }
  return { dir: answer.dir, release: () => socket.end() };
}
