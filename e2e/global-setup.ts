import { TronWeb } from "tronweb";
import { startLitecoind, type Litecoind } from "../test/chains/nodes/litecoind";
import { startTronNode, type TronNode } from "../test/chains/nodes/tron-node";
import { startMarketMock, type MarketMock } from "../test/rates/market-mock";
import { e2eLitecoinNode, LITECOIN_START_ERROR_ENV } from "./litecoin-node";
import { e2eMarketMock, E2E_RATE_REFRESH_SECONDS } from "./market-mock-env";
import { E2E_TRON_BLOCK_MS, E2E_TRON_PAYER_KEY, E2E_TRON_USDT, e2eTronNode, TRON_START_ERROR_ENV } from "./tron-node";
import { startE2eSolana } from "./solana-setup";
import { startE2eTon } from "./ton-setup";
import { startE2eMonero } from "./monero-setup";

/**
 * Starts what the e2e server talks to, after the webServer is up (Playwright's order), and
 * returns the global teardown that stops it all, whatever the tests did:
 *
 * - the market mock (Kraken, Coinbase, CoinGecko at once; e2e/market-mock-env.ts) on the port the
 *   config chose, then waits until the server has stored one full round of its rates, so the
 *   first spec can quote. Without it no payment could be quoted: a mock that cannot start fails
 *   the run.
 * - the regtest litecoind the server follows (LITECOIN_RPC_URL, see e2e/litecoin-node.ts) with a
 *   data directory of its own, a funded `miner` wallet (101 blocks: one spendable coinbase, far
 *   below MWEB's activation at height 432). A node that cannot start does not stop the run: the
 *   error is handed to the workers (E2E_LITECOIN_START_ERROR) and the live spec fails with it;
 *   the other specs run as usual.
 * - the fake java-tron node the server follows (TRON_RPC_URL, see e2e/tron-node.ts): Nile's
 *   genesis, USDT at the fixed contract, the payer funded with TRX and USDT, a block every
 *   E2E_TRON_BLOCK_MS for the whole run. Its start error, too, goes to the live TRON spec only.
 * - the fake Solana node the server follows (SOLANA_RPC_URL, see e2e/solana-node.ts and
 *   e2e/solana-setup.ts): devnet's genesis, USDC at the fixed mint, the payer funded. Its start
 *   error goes to the live Solana spec only.
 * - the regtest monerod and wallet-rpcs the server follows (MONERO_DAEMON_URL,
 *   MONERO_WALLET_RPC_URL; e2e/monero-node.ts, e2e/monero-setup.ts). Their start error goes to
 *   the live Monero spec only.
 * - the fake toncenter the server follows (TON_API_URL; e2e/ton-node.ts, e2e/ton-setup.ts): the
 *   TVM emulator with the customer's wallet funded. Its start error goes to the live TON spec only.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const mock = await startMarketMock({ port: e2eMarketMock().port });
  const ton = await startE2eTon();
  const [litecoind, tron, solana, monero, ready] = await Promise.all([startNode(), startTron(), startE2eSolana(), startE2eMonero(), firstRefresh(mock).then(() => null, (e: unknown) => e)]);
  const teardown = async () => {
    await Promise.all([litecoind?.stop(), tron?.stop(), solana?.close(), monero?.(), mock.close()]);
  };
  if (ready !== null) {
    await teardown();
    await ton?.stop();
    throw ready;
  }
  return async () => {
    await teardown();
    await ton?.stop();
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits for the server's first complete refresh from the mock: every provider answered a whole
 * round (Kraken and CoinGecko make two calls each), then the next round began. The server runs
 * one refresh at a time and stores its answers before the next can start, so by then the rates
 * are in the database.
 */
async function firstRefresh(mock: MarketMock): Promise<void> {
  const deadline = Date.now() + 6 * E2E_RATE_REFRESH_SECONDS * 1000;
  const { answered, requests } = mock;
  while (!(answered.kraken >= 2 && answered.coinbase >= 1 && answered.coingecko >= 2)) {
    if (Date.now() > deadline) throw new Error(`[e2e] the server asked the market mock for no complete round of rates: ${JSON.stringify({ requests, answered })}`);
    await sleep(100);
  }
  const seen = requests.coinbase;
  while (requests.coinbase === seen && Date.now() < deadline) await sleep(100);
}

async function startNode(): Promise<Litecoind | undefined> {
  const node = e2eLitecoinNode();
  if (!node) return undefined;
  let litecoind: Litecoind | undefined;
  try {
    litecoind = await startLitecoind({ rpcPort: node.rpcPort, user: node.user, password: node.password });
    await litecoind.rpc.call("createwallet", ["miner"]);
    await litecoind.rpc.call("generatetoaddress", [101, await litecoind.wallet("miner").call<string>("getnewaddress")]);
    return litecoind;
  } catch (err) {
    await litecoind?.stop();
    process.env[LITECOIN_START_ERROR_ENV] = (err as Error).message;
    console.error(`[e2e] litecoind on 127.0.0.1:${node.rpcPort} did not start: ${(err as Error).message}`);
    return undefined;
  }
}

async function startTron(): Promise<TronNode | undefined> {
  const { port } = e2eTronNode();
  try {
    const payer = TronWeb.address.fromPrivateKey(E2E_TRON_PAYER_KEY) as string;
    return await startTronNode({
      network: "nile",
      port,
      accounts: [{ privateKey: E2E_TRON_PAYER_KEY, sun: 1_000_000_000n /* 1 000 TRX for fees */ }],
      tokens: [{ address: E2E_TRON_USDT, symbol: "USDT", decimals: 6, name: "Tether USD", balances: { [payer]: 1_000_000_000_000n /* 1 000 000 USDT */ } }],
      autoMineMs: E2E_TRON_BLOCK_MS,
    });
  } catch (err) {
    process.env[TRON_START_ERROR_ENV] = (err as Error).message;
    console.error(`[e2e] the fake TRON node on 127.0.0.1:${port} did not start: ${(err as Error).message}`);
    return undefined;
  }
}
