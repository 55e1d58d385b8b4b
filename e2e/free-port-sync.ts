import { execFileSync } from "node:child_process";

/**
 * A TCP port nothing on 127.0.0.1 listens on now, found synchronously: the Playwright config
 * cannot await, and the webServer's environment (the nodes' and mocks' ports) is fixed when the
 * config is first evaluated. Kept free of the service's modules: the config imports it.
 */
export function freePortSync(): number {
  const script = `const s = require("node:net").createServer();
s.listen(0, "127.0.0.1", () => { process.stdout.write(String(s.address().port)); s.close(); });`;
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}
