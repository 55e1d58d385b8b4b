import { isAddress } from "@solana/kit";
import { z } from "zod";
import { SPL_MINTS, type SplCoin } from "@/domain/solana";

/**
 * SOLANA_TOKEN_MINTS: a JSON object of SPL coin id → mint address (base58, 32 bytes), replacing
 * the built-in mainnet mints (domain/solana.ts), e.g. Circle's devnet USDC for a devnet node.
 */
export const SOLANA_ENV = {
  // Any Solana JSON-RPC (an own node or a provider, its key in the URL); unset: Solana is not watched.
  SOLANA_RPC_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://api.mainnet-beta.solana.com or a provider's URL with its key" }).optional(),
  ),
  SOLANA_TOKEN_MINTS: z.preprocess((v) => (v === "" ? undefined : v), z.string().optional()).transform((text, ctx) => {
    if (text === undefined) return {};
    const example = `{"SOL_USD_COIN":"EPjF…"}`;
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
    const out: Partial<Record<SplCoin, string>> = {};
    for (const [coin, mint] of Object.entries(parsed)) {
      if (!Object.hasOwn(SPL_MINTS, coin)) return fail(`${coin} is not an SPL coin; use one of ${Object.keys(SPL_MINTS).join(", ")}`);
      if (typeof mint !== "string" || !isAddress(mint)) return fail(`${coin}: ${JSON.stringify(mint)} is not a base58 Solana address (32 bytes)`);
      out[coin as SplCoin] = mint;
    }
    return out;
  }),
};
