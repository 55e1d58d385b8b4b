import { expect, test, type APIRequestContext } from "@playwright/test";
import { bitcoinRpc } from "@/lib/chains/bitcoin/rpc";
import { LITECOIN_REGTEST_TPUB } from "../test/chains/nodes/litecoind";
import { adminAuth, createPayment, fetchPayment, newBusiness, snap } from "./helpers";
import { e2eLitecoinNode, LITECOIN_START_ERROR_ENV } from "./litecoin-node";
import { expectPaidOnChainWebhooks, startReceiver, type Receiver } from "./webhook-receiver";

/**
 * A customer pays a LIVE checkout in Litecoin from a real node: the production server follows a
 * regtest litecoind (LITECOIN_RPC_URL, started by e2e/global-setup.ts), a live business with a
 * testnet-version key (tpub) derives an `rltc1…` deposit address, the node's wallet pays exactly
 * the amount the page shows, and the page and the merchant's webhooks follow the payment from the
 * mempool to LITECOIN's 2 confirmations. Chains are followed every 5 s, hence the long waits.
 */

const node = e2eLitecoinNode();
const CI = process.env.CI === "true";

test.skip(!node && !CI, "litecoind is not installed (apt-get install litecoind; .ci/run installs it): the live Litecoin flow needs a regtest node");

type ChainHealth = { chain: string; state: string; network: string | null; tip: number | null; cursor: number | null; coins: string[] };

async function litecoinHealth(request: APIRequestContext): Promise<ChainHealth> {
  const res = await request.get("/admin/v1/chains", { headers: adminAuth });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data as ChainHealth[]).find((c) => c.chain === "LITECOIN")!;
}

let receiver: Receiver;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver?.close();
});

test("a customer pays a live Litecoin checkout from a regtest node: mempool, 1 of 2, completed, every webhook signed", async ({ page, request }) => {
  if (!node) throw new Error("CI=true but litecoind is not installed: .ci/run installs it (apt-get install litecoind)");
  const startError = process.env[LITECOIN_START_ERROR_ENV];
  if (startError) throw new Error(`the e2e litecoind did not start (e2e/global-setup.ts): ${startError}`);
  const rpc = bitcoinRpc(node.url, { timeoutMs: 30_000 });
  const miner = bitcoinRpc(`${node.url}wallet/miner`, { timeoutMs: 30_000 });
  const mine = async () => rpc.call<string[]>("generatetoaddress", [1, await miner.call<string>("getnewaddress")]);

  // The watcher's first tick starts at the node's tip; until then the chain is not healthy and a
  // live business cannot offer its coin.
  await expect
    .poll(async () => (await litecoinHealth(request)).state, { timeout: 30_000, intervals: [500], message: "LITECOIN becomes healthy" })
    .toBe("healthy");
  expect(await litecoinHealth(request)).toMatchObject({ network: "regtest", coins: ["LITECOIN"] });

  const b = await newBusiness(request, {
    name: "Live Litecoin shop",
    mode: "live",
    extendedPublicKeys: { LITECOIN: LITECOIN_REGTEST_TPUB },
    enabledCoins: ["LITECOIN"],
    webhookUrl: receiver.url,
  });
  const { id, url } = await createPayment(request, b, { currency: "USD", amount: 23.45, name: "Regtest sticker pack", metadata: { orderId: "LTC-1" } });

  // The customer: Litecoin is the one coin offered.
  await page.goto(url);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "AWAITING_PAYMENT");
  await expect(page.getByTestId("test-mode-panel")).toHaveCount(0);
  const coins = page.getByRole("list", { name: "Cryptocurrencies you can pay with" }).getByRole("button");
  await expect(coins).toHaveCount(1);
  await page.getByRole("button", { name: /^Litecoin LTC/ }).click();
  await expect(page.getByTestId("deposit-address")).toBeVisible();

  // What the page asks for, read from the page.
  const address = (await page.getByTestId("deposit-address").textContent())!.trim();
  const shown = (await page.getByTestId("coin-amount").textContent())!.trim();
  const amount = /^(\d+\.\d{1,8}) LTC$/.exec(shown)?.[1];
  expect(amount, `the amount shown: ${shown}`).toBeDefined();
  expect(address).toMatch(/^rltc1q[02-9ac-hj-np-z]{38}$/);
  await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveAttribute("href", `litecoin:${address}?amount=${amount}`);
  expect(await rpc.call<{ isvalid: boolean }>("validateaddress", [address])).toMatchObject({ isvalid: true });
  await snap(page, "live-litecoin", "awaiting-payment");

  // The customer's wallet pays exactly that.
  const txid = await miner.call<string>("sendtoaddress", [address, amount]);

  // Seen in the mempool: PENDING, 0 of 2.
  const status = page.getByTestId("payment-status");
  await expect(status).toHaveAttribute("data-status", "PENDING", { timeout: 15_000 });
  await expect(status).toContainText("Payment detected");
  await expect(status).toContainText("0 of 2 confirmations");
  await expect(page.getByTestId("confirmations")).toHaveText("0 of 2");
  await expect(page.getByRole("button", { name: "Cancel payment" })).toHaveCount(0);
  await snap(page, "live-litecoin", "pending-mempool");

  // One block: 1 of 2, still PENDING.
  const [first] = await mine();
  await expect(page.getByTestId("confirmations")).toHaveText("1 of 2", { timeout: 15_000 });
  await expect(status).toHaveAttribute("data-status", "PENDING");
  await expect(status).toContainText("1 of 2 confirmations");
  await snap(page, "live-litecoin", "pending-1-of-2");

  // The second: LITECOIN's 2 confirmations, completed.
  await mine();
  await expect(status).toHaveAttribute("data-status", "COMPLETED", { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  await snap(page, "live-litecoin", "completed");

  const paid = await fetchPayment(request, b, id);
  expect(paid.status).toBe("COMPLETED");

  // The merchant's endpoint: the five events in order, each verified with svix.
  const got = await expectPaidOnChainWebhooks(receiver, b, id, { orderId: "LTC-1" });
  const charge = got[4].event.ForPaymentEvents.PlatformCryptoCharge;
  expect(charge).toMatchObject({ CoinName: "LITECOIN", Address: address, IsUnderpaid: false });
  expect(charge.Transaction).toMatchObject({ ToAddress: address, Network: "LTC" });
  expect(Number(charge.Transaction.Amount)).toBe(Number(amount));
  expect(charge.Transaction.Id).toBe(txid); // the transaction hash, as an explorer finds it
  expect(charge.Transaction.Confirmations).toBeGreaterThanOrEqual(2);
  const block = await rpc.call<{ height: number }>("getblock", [first]);
  expect(String(charge.Transaction.BlockNumber)).toBe(String(block.height));
});
