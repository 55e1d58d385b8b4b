import type { CoinName } from "./coins";

/**
 * Mainnet (chain id 1) contract addresses of the ERC-20 tokens in the coin catalogue, in
 * EIP-55 form, as published by the issuers and listed on Etherscan:
 * USDC (Circle), USDT (Tether), DAI (MakerDAO), BUSD (Paxos), MATIC (Polygon), SHIB, APE
 * (ApeCoin DAO), CRO (Crypto.com, 8 decimals), UNI (Uniswap), BNB (Binance's original ERC-20).
 * The CONTRACT_ERC20_* coins pay the same token contracts.
 */
export const TOKEN_CONTRACTS = {
  ETH_USD_COIN: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  CONTRACT_ERC20_USDC: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  ETH_TETHER: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
  CONTRACT_ERC20_USDT: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
  ETH_DAI: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
  ETH_BUSD: "0x4Fabb145d64652a948d72533023f6E7A623C7C53",
  ETH_MATIC: "0x7D1AfA7B718fb893dB30A3aBc0Cfc608AaCfeBB0",
  ETH_SHIBA_INU: "0x95aD61b0a150d79219dCF64E1E6Cc01f0B64C4cE",
  ETH_APE_COIN: "0x4d224452801ACEd8B2F0aebE155379bb5D594381",
  ETH_CRONOS: "0xA0b73E1Ff0B80914AB6fe0444E65848C4C34450b",
  ETH_UNISWAP: "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984",
  BNB: "0xB8c77482e45F1F44dE1745F52C74426C631bDD52",
} as const satisfies Partial<Record<CoinName, string>>;

export type Erc20Coin = keyof typeof TOKEN_CONTRACTS;

export function isErc20Coin(coin: CoinName): coin is Erc20Coin {
  return Object.hasOwn(TOKEN_CONTRACTS, coin);
}

/**
 * TRON mainnet contracts of the TRC-20 tokens in the catalogue, base58 as their issuers publish
 * them (Tronscan): USDT (Tether) and USDC (Circle). Circle stopped minting USDC on TRON in
 * February 2024 and ended its support in 2025; the contract still exists, so the coin is kept.
 * The CONTRACT_TRC20_* coins pay the same contracts.
 */
export const TRC20_CONTRACTS = {
  TRX_TETHER: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  CONTRACT_TRC20_USDT: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  TRX_USD_C: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8",
  CONTRACT_TRC20_USDC: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8",
} as const satisfies Partial<Record<CoinName, string>>;

export type Trc20Coin = keyof typeof TRC20_CONTRACTS;

export function isTrc20Coin(coin: CoinName): coin is Trc20Coin {
  return Object.hasOwn(TRC20_CONTRACTS, coin);
}

/** A token coin of either family: its contract is configured per chain. */
export type TokenCoin = Erc20Coin | Trc20Coin;
