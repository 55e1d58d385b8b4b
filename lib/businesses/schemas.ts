import { z } from "zod";
import { urlField } from "@/lib/http/url-field";
import { KEY_FAMILIES, networkOfFamily, validateExtendedPublicKey, type ChainNet, type KeyFamily } from "@/lib/wallets/derive";
import { COIN_NAMES, type CoinName } from "@/domain/coins";
import { defaultEnabledCoins, servableCoins } from "@/domain/watched-chains";
import { LIVE_URL_RULE, URL_RULE, URL_SCHEME_PATTERN } from "@/lib/http/rules";
import { accentColorProblem, MAX_LOGO_BYTES } from "@/domain/brand";
import { solanaAddressProblem } from "@/lib/wallets/solana";
import { tonAddressProblem } from "@/lib/wallets/ton";


/** Why `key` cannot derive `family`'s addresses on `net`, or null when it can. */
export function keyProblem(family: KeyFamily, key: string, net: ChainNet): string | null {
  try {
    validateExtendedPublicKey(networkOfFamily(family), key, family, net);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Account-level extended public keys per key family (live businesses' deposit-address source).
 * Each is checked for the right network and script type; an empty string removes one.
 */
const ExtendedPublicKeysSchema = z
  .strictObject(
    Object.fromEntries(KEY_FAMILIES.map((f) => [f, z.string().max(200).optional()])) as Record<
      KeyFamily,
      z.ZodOptional<z.ZodString>
    >,
  )
  .superRefine((keys, ctx) => {
    for (const [family, key] of Object.entries(keys) as [KeyFamily, string | undefined][]) {
      if (!key) continue;
      // Which network the key must be for is the node's (checked with the node's answer when
      // saved, lib/businesses/businesses.ts): here it must be a valid key of either kind.
      const problem = keyProblem(family, key, "main");
      if (problem && keyProblem(family, key, "test")) ctx.addIssue({ code: "custom", path: [family], message: problem });
    }
  })
  .meta({
    id: "ExtendedPublicKeys",
    description:
      "Account extended public keys (xpub/zpub) by family: BITCOIN (m/84'/0'/0'), BITCOIN_CASH (m/44'/145'/0'), LITECOIN (m/84'/2'/0'), ETHEREUM (m/44'/60'/0', also ERC-20), TRON (m/44'/195'/0', also TRC-20). Deposit addresses are derived from them; the service never holds private keys. Each key is at most 200 characters and must be a valid extended public key of its family's script type for the network its chain's node serves: mainnet keys (xpub/zpub) for a mainnet node, testnet keys (tpub/vpub) for a test network or regtest, as Bitcoin Core and Litecoin Core export them (400 naming the family otherwise). An empty string removes that family's key; keys not named keep their value. A `live` business offers only the coins whose family has a key and whose chain's node is configured and healthy.",
  });

/** The create body of docs/operations.md: accepted as is (test mode). */
export const CREATE_BUSINESS_EXAMPLE = {
  name: "Shop",
  webhookUrl: "https://shop.example.com/hooks/payments",
  enabledCoins: ["BITCOIN", "ETHEREUM", "ETH_TETHER"],
  feePercent: 1.5,
};

/**
 * The largest create or PATCH body of a business (512 KiB): one that carries a logo of at most
 * 256 KB in base64 (~342 KiB) with every other setting. Other bodies keep the 64 KiB limit.
 */
export const MAX_BUSINESS_BODY_BYTES = 512 * 1024;

/** The base64 length of the largest logo (4 characters per 3 bytes, padded). */
const MAX_LOGO_BASE64 = Math.ceil(MAX_LOGO_BYTES / 3) * 4;

/** The checkout brand: who the customer pays, as they will recognise it (lib/businesses/brand.ts). */
const brand = {
  displayName: z
    .string()
    .max(200, "must be at most 200 characters")
    .trim()
    .nullable()
    .meta({
      description:
        "The name customers see on the checkout and in its page title (\"Pay <displayName>\"): at most 200 characters, surrounding whitespace trimmed. `null` or an empty string shows `name` instead.",
      examples: ["Corner Coffee Roasters"],
    }),
  accentColor: z
    .string()
    .superRefine((v, ctx) => {
      const problem = accentColorProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .meta({ pattern: "^#[0-9a-fA-F]{6}$" })
    .nullable()
    .meta({
      description:
        "The checkout's accent colour (its main button and highlights) as `#RRGGBB`, stored in lower case. The button's text is white, so the colour must contrast with white at least 4.5:1 (WCAG AA): a lighter colour is a 400 that gives the ratio. `null` restores the default.",
      examples: ["#1d4ed8"],
    }),
  logo: z
    .base64("must be the image's bytes in base64")
    .max(MAX_LOGO_BASE64, `must be at most 256 KB of image (${MAX_LOGO_BASE64} base64 characters)`)
    // OpenAPI 3.1 says base64 with contentEncoding (kept); "format": "base64" is no format JSON Schema defines.
    .meta({ override: ({ jsonSchema }) => void delete jsonSchema.format })
    .nullable()
    .meta({
      description:
        "The logo shown at the top of the checkout: a PNG, JPEG or WebP image of at most 256 KB (262144 bytes), as base64. Its type is read from its content (its signature), never from a name or a declared type; SVG and anything else are a 400 naming `logo`. Answered as `logoUrl`. `null` removes the logo.",
    }),
};

const percent = z.number().min(0, "must be between 0 and 100").max(100, "must be between 0 and 100");

const settings = {
  name: z
    .string()
    .max(200, "must be at most 200 characters")
    .trim()
    .min(1, "must not be empty")
    .meta({
      description: "Name of the business: at most 200 characters, not blank; surrounding whitespace is trimmed.",
      pattern: "\\S",
      examples: ["Shop"],
    }),
  webhookUrl: urlField.nullable().meta({
    description: `The primary webhook endpoint's URL (more endpoints: \`…/webhook-endpoints\`); null removes it. ${URL_RULE} ${LIVE_URL_RULE}`,
    examples: ["https://shop.example.com/hooks/payments"],
    override: ({ jsonSchema }) => {
      const url = (jsonSchema.anyOf as Record<string, unknown>[] | undefined)?.find((s) => s.type === "string");
      if (url) url.pattern = URL_SCHEME_PATTERN;
    },
  }),
  paymentLifetimeSeconds: z
    .number()
    .int("must be a whole number of seconds")
    .min(5, "must be at least 5")
    .max(604800, "must be at most 604800 (7 days)")
    .meta({ format: "int32", description: "Time from createdAt to expiresAt of new payments, in seconds: 5 to 604800 (7 days). Default 3600.", examples: [3600] }),
  enabledCoins: z
    .array(z.enum(COIN_NAMES as [string, ...string[]]))
    .min(1, "must name at least one coin")
    .meta({
      description: `Coins offered on checkout (repeats are dropped). Default: ${defaultEnabledCoins().join(", ")}, in either mode. A \`live\` business can serve only ${servableCoins("live").join(", ")}: any other coin is a 400.`,
      examples: [["BITCOIN", "ETHEREUM", "ETH_TETHER"]],
    }),
  feePercent: percent.meta({ description: "Platform fee, in percent of the settled amount: 0 to 100. Default 0.", examples: [1.5] }),
  underpaymentTolerancePercent: percent.meta({
    description: "A payment short by at most this percent counts as paid in full: 0 to 100. Default 0.",
    examples: [0.5],
  }),
  extendedPublicKeys: ExtendedPublicKeysSchema,
  solanaWallet: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = v === "" ? null : solanaAddressProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable()
    .meta({
      description:
        "The business's Solana wallet address: its public key (base58, 32 bytes), where every Solana payment (SOL, USDC, USDT) goes, each told apart by a fresh reference in its Solana Pay transfer request. Only the public address: no secret key or seed phrase is ever asked for. `null` or an empty string removes it. A `live` business offers Solana coins only with one, and with a healthy SOLANA_RPC_URL.",
      examples: ["9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"],
    }),
  tonWallet: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const problem = v === "" ? null : tonAddressProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable()
    .meta({
      description:
        "The business's TON wallet address, where every TON payment (Toncoin, and USDT on TON) goes, each told apart by its own comment. Any form: user-friendly (EQ…, UQ…; kQ…, 0Q… on testnet) or raw (0:<hex>); a user-friendly testnet form is offered only on a testnet API and a mainnet form only on mainnet. `null` or an empty string removes it. A `live` business offers TON coins only with one, and with a healthy TON_API_URL.",
      examples: ["UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI"],
    }),
  emailNotifications: z
    .strictObject({
      receipt: z.boolean(),
      detected: z.boolean(),
      underpaid: z.boolean(),
      expired: z.boolean(),
    })
    .meta({
      id: "EmailNotifications",
      description:
        "Which e-mails the service sends a payment's customer (when the payment has a `customerEmail`): `receipt` when it completes, `detected` when a transfer is seen (PENDING), `underpaid` with the amount still due and the checkout link, `expired`. Every kind is on by default; a PATCH replaces the whole object.",
      examples: [{ receipt: true, detected: false, underpaid: true, expired: true }],
    }),
  confirmations: z
    .partialRecord(
      z.enum(COIN_NAMES as [CoinName, ...CoinName[]]),
      z.number().int("must be a whole number").min(1, "must be at least 1").max(1000, "must be at most 1000"),
    )
    .meta({
      id: "ConfirmationPolicy",
      description:
        "Confirmations a transfer needs before a payment in that coin counts as paid, replacing the coin's default (BITCOIN and BITCOIN_CASH 1, LITECOIN 2, every Ethereum coin 12; docs/real-chains.md): fewer is faster and riskier, more is slower and safer. 1 to 1000 each; coins not named keep their default. A PATCH replaces the whole object (`{}` restores every default). Applies to coins chosen after the change.",
      examples: [{ BITCOIN: 3, ETHEREUM: 20 }],
    }),
};

export const CreateBusinessSchema = z
  .strictObject({
    ...settings,
    displayName: brand.displayName.optional(),
    accentColor: brand.accentColor.optional(),
    logo: brand.logo.optional(),
    mode: z
      .enum(["test", "live"])
      .default("test")
      .meta({ description: "`test` pays on a simulated chain; `live` on real chains." }),
    webhookUrl: settings.webhookUrl.optional(),
    paymentLifetimeSeconds: settings.paymentLifetimeSeconds.optional(),
    enabledCoins: settings.enabledCoins.optional(),
    feePercent: settings.feePercent.optional(),
    underpaymentTolerancePercent: settings.underpaymentTolerancePercent.optional(),
    extendedPublicKeys: settings.extendedPublicKeys.optional(),
    solanaWallet: settings.solanaWallet.optional(),
    tonWallet: settings.tonWallet.optional(),
    confirmations: settings.confirmations.optional(),
    emailNotifications: settings.emailNotifications.optional(),
    parentBusinessId: z
      .number()
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({
        format: "int64",
        description:
          "Makes this a sub-business of the given business, which must exist and be a top-level business (one level of sub-businesses); 400 otherwise. Its payments then carry `onBehalfOfBusinessId`.",
      }),
  })
  .meta({
    id: "CreateBusinessRequest",
    description:
      "A new business. Only `name` is required. A `live` business needs a public `https://` `webhookUrl` (or none) and only coins it can serve; it can be paid only in coins whose family has an `extendedPublicKeys` entry.",
    examples: [CREATE_BUSINESS_EXAMPLE],
  });
export type CreateBusinessInput = z.infer<typeof CreateBusinessSchema>;

export const PatchBusinessSchema = z
  .strictObject({
    name: settings.name.optional(),
    displayName: brand.displayName.optional(),
    accentColor: brand.accentColor.optional(),
    logo: brand.logo.optional(),
    mode: z
      .enum(["test", "live"])
      .optional()
      .meta({
        description:
          "`test` pays on a simulated chain; `live` on real chains. Switching to `live` checks the business's current `webhookUrl` and `enabledCoins` (or the ones given with it) against the live rules.",
      }),
    webhookUrl: settings.webhookUrl.optional(),
    paymentLifetimeSeconds: settings.paymentLifetimeSeconds.optional(),
    enabledCoins: settings.enabledCoins.optional(),
    feePercent: settings.feePercent.optional(),
    underpaymentTolerancePercent: settings.underpaymentTolerancePercent.optional(),
    extendedPublicKeys: settings.extendedPublicKeys.optional(),
    solanaWallet: settings.solanaWallet.optional(),
    tonWallet: settings.tonWallet.optional(),
    confirmations: settings.confirmations.optional(),
    emailNotifications: settings.emailNotifications.optional(),
  })
  .meta({
    id: "PatchBusinessRequest",
    description:
      "The settings to change; omitted ones keep their value (an empty object changes nothing). The rules of the business's mode after the change apply, as on create.",
    examples: [{ name: "Shop (EU)", paymentLifetimeSeconds: 1800, underpaymentTolerancePercent: 0.5 }],
  });
export type PatchBusinessInput = z.infer<typeof PatchBusinessSchema>;

export const CreateApiKeySchema = z
  .strictObject({
    businessIds: z
      .array(z.number().int().positive().max(Number.MAX_SAFE_INTEGER))
      .min(1)
      .max(100)
      .optional()
      .meta({
        description:
          "Businesses the key may act for, 1 to 100 ids (repeats are dropped): this business and/or its sub-businesses; any other id is a 400 naming it. Default: this business.",
        override: ({ jsonSchema }) => Object.assign(jsonSchema.items as object, { format: "int64" }),
      }),
    expiresInSeconds: z
      .number()
      .int()
      .min(60, "must be at least 60")
      .max(10 * 365 * 86400)
      .optional()
      .meta({
        format: "int32",
        description: "Lifetime of the key in seconds: 60 to 315360000 (10 years). Omitted: the key does not expire.",
        examples: [2592000],
      }),
  })
  .meta({
    id: "CreateApiKeyRequest",
    description: "The new key's scope and lifetime. Every field is optional, and so is the body itself: none stands for `{}`.",
    examples: [{ expiresInSeconds: 2592000 }],
  });
export type CreateApiKeyInput = z.infer<typeof CreateApiKeySchema>;
