import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SHUTDOWN_TIMEOUT_SECONDS } from "../scripts/graceful-stop.mjs";

/*
 * The deployment recipe's files agree with the service: deploy/payments.env.example lists every
 * variable the documentation describes, and names none the service does not read; the systemd
 * unit gives the server's graceful stop the time it takes. (deploy/check.sh verifies the files
 * with systemd, Caddy and nginx themselves, and runs the service behind them.)
 */

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The variables a document's tables name in their first column (`NAME`, `A`, `B`, `EXPLORER_TX_URL_<NETWORK>`). */
function documentedVariables(file: string): string[] {
  return read(file)
    .split("\n")
    .filter((l) => l.startsWith("| `"))
    .flatMap((l) => [...l.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]*(?:<NETWORK>)?)`/g)].map((m) => m[1]));
}

/** Every NAME= line of the example, commented or not. */
const exampleVariables = () => [...read("deploy/payments.env.example").matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);

describe("deploy/payments.env.example", () => {
  it("lists every variable of configuration.md, exchange-rates.md and operations.md's Inngest settings", () => {
    const documented = [...documentedVariables("docs/configuration.md"), ...documentedVariables("docs/exchange-rates.md"), ...documentedVariables("docs/operations.md")];
    expect(documented).toContain("DATABASE_URL");
    expect(documented).toContain("INNGEST_SIGNING_KEY");
    expect(documented).toContain("RATE_MAX_AGE_SECONDS");
    const listed = exampleVariables();
    const missing = documented.filter((name) => (name.endsWith("<NETWORK>") ? !listed.some((l) => l.startsWith(name.replace("<NETWORK>", ""))) : !listed.includes(name)));
    expect(missing).toEqual([]);
  });

  it("names only variables the service reads", () => {
    // Where the service's variables are read: the configuration's schema, the database's settings and pools, the server's stop.
    const sources = [...readdirSync(path.join(root, "lib", "config")).map((f) => `lib/config/${f}`), "db/settings.ts", "db/client.ts", "scripts/graceful-stop.mjs"]
      .map(read)
      .join("\n");
    const unknown = exampleVariables().filter((name) => !(name.startsWith("EXPLORER_TX_URL_") ? sources.includes("EXPLORER_TX_URL_") : new RegExp(`\\b${name}\\b`).test(sources)));
    expect(unknown).toEqual([]);
  });
});

describe("deploy/payments.service", () => {
  const unit = read("deploy/payments.service");
  const setting = (key: string) => new RegExp(`^${key}=(.*)$`, "m").exec(unit)?.[1];

  it("stops through start.mjs alone and waits longer than the server's own bound", () => {
    expect(setting("KillMode")).toBe("mixed");
    expect(Number(setting("TimeoutStopSec"))).toBeGreaterThan(DEFAULT_SHUTDOWN_TIMEOUT_SECONDS);
    expect(setting("ExecStart")).toMatch(/ scripts\/start\.mjs$/);
    expect(existsSync(path.join(root, "scripts", "start.mjs"))).toBe(true);
    expect(setting("EnvironmentFile")).toBe("/etc/payments/payments.env");
    expect(setting("Restart")).toBe("on-failure");
  });
});
