/*
 * The production server's stop (scripts/graceful-stop.mjs and instrumentation's step,
 * lib/background/shutdown.ts) around a small node:http server, for test/shutdown/stop.test.ts:
 * the embedded database in DATA_DIR and the embedded runner, started and registered as
 * instrumentation.ts does, with routes that call the service directly, so no Next.js build is
 * needed. `?wait=MS` holds a request that long before it is served. Prints "listening <port>".
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getDb } from "@/db/client";
import { startBackground } from "@/lib/background/driver";
import { shutdown } from "@/lib/background/shutdown";
import { onShutdown } from "@/lib/background/shutdown-hook.mjs";
import { createBusiness } from "@/lib/businesses/businesses";
import { CreateBusinessSchema } from "@/lib/businesses/schemas";
import { shutdownTimeoutOrExit, stopOnSignals } from "@/scripts/graceful-stop.mjs";

await getDb();
await startBackground(getDb);
onShutdown(shutdown);

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get("wait") ?? 0)));
  try {
    if (req.method === "POST" && url.pathname === "/businesses") {
      const made = await createBusiness(await getDb(), CreateBusinessSchema.parse({ name: "Stopping shop" }));
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ businessId: made.businessId }));
    } else {
      res.writeHead(200).end("ok");
    }
  } catch (err) {
    console.error(err);
    res.writeHead(500).end(String(err));
  }
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));
stopOnSignals({ server, app: { close: async () => {} }, timeoutMs: shutdownTimeoutOrExit(process.env) });
