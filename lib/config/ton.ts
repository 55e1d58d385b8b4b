import { Address } from "@ton/core";
import { z } from "zod";
import { TON_JETTON_MASTERS, type JettonCoin } from "@/domain/ton";

/**
 * TON_API_URL: a toncenter-compatible HTTP API (v2 getTransactions, runGetMethod,
 * getMasterchainInfo; v3 jetton/transfers), toncenter.com itself, a provider, or toncenter's
 * open-source server in front of an own node. TON_API_KEY is sent as X-API-Key.
 * TON_JETTON_MASTERS: a JSON object of jetton coin id → jetton master address, replacing the
 * built-in mainnet masters (domain/ton.ts), e.g. a testnet USDT for a testnet API.
 */
export const TON_ENV = {
  TON_API_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL of a toncenter-compatible API, such as https://toncenter.com" }).optional(),
  ),
  TON_API_KEY: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()),
  TON_JETTON_MASTERS: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()).transform((text, ctx) => {
    if (text === undefined) return {};
    const example = `{"TON_TETHER":"EQCx…"}`;
    const fail = (message: string) => {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return fail(`must be a JSON object such as ${example}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return fail(`must be a JSON object such as ${example}`);
    const out: Partial<Record<JettonCoin, string>> = {};
    for (const [coin, master] of Object.entries(parsed)) {
      if (!Object.hasOwn(TON_JETTON_MASTERS, coin)) return fail(`${coin} is not a TON jetton coin; use one of ${Object.keys(TON_JETTON_MASTERS).join(", ")}`);
      if (typeof master !== "string" || !Address.isAddress(safeParse(master))) return fail(`${coin}: ${JSON.stringify(master)} is not a TON address`);
      out[coin as JettonCoin] = master;
    }
    return out;
  }),
};

/** TON_JETTON_MASTERS (masters replacing the built-in mainnet ones) and TON_API_KEY; TON_API_URL is `rpcUrls.TON`. */
export type TonChainConfig = { jettonMasters: Partial<Record<JettonCoin, string>>; apiKey: string | undefined };

function safeParse(text: string): Address | null {
  try {
    return Address.parse(text);
  } catch {
    return null;
  }
}
