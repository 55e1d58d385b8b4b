import { expect, test, type APIRequestContext } from "@playwright/test";
import { z } from "zod";
import { moneroRpc } from "@/lib/chains/monero/rpc";
import { adminAuth, createPayment, fetchPayment, newBusiness, snap } from "./helpers";
import { e2eMoneroNodes, MONERO_MERCHANT_ENV, MONERO_START_ERROR_ENV } from "./monero-node";
import { expectPaidOnChainWebhooks, startReceiver, type Receiver } from "./webhook-receiver";

/**
 * A customer pays a LIVE checkout in Monero: the production server follows a regtest monerod and
 * makes the business's view-only wallet in a monero-wallet-rpc (e2e/monero-setup.ts); the
 * business gives its primary address and private view key; the customer picks Monero and a second
 * wallet pays the `monero:` URI the page shows. The page and the merchant's webhooks follow the
 * payment from the pool (0 of 10) to MONERO's 10 confirmations. Chains are followed every 5 s.
 */

const nodes = e2eMoneroNodes();
const CI = process.env.CI === "true";

test.skip(!nodes && !CI, "monero is not installed (apt-get install monero; .ci/run installs it): the live Monero flow needs a regtest monerod");

type ChainHealth = { chain: string; state: string; network: string | null; coins: string[] };

async function moneroHealth(request: APIRequestContext): Promise<ChainHealth> {
  const res = await request.get("/admin/v1/chains", { headers: adminAuth });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data as ChainHealth[]).find((c) => c.chain === "MONERO")!;
}

let receiver: Receiver;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver?.close();
});

test("a customer picks Monero on a live checkout and pays the monero: URI from a second wallet: pool, 10 confirmations, completed, every webhook signed", async ({ page, request }) => {
  test.setTimeout(600_000);
  if (!nodes) throw new Error("CI=true but monero is not installed: .ci/run installs it (apt-get install monero)");
  const startError = process.env[MONERO_START_ERROR_ENV];
  if (startError) throw new Error(`the e2e Monero nodes did not start (e2e/monero-setup.ts): ${startError}`);
  const merchant = JSON.parse(process.env[MONERO_MERCHANT_ENV]!) as { primaryAddress: string; privateViewKey: string; restoreHeight: number };
  const daemon = moneroRpc(nodes.daemonUrl, { timeoutMs: 300_000 });
  const spender = moneroRpc(nodes.spenderUrl, { timeoutMs: 120_000 });
  const { address: spenderAddress } = await spender.call("get_address", { account_index: 0 }, z.object({ address: z.string() }));
  const mine = (n: number) => daemon.call("generateblocks", { amount_of_blocks: n, wallet_address: spenderAddress }, z.object({ height: z.number() }));

  await expect
    .poll(async () => (await moneroHealth(request)).state, { timeout: 60_000, intervals: [1000], message: "MONERO becomes healthy" })
    .toBe("healthy");
  expect(await moneroHealth(request)).toMatchObject({ network: "regtest", coins: ["MONERO"] });

  const b = await newBusiness(request, { name: "Live Monero shop", mode: "live", enabledCoins: ["MONERO"], webhookUrl: receiver.url });
  const set = await request.put(`/admin/v1/businesses/${b.businessId}/monero-wallet`, { headers: adminAuth, data: merchant });
  expect(set.status(), await set.text()).toBe(200);
  expect((await set.json()).data.note).toMatch(/cannot spend/);
  const { id, url } = await createPayment(request, b, { currency: "USD", amount: 12.5, name: "Regtest hoodie", metadata: { orderId: "XMR-1" } });

  // The customer picks Monero, the one coin offered.
  await page.goto(url);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "AWAITING_PAYMENT");
  await page.getByRole("button", { name: /^Monero XMR/ }).click();
  // The business's first Monero payment makes its view-only wallet (generate_from_keys scans from the restore height): seconds, a minute on a loaded machine.
  await expect(page.getByTestId("deposit-address")).toBeVisible({ timeout: 120_000 });

  // What the page asks for, read from the page: a subaddress of the merchant's wallet, the amount, the URI.
  const address = (await page.getByTestId("deposit-address").textContent())!.trim();
  const shown = (await page.getByTestId("coin-amount").textContent())!.trim();
  const amount = /^(\d+\.\d{1,12}) XMR$/.exec(shown)?.[1];
  expect(amount, `the amount shown: ${shown}`).toBeDefined();
  expect(address).toMatch(/^8[1-9A-HJ-NP-Za-km-z]{94}$/);
  const href = await page.getByRole("link", { name: "Open in wallet" }).getAttribute("href");
  expect(href).toBe(`monero:${address}?tx_amount=${amount}&recipient_name=Live%20Monero%20shop&tx_description=Regtest%20hoodie`);
  await expect(page.getByTestId("payment-qr")).toBeVisible();
  await snap(page, "live-monero", "awaiting-payment");

  // The customer's wallet reads the URI and pays exactly that.
  const uri = await spender.call("parse_uri", { uri: href }, z.object({ uri: z.object({ address: z.string(), amount: z.union([z.number(), z.bigint()]), recipient_name: z.string() }) }));
  expect(uri.uri).toMatchObject({ address, recipient_name: "Live Monero shop" });
  const { tx_hash: txid } = await spender.call("transfer", { destinations: [{ amount: Number(uri.uri.amount), address: uri.uri.address }], priority: 0 }, z.object({ tx_hash: z.string() }));

  // Seen in the pool: PENDING, 0 of 10.
  const status = page.getByTestId("payment-status");
  await expect(status).toHaveAttribute("data-status", "PENDING", { timeout: 90_000 });
  await expect(page.getByTestId("confirmations")).toHaveText("0 of 10");
  await snap(page, "live-monero", "pending-pool");

  // Ten blocks: MONERO's 10 confirmations, completed.
  await mine(10);
  await expect(status).toHaveAttribute("data-status", "COMPLETED", { timeout: 120_000 });
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  await snap(page, "live-monero", "completed");
  expect((await fetchPayment(request, b, id)).status).toBe("COMPLETED");

  const got = await expectPaidOnChainWebhooks(receiver, b, id, { orderId: "XMR-1" });
  const charge = got[4].event.ForPaymentEvents.PlatformCryptoCharge;
  expect(charge).toMatchObject({ CoinName: "MONERO", Address: address, IsUnderpaid: false });
  expect(charge.Transaction).toMatchObject({ ToAddress: address });
  expect(charge.Transaction.Id).toBe(txid);
  expect(Number(charge.Transaction.Amount)).toBe(Number(amount));
  expect(charge.Transaction.Confirmations).toBeGreaterThanOrEqual(10);
});
