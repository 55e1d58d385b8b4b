import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type Big from "big.js";
import type { Db } from "@/db/client";
import {
  claimRateRefresh,
  makeRateRefreshDue,
  providerRuns,
  ratesOfProvider,
  recordProviderRun,
  recordRejectedRate,
  releaseRateRefresh,
  storeRates,
  type GoodRate,
  type RateKind,
} from "@/db/queries/rates";
import type { RatesConfig } from "@/lib/config/rates";
import { Dec } from "./providers/decimal";
import { RateLimitedError } from "./providers/errors";
import { RATE_PROVIDERS } from "./providers/index";
import type { ProviderSnapshot, RateProvider } from "./providers/types";
import { log as serviceLog } from "@/log/logger.mjs";

/** This process, as the holder of a refresh lease. */
const OWNER = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

export type RefreshResult = {
  /** Providers that answered, with how many values were stored and refused. */
  answered: { provider: string; stored: number; refused: number }[];
  failed: { provider: string; error: string }[];
  /** Providers not asked because they rate-limited us and their backoff has not ended. */
  backingOff: string[];
};

export type RefreshOptions = {
  now?: Date;
  owner?: string;
  /** The adapters (tests pass their own list); by default those named in `cfg.providers`. */
  providers?: readonly RateProvider[];
  /** Where refusals and failures are told (a test's spy); the service's log by default. */
  log?: { warn(message: string): void };
};

/**
 * How far `next` is from `last`, in percent of `last`, exactly. A provider's value that moves
 * more than RATE_MAX_JUMP_PERCENT is refused: a glitch (a misplaced decimal point, a market
 * printing one odd trade) must not become a quote.
 */
export function jumpPercent(last: string, next: string): Big {
  const l = new Dec(last);
  return new Dec(next).minus(l).abs().times(100).div(l);
}

type Value = { kind: RateKind; key: string; value: string };

function valuesOf(s: ProviderSnapshot): Value[] {
  return [
    ...[...s.usd].map(([key, value]) => ({ kind: "coin" as const, key, value })),
    ...[...(s.fiat ?? new Map<string, string>())].map(([key, value]) => ({ kind: "fiat" as const, key, value })),
  ];
}

/**
 * Sorts one provider's answer into values to store and values to refuse. The jump rule compares
 * with the last good value only while that is still fresh (younger than RATE_MAX_AGE_SECONDS):
 * once it has aged out, the new value is taken, so a real move larger than the limit costs at
 * most one max-age of unavailability instead of locking the rate for ever.
 */
async function judge(db: Db, s: ProviderSnapshot, cfg: RatesConfig, now: Date, log: { warn(message: string): void }) {
  const last = new Map((await ratesOfProvider(db, s.provider)).map((r) => [`${r.kind}:${r.key}`, r]));
  const good: GoodRate[] = [];
  let refused = 0;
  for (const v of valuesOf(s)) {
    const prev = last.get(`${v.kind}:${v.key}`);
    if (prev && now.getTime() - prev.fetchedAt.getTime() <= cfg.maxAgeMs) {
      const jump = jumpPercent(prev.value, v.value);
      if (jump.gt(cfg.maxJumpPercent)) {
        const why = `moved ${jump.toFixed(2)}% from ${new Dec(prev.value).toFixed()} (more than RATE_MAX_JUMP_PERCENT=${cfg.maxJumpPercent})`;
        log.warn(`${s.provider} ${v.key} ${v.value} refused: ${why}`);
        await recordRejectedRate(db, { provider: s.provider, kind: v.kind, key: v.key, value: v.value, at: s.fetchedAt, why });
        refused++;
        continue;
      }
    }
    good.push({ provider: s.provider, kind: v.kind, key: v.key, value: v.value, fetchedAt: s.fetchedAt });
  }
  await storeRates(db, good);
  return { stored: good.length, refused };
}

/**
 * One refresh of the market rates, when one is due: the instance whose conditional UPDATE moves
 * the shared schedule on (db/queries/rates.ts) asks every configured provider at once, stores
 * what each answered (minus refused jumps) with the provider and the time, and records each
 * failure; the others return null at once. Zero and negative prices never reach here (the
 * adapters skip them). A provider that fails keeps its last good values, which age out.
 */
export async function refreshRates(db: Db, cfg: RatesConfig, o: RefreshOptions = {}): Promise<RefreshResult | null> {
  const providers = o.providers ?? cfg.providers.map((id) => RATE_PROVIDERS[id]);
  if (providers.length === 0) return null;
  const now = o.now ?? new Date();
  const owner = o.owner ?? OWNER;
  const log = o.log ?? { warn: (message: string) => serviceLog.warn({ component: "rates" }, message) };
  // Kraken makes two calls, each bounded by timeoutMs; the lease outlives a refresh that hangs.
  const leaseMs = cfg.timeoutMs * 2 + 30_000;
  if (!(await claimRateRefresh(db, owner, now, cfg.refreshMs, leaseMs))) return null;
  const result: RefreshResult = { answered: [], failed: [], backingOff: [] };
  try {
    const backoff = new Map((await providerRuns(db)).map((r) => [r.provider, r.backoffUntil]));
    const asked = providers.filter((p) => {
      const until = backoff.get(p.id);
      if (until && until > now) result.backingOff.push(p.id);
      return !(until && until > now);
    });
    const answers = await Promise.allSettled(
      asked.map((p) =>
        p.fetchRates({
          baseUrl: cfg.baseUrls[p.id],
          timeoutMs: cfg.timeoutMs,
          apiKey: p.id === "coingecko" ? cfg.coingeckoApiKey : undefined,
          maxAgeMs: cfg.maxAgeMs,
          // Values are stamped with the moment they were read, unless a caller fixes the clock.
          now: o.now ? () => now : undefined,
        }),
      ),
    );
    for (const [i, answer] of answers.entries()) {
      const provider = asked[i].id;
      if (answer.status === "fulfilled") {
        result.answered.push({ provider, ...(await judge(db, answer.value, cfg, now, log)) });
        await recordProviderRun(db, provider, now, { error: null });
        continue;
      }
      const error = answer.reason instanceof Error ? answer.reason.message : String(answer.reason);
      const e = answer.reason;
      const backoffUntil = e instanceof RateLimitedError ? new Date(now.getTime() + (e.retryAfterMs ?? cfg.refreshMs * 2)) : null;
      log.warn(`${error}${backoffUntil ? ` (not asked again before ${backoffUntil.toISOString()})` : ""}`);
      result.failed.push({ provider, error });
      await recordProviderRun(db, provider, now, { error, backoffUntil });
    }
    // Nobody answered (a start before the network is up, a provider outage): try again soon
    // rather than a whole period later; providers backing off are still left alone.
    if (result.answered.length === 0 && result.failed.length > 0 && cfg.refreshMs > RETRY_AFTER_FAILURE_MS) {
      await makeRateRefreshDue(db, new Date(now.getTime() + RETRY_AFTER_FAILURE_MS));
    }
  } finally {
    await releaseRateRefresh(db, owner);
  }
  return result;
}

/** When every provider asked failed, the next refresh is due this soon instead of a period later. */
export const RETRY_AFTER_FAILURE_MS = 15_000;

/** How often an instance asks whether a refresh is due (a one-row conditional UPDATE). */
export const DUE_CHECK_MS = 1_000;
