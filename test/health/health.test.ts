import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { executeRows, getDb } from "@/db/client";
import { ConfigError, loadConfig } from "@/lib/config";
import { latestJournalEntry, readiness, readinessChecks } from "@/lib/health/readiness";
import * as healthzRoute from "@/app/healthz/route";
import * as readyzRoute from "@/app/readyz/route";
import { expectProblem } from "../helpers";

const call = (mod: { GET: unknown }, method = "GET") =>
  (mod as Record<string, (req: Request, ctx: unknown) => Promise<Response>>)[method](new Request("http://localhost:3000/x", { method }), {
    params: Promise.resolve(undefined),
  });

beforeAll(async () => {
  await getDb();
});

describe("/healthz", () => {
  it("answers 200 {status: ok} without asking the database", async () => {
    const res = await call(healthzRoute);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("refuses other methods with a 405", async () => {
    await expectProblem(await call(healthzRoute, "POST"), 405);
  });
});

describe("/readyz", () => {
  it("is 200 when the database answers and has every migration, with the chains and rates reported", async () => {
    const res = await call(readyzRoute);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe("ready");
    expect(body.checks).toEqual({
      database: { ok: true, problem: null },
      migrations: { ok: true, problem: null, latest: latestJournalEntry().tag },
    });
    // The test set-up's chains are configured at an address where nothing listens: not healthy, yet
    // ready. A shared PostgreSQL (DATABASE_URL) holds the cursors other files' nodes moved, so
    // there only their report is checked.
    expect(body.chains).toHaveLength(5);
    for (const c of body.chains as { state: unknown }[]) expect(typeof c.state).toBe("string");
    if (!process.env.DATABASE_URL) expect(body.chains.every((c: { state: string }) => c.state !== "healthy")).toBe(true);
    expect(body.rates).toEqual({ source: "rates-file", unusableCoins: expect.any(Number), unusableCurrencies: expect.any(Number) });
  });

  it("is 503 naming the migration when the database lacks the latest one", async () => {
    const db = await getDb();
    const latest = latestJournalEntry();
    const [row] = await executeRows<{ id: number; hash: string; created_at: string }>(
      db,
      sql`delete from drizzle.__drizzle_migrations where created_at = ${latest.when} returning id, hash, created_at`,
    );
    expect(row).toBeDefined();
    try {
      const res = await call(readyzRoute);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.status).toBe("not ready");
      expect(body.checks.database.ok).toBe(true);
      expect(body.checks.migrations).toEqual({ ok: false, problem: `migration ${latest.tag} is not applied`, latest: latest.tag });
    } finally {
      await db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`);
    }
    expect((await call(readyzRoute)).status).toBe(200);
  });

  it("is not ready when the database cannot be reached or does not answer in time", async () => {
    const down = await readiness(() => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")));
    expect(down.status).toBe("not ready");
    expect(down.checks.database).toEqual({ ok: false, problem: "connect ECONNREFUSED 127.0.0.1:5432" });
    expect(down.checks.migrations.ok).toBe(false);
    expect(down.chains).toBeNull();

    const { checks } = await readinessChecks(() => new Promise(() => {}), latestJournalEntry(), 50);
    expect(checks.database).toEqual({ ok: false, problem: "the database did not answer within 50 ms" });
  });

  it("reads the journal's latest migration, which a later build's journal would be ahead of", async () => {
    const { checks } = await readinessChecks(getDb, { tag: "9999_from_a_newer_build", when: latestJournalEntry().when + 1 });
    expect(checks.migrations.problem).toBe("migration 9999_from_a_newer_build is not applied");
  });
});

describe("METRICS_TOKEN", () => {
  it("is read, and refused when short or spaced", () => {
    const env = { ...process.env, METRICS_TOKEN: undefined };
    expect(loadConfig(env).metricsToken).toBeUndefined();
    expect(loadConfig({ ...env, METRICS_TOKEN: "" }).metricsToken).toBeUndefined();
    expect(loadConfig({ ...env, METRICS_TOKEN: "prometheus-scrape-0123" }).metricsToken).toBe("prometheus-scrape-0123");
    expect(() => loadConfig({ ...env, METRICS_TOKEN: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, METRICS_TOKEN: "has a space in it, sadly" })).toThrow(/METRICS_TOKEN: must be at least 16 printable characters/);
  });
});
