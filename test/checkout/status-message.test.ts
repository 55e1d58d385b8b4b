import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { statusMessage } from "@/components/checkout/status-message";
import { LOCALES } from "@/domain/locales";
import { messagesOf } from "@/lib/checkout/locale";
import type { CheckoutView } from "@/lib/checkout/view";

type Charge = NonNullable<CheckoutView["charge"]>;

const charge: Charge = {
  coin: "MONERO",
  name: "Monero",
  symbol: "XMR",
  networkName: "Monero",
  standard: null,
  amount: "0.5",
  exchangeRate: "200",
  quotedAt: "2026-11-28T00:00:00.000Z",
  rateAt: null,
  address: "8Ab",
  uri: "monero:8Ab?tx_amount=0.5",
  transferRequest: false,
  tokenContract: null,
  comment: null,
  paid: "0.5",
  due: "0",
  isUnderpaid: false,
  confirmations: 0,
  requiredConfirmations: 10,
  held: false,
  transfers: 1,
  late: null,
};

const pendingView = (c: Charge) => ({ status: "PENDING", charge: c }) as CheckoutView;

async function statusText(locale: (typeof LOCALES)[number]) {
  return createTranslator({ locale, messages: await messagesOf(locale), namespace: "checkout.status" });
}

describe("the checkout's status message", () => {
  it("counts confirmations while the money can complete the payment", async () => {
    const m = statusMessage(pendingView({ ...charge, confirmations: 3 }), await statusText("en"));
    expect(m).toEqual({ tone: "info", title: "Payment detected", detail: "Waiting for confirmations: 3 of 10 confirmations." });
  });

  it("tells the customer, in every language, that money its sender locked is settled with the merchant, not counted up", async () => {
    const english = statusMessage(pendingView({ ...charge, held: true }), await statusText("en"));
    expect(english.tone).toBe("warning");
    expect(english.title).toMatch(/locked by its sender/);
    expect(english.detail).toMatch(/contact the merchant/);
    for (const locale of LOCALES) {
      const m = statusMessage(pendingView({ ...charge, held: true }), await statusText(locale));
      expect(m.tone).toBe("warning");
      if (locale !== "en") expect([m.title, m.detail]).not.toEqual([english.title, english.detail]);
    }
  });
});
