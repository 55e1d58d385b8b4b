import { expect, test, type APIRequestContext } from "@playwright/test";
import { Address, beginCell, external, internal, SendMode, storeMessage } from "@ton/core";
import { adminAuth, createPayment, fetchPayment, newBusiness, snap } from "./helpers";
import { E2E_TON_MERCHANT_RAW, e2eTonNode, TON_START_ERROR_ENV } from "./ton-node";
import { e2eTonPayer } from "./ton-setup";

/**
 * A customer pays a LIVE checkout in Toncoin: the production server follows a fake toncenter
 * (TON_API_URL; the TVM emulator behind toncenter v2, started by e2e/global-setup.ts), a live
 * business gives its wallet's address, and the checkout shows a ton://transfer link and QR code,
 * the comment with a copy button and the warning that it is required. The customer's v4 wallet
 * reads the page's link, signs a transfer of that amount with that comment, and sends it over
 * the API's sendBoc. TON is final after one masterchain block: the page goes to COMPLETED at the
 * watcher's next tick (every 5 s).
 */

const node = e2eTonNode();

type ChainHealth = { chain: string; state: string; network: string | null; networkName: string | null; coins: string[] };

async function tonHealth(request: APIRequestContext): Promise<ChainHealth> {
  const res = await request.get("/admin/v1/chains", { headers: adminAuth });
  return ((await res.json()).data as ChainHealth[]).find((c) => c.chain === "TON")!;
}

async function api<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${node.url}/api/v2/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as { ok: boolean; result: T; error?: string };
  if (!json.ok) throw new Error(`${path}: ${json.error}`);
  return json.result;
}

test("a customer's wallet pays a live checkout's ton://transfer link with its comment: completed at the next tick", async ({ page, request }) => {
  test.setTimeout(90_000);
  const startError = process.env[TON_START_ERROR_ENV];
  if (startError) throw new Error(`the e2e toncenter did not start (e2e/global-setup.ts): ${startError}`);

  await expect.poll(async () => (await tonHealth(request))?.state, { timeout: 30_000, intervals: [500], message: "TON becomes healthy" }).toBe("healthy");
  expect(await tonHealth(request)).toMatchObject({ network: "regtest", networkName: "private", coins: ["TON"] });

  const merchant = Address.parseRaw(E2E_TON_MERCHANT_RAW);
  const shownAddress = merchant.toString({ bounceable: false });
  const b = await newBusiness(request, { name: "Live TON shop", mode: "live", tonWallet: merchant.toString({ bounceable: true }), enabledCoins: ["TON"] });
  const { id, url } = await createPayment(request, b, { currency: "USD", amount: 12.5, name: "TON mug" });

  await page.goto(url);
  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "AWAITING_PAYMENT");
  await page.getByRole("button", { name: /Toncoin/ }).click();
  await expect(page.getByTestId("deposit-address")).toHaveText(shownAddress);
  const comment = (await page.getByTestId("payment-comment").textContent())!.trim();
  expect(comment).toMatch(/^[2-9A-HJKMNP-Z]{10}$/);
  await expect(page.getByTestId("comment-required")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Copy comment/ })).toBeVisible();

  // The link, read from the page's wallet button (the QR code holds the same URI).
  const uri = (await page.getByRole("link", { name: "Open in wallet" }).getAttribute("href"))!;
  const shown = (await page.getByTestId("coin-amount").textContent())!.trim();
  expect(uri).toMatch(new RegExp(`^ton://transfer/${shownAddress}\\?amount=\\d+&text=${comment}$`));
  const link = new URL(uri);
  const nanotons = BigInt(link.searchParams.get("amount")!);
  const [whole, frac = ""] = shown.replace(/ TON$/, "").split(".");
  expect(nanotons).toBe(BigInt(whole + frac.padEnd(9, "0")));
  await snap(page, "live-ton", "awaiting-payment");

  // The customer's wallet pays what the link says: a signed external message to its v4 wallet, sent with sendBoc.
  const { wallet, secretKey } = e2eTonPayer();
  const seqno = Number(BigInt((await api<{ stack: [string, string][] }>("runGetMethod", { address: wallet.address.toString(), method: "seqno", stack: [] })).stack[0][1]));
  const transfer = wallet.createTransfer({ seqno, secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to: Address.parse(link.pathname.slice(1)), value: nanotons, bounce: false, body: link.searchParams.get("text")! })] });
  const boc = beginCell().store(storeMessage(external({ to: wallet.address, body: transfer }))).endCell().toBoc().toString("base64");
  const paidAt = Date.now();
  await api("sendBoc", { boc });

  await expect(page.getByTestId("payment-status")).toHaveAttribute("data-status", "COMPLETED", { timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  test.info().annotations.push({ type: "timing", description: `COMPLETED ${Date.now() - paidAt} ms after sendBoc` });
  await snap(page, "live-ton", "completed");

  const paid = await fetchPayment(request, b, id);
  expect(paid.platformCryptoCharge).toMatchObject({ coinName: "TON", address: shownAddress, isUnderpaid: false });
  expect(paid.platformCryptoCharge.transaction).toMatchObject({ confirmations: 1 });
  expect(paid.platformCryptoCharge.transaction.id).toMatch(/^[0-9a-f]{64}$/);
});
