import { Address } from "@ton/core";
import { z } from "zod";
import { TON_JETTON_MASTERS, type JettonCoin } from "@/domain/ton";
import { blankIsUnset, contractsOf } from "./token-contracts";

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
  TON_JETTON_MASTERS: blankIsUnset(z.string()).transform((text, ctx) =>
    contractsOf<JettonCoin>(TON_JETTON_MASTERS, { family: "a TON jetton", example: `{"TON_TETHER":"EQCx…"}`, valid: (a) => safeParse(a) !== null, what: "a TON address" }, text, ctx),
  ),
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
