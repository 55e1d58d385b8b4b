import { sha256 } from "@noble/hashes/sha2.js";
import { createBase58check } from "@scure/base";
import { z } from "zod";
import { TOKEN_CONTRACTS, TRC20_CONTRACTS, type Erc20Coin, type Trc20Coin } from "@/domain/token-contracts";

const base58check = createBase58check(sha256);

/** A TRON address in base58check: 21 bytes, the first 0x41 (mainnet and test networks alike). */
export function isTronAddress(text: string): boolean {
  try {
    const bytes = base58check.decode(text);
    return bytes.length === 21 && bytes[0] === 0x41;
  } catch {
    return false;
  }
}

const isEvmAddress = (text: string) => /^0x[0-9a-fA-F]{40}$/.test(text);

/**
 * A JSON object of token coin id → contract address, replacing the built-in mainnet contracts
 * (for a test network, or a token that moved): ETHEREUM_TOKEN_CONTRACTS with 0x addresses of
 * ERC-20 coins, TRON_TOKEN_CONTRACTS with base58 addresses of TRC-20 coins, and Solana's mints and
 * TON's jetton masters (lib/config/solana.ts, ton.ts) in their chains' own address forms.
 */
export function contractsOf<C extends string>(
  builtIn: Record<C, string>,
  kind: { family: string; example: string; valid: (a: string) => boolean; what: string },
  text: string | undefined,
  ctx: z.RefinementCtx,
): Partial<Record<C, string>> {
  if (text === undefined) return {};
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(`must be a JSON object such as ${kind.example}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return fail(`must be a JSON object such as ${kind.example}`);
  const out: Partial<Record<C, string>> = {};
  for (const [coin, address] of Object.entries(parsed)) {
    if (!Object.hasOwn(builtIn, coin)) return fail(`${coin} is not ${kind.family} coin; use one of ${Object.keys(builtIn).join(", ")}`);
    if (typeof address !== "string" || !kind.valid(address)) return fail(`${coin}: ${JSON.stringify(address)} is not ${kind.what}`);
    out[coin as C] = address;
  }
  return out;
}

export const TOKEN_CONTRACTS_ENV = {
  ETHEREUM_TOKEN_CONTRACTS: blankIsUnset(z.string()).transform((text, ctx) =>
    contractsOf<Erc20Coin>(TOKEN_CONTRACTS, { family: "an ERC-20", example: `{"ETH_TETHER":"0x…"}`, valid: isEvmAddress, what: "a 0x-prefixed 20-byte contract address" }, text, ctx),
  ),
  TRON_TOKEN_CONTRACTS: blankIsUnset(z.string()).transform((text, ctx) =>
    contractsOf<Trc20Coin>(TRC20_CONTRACTS, { family: "a TRC-20", example: `{"TRX_TETHER":"T…"}`, valid: isTronAddress, what: "a base58 TRON contract address (T…, with a valid checksum)" }, text, ctx),
  ),
};

/** An unset variable and an empty one mean the same. */
export function blankIsUnset<T extends z.ZodType<string>>(schema: T) {
  return z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
}
