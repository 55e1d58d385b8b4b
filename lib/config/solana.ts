import { isAddress } from "@solana/kit";
import { z } from "zod";
import { SPL_MINTS, type SplCoin } from "@/domain/solana";
import { blankIsUnset, contractsOf } from "./token-contracts";

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
  SOLANA_TOKEN_MINTS: blankIsUnset(z.string()).transform((text, ctx) =>
    contractsOf<SplCoin>(SPL_MINTS, { family: "an SPL", example: `{"SOL_USD_COIN":"EPjF…"}`, valid: isAddress, what: "a base58 Solana address (32 bytes)" }, text, ctx),
  ),
};
