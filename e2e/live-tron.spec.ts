import { expect, test, type APIRequestContext } from "@playwright/test";
import { TronWeb, utils, type Types } from "tronweb";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { adminAuth, createPayment, fetchPayment, newBusiness, snap } from "./helpers";
import { E2E_TRON_PAYER_KEY, E2E_TRON_USDT, e2eTronNode, TRON_START_ERROR_ENV } from "./tron-node";
import { expectPaidOnChainWebhooks, startReceiver, type Receiver } from "./webhook-receiver";

/**
 * A customer pays a LIVE checkout in USDT on TRON: the production server follows a fake java-tron
 * node over its HTTP API (TRON_RPC_URL, started by e2e/global-setup.ts with Nile's genesis, USDT
 * at Nile's contract and a block a second), a live business with a TRON xpub derives a `T…`
 * deposit address, and the customer's wallet, as a real one does, builds and signs a TRC-20
 * transfer(address,uint256) offline with tronweb and broadcasts it over HTTP. The page and the
 * merchant's webhooks follow it from its block (PENDING) to its block's solidification (COMPLETED,
 * TRON's 19 confirmations). The watcher polls every 5 s; 19 blocks take ~19 s.
 */

const node = e2eTronNode();
const payer = TronWeb.address.fromPrivateKey(E2E_TRON_PAYER_KEY) as string;
const COINS = ["TRON", "CONTRACT_TRC20_TRX", "TRX_TETHER", "CONTRACT_TRC20_USDT"];

type ChainHealth = { chain: string; state: string; network: string | null; tip: number | null; coins: string[] };

async function tronHealth(request: APIRequestContext): Promise<ChainHealth> {
  const res = await request.get("/admin/v1/chains", { headers: adminAuth });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()).data as ChainHealth[]).find((c) => c.chain === "TRON")!;
}

/** A POST to the node's HTTP API, as a wallet talks to its node. */
async function nodeCall(path: string, body: object = {}): Promise<Record<string, any>> {
  const res = await fetch(node.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status, path).toBe(200);
  return (await res.json()) as Record<string, any>;
}

/**
 * The customer's wallet: transfer(to, units) on the USDT contract, built and signed offline by
 * tronweb on the node's newest block (TaPoS: that block's number and id), then POSTed to
 * /wallet/broadcasttransaction. The txID.
 */
async function payUsdt(to: string, units: bigint): Promise<string> {
  const head = await nodeCall("/wallet/getnowblock");
  const raw = head.block_header.raw_data as { number: number; timestamp: number };
  const blockHeader = {
    ref_block_bytes: raw.number.toString(16).padStart(16, "0").slice(12),
    ref_block_hash: (head.blockID as string).slice(16, 32),
    expiration: raw.timestamp + 3_600_000,
    timestamp: Date.now(),
  };
  // Offline: every field tronweb would ask a node for is given; port 9 (discard) makes any call it still made fail loudly.
  const tronWeb = new TronWeb({ fullHost: "http://127.0.0.1:9" });
  const params = [
    { type: "address", value: to },
    { type: "uint256", value: units.toString() },
  ];
  const built = await tronWeb.transactionBuilder.triggerSmartContract(E2E_TRON_USDT, "transfer(address,uint256)", { feeLimit: 100_000_000, txLocal: true, blockHeader }, params, payer);
  const signed = utils.crypto.signTransaction(E2E_TRON_PAYER_KEY, built.transaction) as Types.SignedTransaction;
  const reply = await nodeCall("/wallet/broadcasttransaction", signed);
  expect(reply, JSON.stringify(reply)).toMatchObject({ result: true, txid: signed.txID });
  return signed.txID;
}

/** Decimal USDT as the page shows it, in the token's units (6 decimals). */
function usdtUnits(amount: string): bigint {
  const [whole, fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(6, "0"));
}

let receiver: Receiver;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver?.close();
});

