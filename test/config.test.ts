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

  it("reads Solana's mints and TON's jetton masters as the token contracts are read, naming the coin and the address form", () => {
    const base = { DATA_DIR: ":memory:" };
    const usdc = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    const usdt = "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs";
    const ok = loadConfig(env({ ...base, SOLANA_TOKEN_MINTS: JSON.stringify({ SOL_USD_COIN: usdc }), TON_JETTON_MASTERS: JSON.stringify({ TON_TETHER: usdt }) }));
    expect(ok.chains.solana.tokenMints).toEqual({ SOL_USD_COIN: usdc });
    expect(ok.chains.ton?.jettonMasters).toEqual({ TON_TETHER: usdt });
    expect(() => loadConfig(env({ ...base, SOLANA_TOKEN_MINTS: JSON.stringify({ BTC: usdc }) }))).toThrow(/BTC is not an SPL coin/);
    expect(() => loadConfig(env({ ...base, SOLANA_TOKEN_MINTS: JSON.stringify({ SOL_USD_COIN: "0xabc" }) }))).toThrow(/is not a base58 Solana address/);
    expect(() => loadConfig(env({ ...base, TON_JETTON_MASTERS: "[1]" }))).toThrow(/TON_JETTON_MASTERS: must be a JSON object/);
    expect(() => loadConfig(env({ ...base, TON_JETTON_MASTERS: JSON.stringify({ TON_TETHER: "nope" }) }))).toThrow(/"nope" is not a TON address/);
  });
});
