import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/lib/config";

const PG = "postgres://postgres@127.0.0.1:5432/x";
const env = (values: Record<string, string>) => values as unknown as NodeJS.ProcessEnv;

describe("configuration", () => {
  it("embedded mode generates the admin token and signing secret once and keeps them in DATA_DIR", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cfg-"));
    const first = loadConfig(env({ DATA_DIR: dir }));
    expect(first.generated.adminToken).toBe(true);
    expect(first.adminToken).toMatch(/^adm_/);
    const file = path.join(dir, "secrets.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadConfig(env({ DATA_DIR: dir }));
    expect(again.generated.adminToken).toBe(false);
    expect(again.adminToken).toBe(first.adminToken);
    expect(Buffer.from(again.apiKeySecret).toString()).toBe(JSON.parse(readFileSync(file, "utf8")).apiKeySecret);
    expect(again.publicBaseUrl).toBe("http://localhost:3000");
  });

  it("production (NODE_ENV=production with DATABASE_URL) generates nothing and names every missing setting", () => {
    let error: unknown;
    try {
      loadConfig(env({ NODE_ENV: "production", DATABASE_URL: PG }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/API_KEY_SECRET/);
    expect(String(error)).toMatch(/PUBLIC_BASE_URL/);
    const ok = loadConfig({
      NODE_ENV: "production",
      DATABASE_URL: PG,
      API_KEY_SECRET: "x".repeat(32),
      PUBLIC_BASE_URL: "https://pay.example.com/",
    } as NodeJS.ProcessEnv);
    expect(ok.production).toBe(true);
    expect(ok.adminToken).toBeUndefined(); // admin API disabled
    expect(ok.publicBaseUrl).toBe("https://pay.example.com");
  });

  it("refuses malformed values with one message per problem; an empty DATABASE_URL means embedded", () => {
    expect(() => loadConfig(env({ DATABASE_URL: "mysql://x", PORT: "70000", DATA_DIR: ":memory:" }))).toThrow(
      /DATABASE_URL[\s\S]*PORT|PORT[\s\S]*DATABASE_URL/,
    );
    expect(loadConfig(env({ DATABASE_URL: "", DATA_DIR: ":memory:" })).databaseUrl).toBeUndefined();
  });
});
