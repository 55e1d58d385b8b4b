import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { ConfigError, loadConfig } from "@/lib/config";
import { checkoutView } from "@/lib/checkout/view";
import { adminToken, createPayment, json, newBusiness, request } from "../helpers";

const env = (values: Record<string, string>) => ({ DATA_DIR: ":memory:", ...values }) as unknown as NodeJS.ProcessEnv;

function problems(values: Record<string, string>): string {
  try {
    loadConfig(env(values));
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return String(e);
  }
  throw new Error("the configuration was accepted");
}

describe("customer e-mail settings", () => {
  it("reads SMTP_URL, MAIL_FROM and the explorers, and refuses what cannot work", () => {
    const none = loadConfig(env({ PUBLIC_BASE_URL: "https://pay.example.com" }));
    expect(none.mail).toEqual({ smtpUrl: undefined, from: "no-reply@pay.example.com", explorerTxUrls: {} });
    const set = loadConfig(
      env({
        SMTP_URL: "smtps://user:secret@mail.example.com:465",
        MAIL_FROM: "Shop <receipts@shop.example>",
        EXPLORER_TX_URL_BITCOIN: "https://mempool.space/tx/{txid}",
        EXPLORER_TX_URL_ETHEREUM: "",
      }),
    );
    expect(set.mail).toEqual({
      smtpUrl: "smtps://user:secret@mail.example.com:465",
      from: "Shop <receipts@shop.example>",
      explorerTxUrls: { BITCOIN: "https://mempool.space/tx/{txid}" },
    });
    expect(problems({ SMTP_URL: "http://mail.example.com" })).toMatch(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(problems({ MAIL_FROM: "not an address" })).toMatch(/MAIL_FROM: must be an address/);
    expect(problems({ EXPLORER_TX_URL_TRON: "https://tronscan.org/#/transaction/" })).toMatch(/EXPLORER_TX_URL_TRON: must contain \{txid\}/);
  });

  it("a business sends every kind by default; the admin API switches kinds and refuses an incomplete object", async () => {
    const auth = { key: adminToken() };
    const created = await json(await request("POST", "/admin/v1/businesses", { ...auth, body: { name: "Mail shop" } }));
    expect(created.data.emailNotifications).toEqual({ receipt: true, detected: true, underpaid: true, expired: true });
    const id = created.data.businessId;
    const patched = await json(
      await request("PATCH", `/admin/v1/businesses/${id}`, { ...auth, body: { emailNotifications: { receipt: true, detected: false, underpaid: false, expired: true } } }),
    );
    expect(patched.data.emailNotifications).toEqual({ receipt: true, detected: false, underpaid: false, expired: true });
    const refused = await request("PATCH", `/admin/v1/businesses/${id}`, { ...auth, body: { emailNotifications: { receipt: false } } });
    expect(refused.status).toBe(400);
    expect(Object.keys((await json(refused)).errors)).toEqual(expect.arrayContaining(["emailNotifications.detected"]));
  });

  it("without SMTP_URL the checkout's e-mail field promises no receipt", async () => {
    const b = await newBusiness();
    const { id } = await createPayment(b);
    const view = await checkoutView(await getDb(), id);
    expect(view?.needsEmail).toBe(true);
    expect(view?.sendsReceipt).toBe(false);
  });
});
