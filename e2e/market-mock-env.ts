import { freePortSync } from "./free-port-sync";

/**
 * Where the e2e server's market rates come from: one local mock of Kraken, Coinbase and CoinGecko
 * (test/rates/market-mock.ts). As with litecoind (e2e/litecoin-node.ts), Playwright starts the
 * webServer before globalSetup and fixes its environment when the config is evaluated, so the
 * mock's port is chosen here, once, and kept in E2E_MARKET_MOCK_PORT: the workers inherit the
 * runner's environment and evaluate the config again, so every process agrees on it.
 * e2e/global-setup.ts starts the mock on that port (the server's refreshes fail until then and
 * retry every RATE_REFRESH_SECONDS). Kept free of the service's modules: the config imports it.
 */
const PORT_ENV = "E2E_MARKET_MOCK_PORT";

/** Seconds: a refresh every 5 s, values refused once older than 15 s, 2 s per provider call. */
export const E2E_RATE_REFRESH_SECONDS = 5;
export const E2E_RATE_MAX_AGE_SECONDS = 15;
export const E2E_RATE_PROVIDER_TIMEOUT_SECONDS = 2;

if (process.env[PORT_ENV] === undefined) process.env[PORT_ENV] = String(freePortSync());

export function e2eMarketMock(): { port: number; baseUrl: string } {
  const port = Number(process.env[PORT_ENV]);
  return { port, baseUrl: `http://127.0.0.1:${port}` };
}

/** The server's rate settings: every provider on the mock, with short periods so staleness shows within a test. */
export function marketMockServerEnv(): Record<string, string> {
  const { baseUrl } = e2eMarketMock();
  return {
    RATES_FILE: "",
    RATE_PROVIDERS: "kraken,coinbase,coingecko",
    KRAKEN_BASE_URL: baseUrl,
    COINBASE_BASE_URL: baseUrl,
    COINGECKO_BASE_URL: baseUrl,
    RATE_REFRESH_SECONDS: String(E2E_RATE_REFRESH_SECONDS),
    RATE_MAX_AGE_SECONDS: String(E2E_RATE_MAX_AGE_SECONDS),
    RATE_PROVIDER_TIMEOUT_SECONDS: String(E2E_RATE_PROVIDER_TIMEOUT_SECONDS),
  };
}
