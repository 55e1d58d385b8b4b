import { defineConfig, devices } from "@playwright/test";
import { e2eLitecoinNode } from "./e2e/litecoin-node";
import { marketMockServerEnv } from "./e2e/market-mock-env";
import { smtpServerEnv } from "./e2e/smtp-env";
import { tronServerEnv } from "./e2e/tron-node";
import { moneroServerEnv } from "./e2e/monero-node";
import { solanaServerEnv } from "./e2e/solana-node";
import { tonServerEnv } from "./e2e/ton-node";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_ADMIN_TOKEN = "adm_e2e_token_for_playwright_only";
export const E2E_METRICS_TOKEN = "metrics_e2e_token_for_playwright_only";
/** The regtest litecoind the server follows (started by e2e/global-setup.ts), or null without litecoind. */
const litecoin = e2eLitecoinNode();

/** The server runs the embedded default (PGlite), whatever DATABASE_URL the test shell has. */
function serverEnv(): Record<string, string> {
  const env = { ...process.env } as Record<string, string>;
  delete env.DATABASE_URL;
  return env;
}

/**
 * End-to-end flows against the production build, served as `npm start` serves it
 * (scripts/server.mjs), with a fresh embedded PGlite database, driven by the Debian chromium
 * (never `playwright install`: no downloads here).
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  // Runs after the webServer is up; returns the teardown that stops the nodes and the market mock.
  globalSetup: "./e2e/global-setup.ts",
  webServer: {
    command: "rm -rf .e2e-data && npx next build && node scripts/server.mjs",
    url: `http://localhost:${PORT}/`,
    // The build alone takes more than 4 minutes on a loaded 2-core machine.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      ...serverEnv(),
      // Playwright merges this with its own environment: an empty value overrides a DATABASE_URL
      // the test shell has (CI's), and the service reads it as unset.
      DATABASE_URL: "",
      DATA_DIR: ".e2e-data",
      PORT: String(PORT),
      PUBLIC_BASE_URL: `http://localhost:${PORT}`,
      ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      METRICS_TOKEN: E2E_METRICS_TOKEN,
      // Live businesses' webhooks may go to the tests' receivers on 127.0.0.1 over http.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // Every spec signs in from 127.0.0.1: the per-address limit (5 a minute; tested in test/accounts) would refuse the run.
      SIGN_IN_ATTEMPTS_PER_MINUTE: "1000",
      ...(litecoin ? { LITECOIN_RPC_URL: litecoin.url } : {}),
      // The fake java-tron node (Nile's genesis, USDT at a fixed contract) that globalSetup starts (e2e/tron-node.ts).
      ...tronServerEnv(),
      // The fake Solana node (devnet's genesis, USDC at a fixed mint) that globalSetup starts (e2e/solana-node.ts).
      ...solanaServerEnv(),
      // The fake toncenter (the TVM emulator behind toncenter v2) that globalSetup starts (e2e/ton-node.ts).
      ...tonServerEnv(),
      // The regtest monerod and the wallet-rpc for view-only wallets that globalSetup starts (e2e/monero-node.ts).
      ...moneroServerEnv(),
      // Market rates from the mock of Kraken, Coinbase and CoinGecko that globalSetup starts
      // (e2e/market-mock-env.ts); its default prices are the static table's, so amounts are too.
      ...marketMockServerEnv(),
      // Customer e-mails go to the SMTP server e2e/customer-emails.spec.ts starts (e2e/smtp-env.ts).
      ...smtpServerEnv(),
    },
  },
});
