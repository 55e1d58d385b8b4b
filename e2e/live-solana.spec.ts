import { expect, test, type APIRequestContext } from "@playwright/test";
import { createKeyPairSignerFromPrivateKeyBytes, generateKeyPairSigner, isAddress } from "@solana/kit";
import { parseTransferRequest, SolanaWallet } from "../test/chains/nodes/solana-wallet";
import { adminAuth, createPayment, fetchPayment, newBusiness, snap } from "./helpers";
import { E2E_SOLANA_PAYER_SEED, E2E_SOLANA_USDC, e2eSolanaNode, SOLANA_START_ERROR_ENV } from "./solana-node";
import { expectVerified, startReceiver, type Receiver } from "./webhook-receiver";

/**
 * A customer pays a LIVE checkout in USDC on Solana with a Solana Pay transfer request: the
 * production server follows a fake Solana node over JSON-RPC (SOLANA_RPC_URL; LiteSVM running the
 * real System and SPL Token programs, started by e2e/global-setup.ts with devnet's genesis and
 * USDC at a fixed mint), a live business gives its wallet's public key, and the checkout shows the
 * transfer request as a wallet link and QR code. The customer's wallet reads the request from the
 * page's link, builds the transferChecked to the merchant's token account (made in the same
 * transaction, with compute-budget instructions around it, as wallets add) carrying the
 * reference, signs it with @solana/kit and sends it over JSON-RPC. Finalized is final: the page
 * and the signed webhooks go to COMPLETED at the watcher's next tick (every 5 s).
 */

const node = e2eSolanaNode();

type ChainHealth = { chain: string; state: string; network: string | null; networkName: string | null; coins: string[] };

async function solanaHealth(request: APIRequestContext): Promise<ChainHealth> {
  const res = await request.get("/admin/v1/chains", { headers: adminAuth });
  return ((await res.json()).data as ChainHealth[]).find((c) => c.chain === "SOLANA")!;
}

let receiver: Receiver;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver?.close();
});

test("a customer's wallet pays a live checkout's Solana Pay transfer request in USDC: finalized, completed, every webhook signed", async ({ page, request }) => {
  test.setTimeout(90_000);
  const startError = process.env[SOLANA_START_ERROR_ENV];
  if (startError) throw new Error(`the e2e Solana node did not start (e2e/global-setup.ts): ${startError}`);

  // The watcher identifies the node (devnet's genesis hash, the configured mint under the SPL Token program, 6 decimals).
  await expect.poll(async () => (await solanaHealth(request))?.state, { timeout: 30_000, intervals: [500], message: "Solana becomes healthy" }).toBe("healthy");
  expect(await solanaHealth(request)).toMatchObject({ network: "test", networkName: "devnet", coins: ["SOLANA", "SOL_USD_COIN"] });

  const merchant = (await generateKeyPairSigner()).address;
  const b = await newBusiness(request, { name: "Live Solana shop", mode: "live", solanaWallet: merchant, enabledCoins: ["SOLANA", "SOL_USD_COIN"], webhookUrl: receiver.url });
  const { id, url } = await createPayment(request, b, { currency: "USD", amount: 12.5, name: "Devnet mug", metadata: { orderId: "SOL-1" } });

  await page.goto(url);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "AWAITING_PAYMENT");
  await page.getByRole("button", { name: /USDC on Solana/ }).click();
  await expect(page.getByTestId("deposit-address")).toHaveText(merchant);
  await expect(page.getByTestId("token-contract")).toHaveText(E2E_SOLANA_USDC);
  await expect(page.getByTestId("transfer-request-note")).toBeVisible();

  // The transfer request, read from the page's wallet link (the QR code holds the same URI).
  const uri = (await page.getByRole("link", { name: "Open in wallet" }).getAttribute("href"))!;
  const shown = (await page.getByTestId("coin-amount").textContent())!.trim();
  const transfer = parseTransferRequest(uri, 6);
  expect(uri).toMatch(new RegExp(`^solana:${merchant}\\?amount=[0-9.]+&spl-token=${E2E_SOLANA_USDC}&reference=[1-9A-HJ-NP-Za-km-z]{32,44}&label=Live%20Solana%20shop&message=Devnet%20mug$`));
  expect(`${new URL(uri).searchParams.get("amount")} USDC`).toBe(shown);
  expect(isAddress(transfer.reference!)).toBe(true);
  await snap(page, "live-solana", "awaiting-payment");

  // The customer's wallet pays what the request says.
  const payer = new SolanaWallet(node.url, await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(Buffer.from(E2E_SOLANA_PAYER_SEED, "hex"))));
  const paidAt = Date.now();
  const signature = await payer.pay(transfer, { createRecipientAccount: true, guards: true });

  const status = page.getByTestId("payment-status");
  await expect(status).toHaveAttribute("data-status", "COMPLETED", { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  test.info().annotations.push({ type: "timing", description: `COMPLETED ${Date.now() - paidAt} ms after sendTransaction` });
  await snap(page, "live-solana", "completed");

  const paid = await fetchPayment(request, b, id);
  expect(paid.platformCryptoCharge).toMatchObject({ coinName: "SOL_USD_COIN", address: merchant, isUnderpaid: false });
  expect(paid.platformCryptoCharge.transaction).toMatchObject({ id: signature, network: "SOLANA", tokenName: "SOL_USD_COIN", toAddress: merchant, amount: Number(transfer.amount) / 1e6 });

  // The merchant's endpoint: finalized is final, so no PENDING between the coin's choice and PROCESSING; each event verified with svix.
  const sequence = ["PAYMENT_CREATED", "PAYMENT_METHOD_SELECTED", "PAYMENT_PROCESSING", "PAYMENT_COMPLETED"];
  await expect.poll(() => receiver.forPayment(id).map((r) => r.event.EventType), { timeout: 10_000, intervals: [250] }).toEqual(sequence);
  const got = receiver.forPayment(id);
  for (const r of got) {
    expectVerified(b.webhookSecret, r);
    expect(r.event.ForPaymentEvents.Metadata).toEqual({ orderId: "SOL-1" });
  }
  expect(got.at(-1)!.event.ForPaymentEvents.PlatformCryptoCharge.Transaction).toMatchObject({ Id: signature, Network: "SOLANA", ToAddress: merchant });
});
