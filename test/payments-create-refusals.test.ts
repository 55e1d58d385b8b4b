import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { expectProblem, newBusiness, paymentsPath, request } from "./helpers";

/**
 * A create refused for want of a coin says which coins were left out and why: the node that is
 * not configured, the key that is missing, the coin that is not enabled. Through the API,
 * against the real database.
 */

const urls = config().chains.rpcUrls;
const configured = { ...urls };
afterEach(() => {
  Object.assign(urls, configured);
});

async function refusal(b: { businessId: number; apiKey: string }, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await request("POST", paymentsPath(b.businessId), { key: b.apiKey, body: { currency: "USD", amount: 10, ...extra } });
  const problem = await expectProblem(res, 400, ["paymentMethods"]);
  expect(problem.errors.paymentMethods).toHaveLength(1);
  return problem.errors.paymentMethods[0];
}

describe("a refused create names the real reason", () => {
  let bitcoinOnly: Awaited<ReturnType<typeof newBusiness>>;
  beforeAll(async () => {
    bitcoinOnly = await newBusiness({ mode: "live", enabledCoins: ["BITCOIN"], extendedPublicKeys: { BITCOIN: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN } });
  });

  it("a live business with BITCOIN and its key, on a service with no Bitcoin node", async () => {
    delete urls.BITCOIN;
    expect(await refusal(bitcoinOnly)).toBe("none of this business's enabled coins can be offered: BITCOIN: no Bitcoin node is configured (BITCOIN_RPC_URL)");
  });

  it("every enabled coin with its reason, coins with the same reason together", async () => {
    delete urls.BITCOIN;
    delete urls.ETHEREUM;
    const b = await newBusiness({
      mode: "live",
      enabledCoins: ["BITCOIN", "LITECOIN", "ETHEREUM", "ETH_TETHER"],
      extendedPublicKeys: { BITCOIN: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN, ETHEREUM: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM },
    });
    const message = await refusal(b);
    expect(message).toContain("BITCOIN: no Bitcoin node is configured (BITCOIN_RPC_URL)");
    expect(message).toContain("LITECOIN: no extended public key (extendedPublicKeys.LITECOIN)");
    expect(message).toContain("ETHEREUM, ETH_TETHER: no Ethereum node is configured (ETHEREUM_RPC_URL)");
  });

  it("requested coins that are not enabled, or cannot be offered, each say so", async () => {
    const b = await newBusiness({ mode: "live", enabledCoins: ["BITCOIN", "LITECOIN"], extendedPublicKeys: { BITCOIN: TEST_EXTENDED_PUBLIC_KEYS.BITCOIN } });
    const message = await refusal(b, { paymentMethods: { PLATFORM_CRYPTO: ["ETHEREUM", "LITECOIN"] } });
    expect(message).toBe(
      "none of the requested coins can be offered: ETHEREUM: not enabled for this business (enabledCoins); LITECOIN: no extended public key (extendedPublicKeys.LITECOIN)",
    );
    const test = await newBusiness({ mode: "test", enabledCoins: ["BITCOIN"] });
    expect(await refusal(test, { paymentMethods: { PLATFORM_CRYPTO: ["TRON"] } })).toMatch(/TRON: not enabled for this business/);
    expect(await refusal(test, { paymentMethods: {} })).toMatch(/names no coin/);
  });

  it("a coin with what it needs is offered as before", async () => {
    const res = await request("POST", paymentsPath(bitcoinOnly.businessId), { key: bitcoinOnly.apiKey, body: { currency: "USD", amount: 10 } });
    expect(res.status).toBe(200);
  });
});