test("a customer pays a live checkout in USDT on TRON through the node's HTTP API: in a block, solidified, completed, every webhook signed", async ({ page, request }) => {
  test.setTimeout(90_000);
  const startError = process.env[TRON_START_ERROR_ENV];
  if (startError) throw new Error(`the e2e TRON node did not start (e2e/global-setup.ts): ${startError}`);

  // The watcher's first tick identifies the node (Nile's genesis, the contract's decimals()) and starts at its tip.
  await expect
    .poll(async () => (await tronHealth(request)).state, { timeout: 30_000, intervals: [500], message: "TRON becomes healthy" })
    .toBe("healthy");
  expect(await tronHealth(request)).toMatchObject({ network: "test", coins: COINS });

  const b = await newBusiness(request, {
    name: "Live TRON shop",
    mode: "live",
    extendedPublicKeys: { TRON: TEST_EXTENDED_PUBLIC_KEYS.TRON },
    enabledCoins: ["TRON", "TRX_TETHER"],
    webhookUrl: receiver.url,
  });
  const { id, url } = await createPayment(request, b, { currency: "USD", amount: 23.45, name: "Nile sticker pack", metadata: { orderId: "TRX-1" } });

  // The customer chooses USDT on TRON of the two coins offered.
  await page.goto(url);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "AWAITING_PAYMENT");
  await expect(page.getByTestId("test-mode-panel")).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Cryptocurrencies you can pay with" }).getByRole("button")).toHaveCount(2);
  await page.getByRole("button", { name: /^Tether USDT on TRON/ }).click();
  await expect(page.getByTestId("deposit-address")).toBeVisible();

  // What the page asks for, read from the page.
  const address = (await page.getByTestId("deposit-address").textContent())!.trim();
  const shown = (await page.getByTestId("coin-amount").textContent())!.trim();
  const amount = /^(\d+(?:\.\d{1,6})?) USDT$/.exec(shown)?.[1];
  expect(amount, `the amount shown: ${shown}`).toBeDefined();
  expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  expect(TronWeb.isAddress(address), `${address} is a TRON address (base58check, 0x41)`).toBe(true);
  await expect(page.getByTestId("token-contract")).toHaveText(E2E_TRON_USDT);
  // No payment URI is standard on TRON: the QR code holds the bare address, and there is no wallet link.
  await expect(page.getByRole("link", { name: "Open in wallet" })).toHaveCount(0);
  await snap(page, "live-tron", "awaiting-payment");

  // The customer's wallet pays exactly that.
  const paidAt = Date.now();
  const txid = await payUsdt(address, usdtUnits(amount!));

  // In a block: PENDING, below TRON's 19.
  const status = page.getByTestId("payment-status");
  await expect(status).toHaveAttribute("data-status", "PENDING", { timeout: 15_000 });
  await expect(status).toContainText("Payment detected");
  const confirmations = page.getByTestId("confirmations");
  await expect(confirmations).toHaveText(/^([1-9]|1[0-8]) of 19$/);
  await expect(page.getByRole("button", { name: "Cancel payment" })).toHaveCount(0);
  const pendingMs = Date.now() - paidAt;
  await snap(page, "live-tron", "pending");

  // Blocks built on it: the count rises with the depth, still PENDING and below 19 until its block is solidified.
  const shownCount = async () => Number(/^(\d+) of 19$/.exec((await confirmations.textContent()) ?? "")?.[1] ?? NaN);
  const first = await shownCount();
  await expect.poll(shownCount, { timeout: 15_000, message: "the confirmations rise" }).toBeGreaterThan(first);
  await expect(status).toHaveAttribute("data-status", "PENDING");
  expect(await shownCount()).toBeLessThanOrEqual(18);

  // Its block solidified (18 blocks on): COMPLETED.
  await expect(status).toHaveAttribute("data-status", "COMPLETED", { timeout: 45_000 });
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  const completedMs = Date.now() - paidAt;
  await snap(page, "live-tron", "completed");
  test.info().annotations.push({ type: "timing", description: `PENDING ${pendingMs} ms and COMPLETED ${completedMs} ms after the broadcast` });

  // The node's word: the transfer succeeded, in a block at or below the solidified one.
  const info = await nodeCall("/wallet/gettransactioninfobyid", { value: txid });
  expect(info.receipt?.result).toBe("SUCCESS");
  const solidified = Number(/^Num:(\d+),/.exec((await nodeCall("/wallet/getnodeinfo")).solidityBlock)?.[1]);
  expect(info.blockNumber).toBeLessThanOrEqual(solidified);
  const paid = await fetchPayment(request, b, id);
  expect(paid.status).toBe("COMPLETED");
  expect(paid.platformCryptoCharge).toMatchObject({ coinName: "TRX_TETHER", address, isUnderpaid: false });
  expect(paid.platformCryptoCharge.transaction).toMatchObject({
    id: txid, // the txID, as Tronscan finds it
    network: "TRON",
    tokenName: "TRX_TETHER",
    toAddress: address,
    amount: Number(amount),
    blockNumber: String(info.blockNumber),
  });
  expect(paid.platformCryptoCharge.transaction.confirmations).toBeGreaterThanOrEqual(19);

  // The merchant's endpoint: the five events in order, each verified with svix.
  const got = await expectPaidOnChainWebhooks(receiver, b, id, { orderId: "TRX-1" });
  const charge = got[4].event.ForPaymentEvents.PlatformCryptoCharge;
  expect(charge).toMatchObject({ CoinName: "TRX_TETHER", Address: address, IsUnderpaid: false });
  expect(charge.Transaction).toMatchObject({ Id: txid, ToAddress: address, Network: "TRON", TokenName: "TRX_TETHER", BlockNumber: String(info.blockNumber) });
  expect(Number(charge.Transaction.Amount)).toBe(Number(amount));
  expect(charge.Transaction.Confirmations).toBeGreaterThanOrEqual(19);
});
