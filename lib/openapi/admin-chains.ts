import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { COIN_NAMES } from "@/domain/coins";
import { WATCHED_CHAINS } from "@/domain/watched-chains";
import { adminErrors, envelopeOf, success } from "./components";

const dateTime = z.iso.datetime({ offset: true });
const height = z.number().int().min(0).meta({ format: "int64" });

export const ChainHealthSchema = z
  .strictObject({
    chain: z.enum(WATCHED_CHAINS),
    configured: z.boolean().meta({ description: "Whether the chain's node is configured (BITCOIN_RPC_URL, LITECOIN_RPC_URL, BITCOIN_CASH_RPC_URL, ETHEREUM_RPC_URL, TRON_RPC_URL, SOLANA_RPC_URL, MONERO_DAEMON_URL)." }),
    endpoint: z.string().nullable().meta({ description: "The node's address, without credentials." }),
    network: z.enum(["main", "test", "regtest"]).nullable().meta({ description: "The network the node reported; null until it has answered." }),
    chainId: z.number().int().nullable().meta({ format: "int64", description: "An EVM node's chain id, or TRON's (the last 4 bytes of its genesis block id: 728126428 mainnet, 3448148188 Nile, 2494104990 Shasta, any other a private network); null for the Bitcoin family." }),
    networkName: z.string().nullable().meta({ description: "TRON's network by name, from its chain id: mainnet, Nile, Shasta or private; null for the other chains." }),
    state: z.enum(["healthy", "starting", "failing", "stalled", "not configured"]).meta({
      description:
        "`healthy`: followed within the last minute and its tip advancing; `starting`: configured, not followed yet; `failing`: no successful tick for a minute (see `lastError`); `stalled`: the node answers but its tip has not moved for longer than the chain's blocks ever take (not on regtest). Only a healthy chain's coins are offered to customers of live businesses.",
    }),
    tip: height.nullable().meta({ description: "The node's best block at the last successful tick." }),
    cursor: height.nullable().meta({ description: "The last block the watcher has read." }),
    lag: height.nullable().meta({ description: "tip − cursor: blocks still to read." }),
    lastTickAt: dateTime.nullable().meta({ description: "The last successful tick." }),
    tipChangedAt: dateTime.nullable().meta({ description: "When the tip last moved." }),
    lastError: z.string().nullable().meta({ description: "The last failure, kept after the chain recovers." }),
    lastErrorAt: dateTime.nullable(),
    coins: z.array(z.enum(COIN_NAMES as [string, ...string[]])).meta({ description: "The coins live businesses can be paid in on this chain now: none unless healthy." }),
  })
  .meta({ id: "ChainHealth", description: "A watched chain's state, as the watcher last wrote it (every instance shows the same)." });

export const chainPaths: ZodOpenApiPathsObject = {
  "/admin/v1/chains": {
    get: {
      tags: ["Admin"],
      security: [{ adminBearer: [] }],
      operationId: "adminChainHealth",
      summary: "The chains' health",
      description:
        "Every chain the service can watch (BITCOIN, LITECOIN, BITCOIN_CASH, ETHEREUM, TRON, SOLANA, MONERO, TON), configured or not: its node's network and tip, the watcher's cursor and lag, its last successful tick and last error, and the coins it offers now.",
      responses: {
        200: success("Each chain's health.", envelopeOf(z.array(ChainHealthSchema), "ChainHealthEnvelope")),
        ...adminErrors(401),
      },
    },
  },
};
