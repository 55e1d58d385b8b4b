import type { CoinName } from "./coins";

/**
 * TON's networks by the root hash of their masterchain zero state, as the global configs give it
 * (ton-blockchain's global.config.json and testnet-global.config.json, "validator.zero_state")
 * and toncenter's getMasterchainInfo returns it as `init.root_hash`. Any other zero state is a
 * private network (a local node), counted as a development chain.
 */
export const TON_NETWORKS: Record<string, { name: string; testnet: boolean }> = {
  "F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=": { name: "mainnet", testnet: false },
  "gj+B8wb/AmlPk1z1AhVI484rhrUpgSr2oSFIh56VoSg=": { name: "testnet", testnet: true },
};

/** TON's network name from its zero state's root hash; "private" for any other. */
export function tonNetworkName(zeroStateRootHash: string | null): string {
  return (zeroStateRootHash !== null && TON_NETWORKS[zeroStateRootHash]?.name) || "private";
}

/**
 * The jetton masters of the jetton coins on TON mainnet, as their issuers publish them: Tether's
 * USDT (docs.ton.org, "Jetton payments"; 6 decimals). TON_JETTON_MASTERS replaces them, and on
 * any other network only configured masters count.
 */
export const TON_JETTON_MASTERS = {
  TON_TETHER: "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs",
} as const;

export type JettonCoin = keyof typeof TON_JETTON_MASTERS & CoinName;
