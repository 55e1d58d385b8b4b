/**
 * `npm run rates:check [kraken,coinbase,coingecko]`: fetches from the real providers (an operator
 * with internet access) and prints what each answered — the coins and currencies it priced, what
 * it skipped and why, or its error — then the median rates of a few coins. It changes nothing.
 * `--base-url URL` sends every provider to another host (a mirror, or the tests' local server).
 */
import { parseArgs } from "node:util";
import { COINS, type CoinName } from "@/domain/coins";
import { providersFromList, type ProviderSnapshot } from "@/lib/rates/providers/index";
import { RATE_PROVIDER_IDS } from "@/lib/config/rates";
import { snapshotRateSource } from "@/lib/rates/snapshot-source";

const SHOWN: CoinName[] = ["BITCOIN", "ETHEREUM", "LITECOIN", "BITCOIN_CASH", "ETH_TETHER"];
const CURRENCIES = ["USD", "EUR", "JPY"];

export async function ratesCheck(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { "base-url": { type: "string" }, "timeout-ms": { type: "string" } }, allowPositionals: true });
  const providers = providersFromList(positionals[0] ?? RATE_PROVIDER_IDS.join(","));
  const options = { baseUrl: values["base-url"], timeoutMs: values["timeout-ms"] ? Number(values["timeout-ms"]) : undefined };
  const snapshots: ProviderSnapshot[] = [];
  for (const p of providers) {
    const t0 = performance.now();
    try {
      const s = await p.fetchRates(options);
      snapshots.push(s);
      const ms = Math.round(performance.now() - t0);
      out(`${p.id}: ok in ${ms} ms: ${s.usd.size} coins priced in USD, ${s.fiat?.size ?? 0} fiat currencies, ${s.skipped.length} skipped`);
      for (const k of s.skipped) out(`  skipped ${k.key}: ${k.why}`);
    } catch (e) {
      out(`${p.id}: FAILED: ${(e as Error).message}`);
    }
  }
  if (snapshots.length === 0) return 1;
  const source = snapshotRateSource(snapshots);
  out("");
  out(`median of ${snapshots.map((s) => s.provider).join(", ")}:`);
  for (const coin of SHOWN) {
    const cells = await Promise.all(
      CURRENCIES.map((c) =>
        source.rate(coin, c).then(
          (r) => `${r.rate} ${c}`,
          () => `no ${c} rate`,
        ),
      ),
    );
    out(`  1 ${COINS[coin].symbol} (${coin}) = ${cells.join(" · ")}`);
  }
  return snapshots.length === providers.length ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await ratesCheck(process.argv.slice(2), (line) => console.log(line));
}
