import nodemailer from "nodemailer";
import type { WatchedChain } from "@/domain/watched-chains";
import { driverFor } from "@/lib/chains/drivers";
import { endpointOf } from "@/lib/chains/health";
import type { Config } from "@/lib/config";
import { RATE_PROVIDERS } from "@/lib/rates/providers/index";
import { loadRateTable } from "@/lib/rates/rate-source";
import { fail, networkFix, ok, reasonOf, warn, withTimeout, type CheckLine } from "./lines";

/*
 * The servers the service talks to, each asked once the way the service asks it: the chain
 * nodes through their drivers' `identify` (lib/chains/drivers.ts, which every watcher tick
 * starts with), the rate providers through their adapters (lib/rates/providers), the SMTP
 * server through nodemailer's `verify` (connect, greeting, EHLO, STARTTLS and login when the URL
 * asks for them), and the public URL's /healthz through whatever stands in front of it.
 */

/** Every configured chain's node: reachable, and which network it serves. */
export async function checkChains(config: Config, env: Record<string, string | undefined>, timeoutMs: number): Promise<CheckLine[]> {
  const nodes = Object.entries(config.chains.rpcUrls) as [WatchedChain, string][];
  if (nodes.length === 0) {
    const detail = "none configured: test businesses only (no live payments)";
    return [config.production ? warn("chains", detail, "set a node's URL (BITCOIN_RPC_URL, ETHEREUM_RPC_URL, …) for each chain live businesses take (docs/real-chains.md)") : ok("chains", detail)];
  }
  return Promise.all(
    nodes.map(async ([chain, url]): Promise<CheckLine> => {
      const name = `${chain} node`;
      const where = endpointOf(url);
      // The variable that set it, for the advice: BITCOIN_RPC_URL, or a chain's own name for it
      // (the shortest match, so BITCOIN_CASH_RPC_URL never stands for BITCOIN).
      const [variable = `${chain}_RPC_URL`] = Object.keys(env)
        .filter((k) => k.startsWith(`${chain}_`) && env[k]?.trim() === url)
        .sort((a, b) => a.length - b.length);
      try {
        const id = await withTimeout(driverFor(chain, url, config.chains).identify(), timeoutMs);
        const network = `${id.network === "main" ? "mainnet" : `the ${id.network} network`}${id.chainId !== null ? ` (chain id ${id.chainId})` : ""}`;
        const detail = `${where} answers: ${network}; coins ${id.coins.join(", ") || "none"}`;
        if (config.production && id.network !== "main") {
          return warn(name, detail, `live businesses are paid there in coins of no value: point ${variable} at a mainnet node to take real money`);
        }
        return ok(name, detail);
      } catch (e) {
        const reason = reasonOf(e);
        const text = reason.text.split(url).join(where);
        return fail(name, `${where}: ${text}`, networkFix(reason, "the node") ?? `check ${variable} (address, credentials) and the node's log`);
      }
    }),
  );
}

/** The rates' source: the pinned table reads, or each market provider answers with prices. */
export async function checkRates(config: Config, timeoutMs: number): Promise<CheckLine[]> {
  const r = config.rates;
  if (r.pinnedFile) {
    try {
      const table = loadRateTable({ RATES_FILE: r.pinnedFile });
      return [ok("rates", `RATES_FILE ${r.pinnedFile}: ${Object.keys(table.coins).length} coins, ${Object.keys(table.currencies).length} currencies${table.asOf ? `, as of ${table.asOf}` : ""}`)];
    } catch (e) {
      return [fail("rates", (e as Error).message, "correct the file (same shape as the built-in table, docs/exchange-rates.md): quotes fail until then")];
    }
  }
  if (r.providers.length === 0) {
    const detail = "no source set: test businesses quote from the built-in table, live businesses cannot quote";
    return [config.production ? warn("rates", detail, "set RATE_PROVIDERS=kraken,coinbase,coingecko (or RATES_FILE) before taking live payments") : ok("rates", detail)];
  }
  const answers = await Promise.all(
    r.providers.map(async (id) => {
      const started = performance.now();
      try {
        const snapshot = await RATE_PROVIDERS[id].fetchRates({
          baseUrl: r.baseUrls[id],
          timeoutMs: Math.min(r.timeoutMs, timeoutMs),
          apiKey: id === "coingecko" ? r.coingeckoApiKey : undefined,
          maxAgeMs: r.maxAgeMs,
        });
        return { id, ok: true as const, detail: `${snapshot.usd.size} coins priced in USD, ${snapshot.fiat?.size ?? 0} currencies, in ${Math.round(performance.now() - started)} ms` };
      } catch (e) {
        return { id, ok: false as const, reason: reasonOf(e) };
      }
    }),
  );
  const anyOk = answers.some((a) => a.ok);
  return answers.map((a) => {
    const name = `rates: ${a.id}`;
    if (a.ok) return ok(name, a.detail);
    const fix = networkFix(a.reason, `this machine's way out to ${a.id}`) ?? "see the provider's status page; the error above is what it answered";
    // The median of the providers that answer still prices every quote: one down is a warning.
    return anyOk ? warn(name, `${a.reason.text}; quotes use the other providers`, fix) : fail(name, `${a.reason.text}; no provider answers, so live businesses cannot quote`, fix);
  });
}

