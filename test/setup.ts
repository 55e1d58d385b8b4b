/*
 * Every chain's node is configured, at an address where nothing listens (port 9, discard): live
 * businesses can take payments, as with a real node that is down, and no coin is offered until a
 * test makes its chain healthy (test/helpers.ts, chainFollowed) or follows a real node. No test
 * starts the background runner, so nothing polls these addresses.
 */
const DOWN_NODE = "http://test:test@127.0.0.1:9/";

/*
 * Rates are pinned (RATES_FILE, the built-in table's figures) so live businesses can quote, as
 * on a regtest set-up; the tests of the other sources pass their own rates configuration.
 */
const PINNED_RATES = new URL("./fixtures/pinned-rates.json", import.meta.url).pathname;

Object.assign(process.env, {
  NODE_ENV: "test",
  DATA_DIR: process.env.DATA_DIR ?? ":memory:",
  PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? "http://pay.test",
  BITCOIN_RPC_URL: DOWN_NODE,
  LITECOIN_RPC_URL: DOWN_NODE,
  BITCOIN_CASH_RPC_URL: DOWN_NODE,
  ETHEREUM_RPC_URL: DOWN_NODE,
  TRON_RPC_URL: DOWN_NODE,
  RATES_FILE: PINNED_RATES,
});
