import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { logSettings } from "@/log/logger.mjs";
import { requestIdOf } from "@/log/request-id.mjs";

/**
 * The logger as a process sees it (log/logger.mjs): a child process writes through it with an
 * environment of its own, and its stdout is read back.
 */

const LOGGER = path.resolve(import.meta.dirname, "../../log/logger.mjs");
const TOKEN = "metrics-token-for-the-logger-test";

const SCRIPT = `
import { childLogger, inRequest, log, routeConsoleToLog } from ${JSON.stringify(LOGGER)};
log.debug({ step: 1 }, "a debug line");
log.info({ step: 2 }, "outside any request");
await inRequest("req-abc.1", async () => {
  await new Promise((r) => setTimeout(r, 5));
  await Promise.all([1, 2].map(async (n) => log.warn({ step: 3, n }, "inside the request")));
  log.info("inside, no fields");
});
childLogger({ component: "child", password: "child-password", node: "http://u:child-pw@node/" }).info("a child's line");
routeConsoleToLog();
console.error("the console says", process.env.METRICS_TOKEN, new Error("at http://u:pw-in-url@node/"));
console.log("\u001b[32m✓\u001b[39m coloured");
`;

async function run(env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", SCRIPT], {
    env: { ...process.env, LOG_LEVEL: "", LOG_FORMAT: "", METRICS_TOKEN: TOKEN, ...env },
  });
  return stdout;
}

describe("the logger", () => {
  it("writes JSON lines at LOG_LEVEL in production, with level names, the request id inside a request and secrets redacted", async () => {
    const out = await run({ NODE_ENV: "production", LOG_LEVEL: "info" });
    const lines = out.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.level, l.msg, l.requestId])).toEqual([
      ["info", "outside any request", undefined],
      ["warn", "inside the request", "req-abc.1"],
      ["warn", "inside the request", "req-abc.1"],
      ["info", "inside, no fields", "req-abc.1"],
      ["info", "a child's line", undefined],
      ["error", "the console says [REDACTED]", undefined],
      ["info", "✓ coloured", undefined],
    ]);
    // Each line has its own fields only: none left over from an earlier line of the request.
    expect(Object.keys(lines[3]).sort()).toEqual(["hostname", "level", "msg", "pid", "requestId", "time"]);
    expect(lines[4]).toMatchObject({ component: "child", password: "[REDACTED]", node: "http://[REDACTED]@node/" });
    expect(lines[5]).toMatchObject({ source: "console", err: { type: "Error", message: "at http://[REDACTED]@node/" } });
    for (const line of lines) expect(line).toMatchObject({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), pid: expect.any(Number) });
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain("pw-in-url");
  });

  it("writes debug lines at LOG_LEVEL=debug, and readable lines with LOG_FORMAT=pretty", async () => {
    const debug = await run({ NODE_ENV: "production", LOG_LEVEL: "debug" });
    expect(debug.trim().split("\n").map((l) => JSON.parse(l).msg)[0]).toBe("a debug line");
    const pretty = await run({ NODE_ENV: "production", LOG_FORMAT: "pretty" });
    expect(pretty).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: outside any request$/m);
    expect(pretty).toMatch(/WARN: inside the request\n\s+requestId: "req-abc.1"\n\s+step: 3\n\s+n: 1/);
    expect(pretty).not.toContain(TOKEN);
  });
});

describe("LOG_LEVEL and LOG_FORMAT", () => {
  it("default to info, JSON in production and readable lines elsewhere; a wrong value falls back until the configuration check stops the start", () => {
    expect(logSettings({ NODE_ENV: "production" })).toEqual({ level: "info", format: "json" });
    expect(logSettings({ NODE_ENV: "development" })).toEqual({ level: "info", format: "pretty" });
    expect(logSettings({})).toEqual({ level: "info", format: "pretty" });
    expect(logSettings({ NODE_ENV: "production", LOG_LEVEL: " DEBUG ", LOG_FORMAT: "pretty" })).toEqual({ level: "debug", format: "pretty" });
    expect(logSettings({ NODE_ENV: "development", LOG_LEVEL: "silent", LOG_FORMAT: "json" })).toEqual({ level: "silent", format: "json" });
    expect(logSettings({ NODE_ENV: "production", LOG_LEVEL: "verbose", LOG_FORMAT: "xml" })).toEqual({ level: "info", format: "json" });
  });
});

describe("the request id", () => {
  it("keeps a client's or proxy's plain token of at most 64 characters, else makes a UUID", () => {
    expect(requestIdOf("abc-DEF_123.x")).toBe("abc-DEF_123.x");
    expect(requestIdOf("a".repeat(64))).toBe("a".repeat(64));
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const bad of [undefined, "", "a".repeat(65), "id with spaces", "a\nb", "x,y", '{"json":1}', ["a", "b"]]) expect(requestIdOf(bad)).toMatch(uuid);
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });
});