/** SMTP_URL: connect, greeting, EHLO (and STARTTLS and login when the URL asks) without sending anything. */
export async function checkSmtp(config: Config, timeoutMs: number): Promise<CheckLine[]> {
  const smtpUrl = config.mail.smtpUrl;
  if (!smtpUrl) return [ok("SMTP", "SMTP_URL not set: customer e-mails are kept on the dashboard, not sent")];
  const url = new URL(smtpUrl);
  for (const option of ["connectionTimeout", "greetingTimeout", "socketTimeout"]) {
    if (!url.searchParams.has(option)) url.searchParams.set(option, String(timeoutMs));
  }
  const where = endpointOf(smtpUrl);
  const transport = nodemailer.createTransport(url.toString());
  try {
    await withTimeout(transport.verify(), timeoutMs * 2);
    return [ok("SMTP", `${where} greets and answers EHLO${url.username ? ", and accepts the login" : ""}: e-mails can be handed over`)];
  } catch (e) {
    const reason = reasonOf(e);
    const fix =
      reason.code === "EAUTH"
        ? "the server refused the user or password in SMTP_URL"
        : (networkFix(reason, "the mail server") ?? "check SMTP_URL (smtp:// with STARTTLS, or smtps:// on 465) and the server's log");
    return [fail("SMTP", `${where}: ${reason.text}; customer e-mails are not sent`, fix)];
  } finally {
    transport.close();
  }
}

/** PUBLIC_BASE_URL/healthz answers as the service does, through whatever stands in front of it. */
export async function checkPublicUrl(config: Config, timeoutMs: number): Promise<CheckLine[]> {
  const url = `${config.publicBaseUrl}/healthz`;
  const name = "public URL";
  const started = performance.now();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual", headers: { accept: "application/json" } });
    const body = await res.text();
    const ms = Math.round(performance.now() - started);
    if (res.status === 200 && /"status"\s*:\s*"ok"/.test(body)) return [ok(name, `${url} answered 200 in ${ms} ms`)];
    if (res.status >= 300 && res.status < 400) {
      return [fail(name, `${url} redirects (${res.status}) to ${res.headers.get("location")}`, "set PUBLIC_BASE_URL to the address the service answers at itself, usually its https:// one")];
    }
    const fix =
      res.status === 502 || res.status === 503 || res.status === 504
        ? "the proxy answers but cannot reach the service: is it running (systemctl status payments), and is the proxy's upstream the service's PORT?"
        : "something other than this service answers there: check the proxy's configuration and the DNS name";
    return [fail(name, `${url} answered ${res.status}${body ? `: ${body.slice(0, 80).replace(/\s+/g, " ")}` : ""}`, fix)];
  } catch (e) {
    const reason = reasonOf(e);
    const text = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : reason.text;
    const fix = networkFix({ ...reason, text }, "the proxy (or the service)") ?? "check the DNS name, the proxy and the firewall";
    return [fail(name, `${url}: ${text}; customers cannot reach the checkout`, fix)];
  }
}
