import { describe, expect, it } from "vitest";
import { COINS, COIN_NAMES } from "@/domain/coins";
import { toChecksumAddress } from "@/lib/wallets/derive";
import { paymentUri } from "@/lib/wallets/payment-uri";
import { TOKEN_CONTRACTS, isErc20Coin } from "@/domain/token-contracts";

const ETH_ADDR = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";

describe("paymentUri", () => {
  it("BIP21 for Bitcoin and Litecoin with exact decimal amounts", () => {
    expect(paymentUri("BITCOIN", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", 100000n)).toBe(
      "bitcoin:bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu?amount=0.001",
    );
    expect(paymentUri("BITCOIN", "bc1qx", 1n)).toBe("bitcoin:bc1qx?amount=0.00000001"); // not 1e-8
    expect(paymentUri("BITCOIN", "bc1qx", 2100000000000000n)).toBe("bitcoin:bc1qx?amount=21000000");
    expect(paymentUri("LITECOIN", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", 123456789n)).toBe(
      "litecoin:ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh?amount=1.23456789",
    );
  });

  it("Bitcoin Cash: the CashAddr already carries the scheme", () => {
    const addr = "bitcoincash:qqyx49mu0kkn9ftfj6hje6g2wfer34yfnq5tahq3q6";
    expect(paymentUri("BITCOIN_CASH", addr, 150000n)).toBe(`${addr}?amount=0.0015`);
    expect(paymentUri("BITCOIN_CASH", addr.slice("bitcoincash:".length), 150000n)).toBe(`${addr}?amount=0.0015`);
  });

  it("EIP-681 value in wei for ether", () => {
    expect(paymentUri("ETHEREUM", ETH_ADDR, 1500000000000000000n)).toBe(`ethereum:${ETH_ADDR}@1?value=1500000000000000000`);
    expect(paymentUri("CONTRACT_ERC20_ETH", ETH_ADDR, 2n ** 70n)).toBe(`ethereum:${ETH_ADDR}@1?value=1180591620717411303424`);
  });

  it("EIP-681 transfer call for ERC-20 tokens", () => {
    expect(paymentUri("ETH_USD_COIN", ETH_ADDR, 19990000n)).toBe(
      `ethereum:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48@1/transfer?address=${ETH_ADDR}&uint256=19990000`,
    );
    expect(paymentUri("CONTRACT_ERC20_USDT", ETH_ADDR, 5000000n)).toBe(
      `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${ETH_ADDR}&uint256=5000000`,
    );
    expect(paymentUri("ETH_SHIBA_INU", ETH_ADDR, 10n ** 30n)).toBe(
      `ethereum:0x95aD61b0a150d79219dCF64E1E6Cc01f0B64C4cE@1/transfer?address=${ETH_ADDR}&uint256=${10n ** 30n}`,
    );
  });

  it("names the chain the node serves, and a token's contract there", () => {
    expect(paymentUri("ETHEREUM", ETH_ADDR, 7n, { chainId: 11155111 })).toBe(`ethereum:${ETH_ADDR}@11155111?value=7`);
    const token = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    expect(paymentUri("ETH_TETHER", ETH_ADDR, 5n, { chainId: 31337, tokenContract: token })).toBe(
      `ethereum:${token}@31337/transfer?address=${ETH_ADDR}&uint256=5`,
    );
    // No contract for the token on that chain: a wallet could not build the transfer, so the address alone.
    expect(paymentUri("ETH_TETHER", ETH_ADDR, 5n, { chainId: 31337 })).toBe(ETH_ADDR);
  });

  it("MONERO: monero:<subaddress> with tx_amount in XMR, recipient_name and tx_description percent-encoded, as make_uri writes them", () => {
    const sub = "8BZ5oVXuR9Xd9BKDQhFRqXjbtYVfXs2VGeVvAc2rPC3L2dQdxWk3h8nBRmvQm9XH6qH1wWxbEBn1tUH7GqYK5rZ4AqRnmR2";
    expect(paymentUri("MONERO", sub, 1_250_000_000_000n, undefined, { recipient: "Shop", description: "Order 42" })).toBe(
      `monero:${sub}?tx_amount=1.25&recipient_name=Shop&tx_description=Order%2042`,
    );
    expect(paymentUri("MONERO", sub, 1n)).toBe(`monero:${sub}?tx_amount=0.000000000001`);
    expect(paymentUri("MONERO", sub, 5n, undefined, { recipient: "Café & Co" })).toBe(`monero:${sub}?tx_amount=0.000000000005&recipient_name=Caf%C3%A9%20%26%20Co`);
  });

  it("the plain address for every other coin", () => {
    expect(paymentUri("TRON", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", 1000000n)).toBe("TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH");
    expect(paymentUri("TRX_TETHER", "TUEZ", 1n)).toBe("TUEZ");
    expect(paymentUri("SOLANA", "So1", 1n)).toBe("So1");
    expect(paymentUri("TON", "EQabc", 1n)).toBe("EQabc");
    expect(paymentUri("TON", "UQ", 1n)).toBe("UQ");
  });

  it("rejects negative amounts", () => {
    expect(() => paymentUri("BITCOIN", "bc1q", -1n)).toThrow(/negative/);
  });
});

describe("TOKEN_CONTRACTS", () => {
  it("covers exactly the Ethereum-network coins that are not ether", () => {
    const tokens = COIN_NAMES.filter(
      (c) => COINS[c].network === "ETHEREUM" && c !== "ETHEREUM" && c !== "CONTRACT_ERC20_ETH",
    ).sort();
    expect(Object.keys(TOKEN_CONTRACTS).sort()).toEqual(tokens);
    expect(tokens.every(isErc20Coin)).toBe(true);
    expect(isErc20Coin("ETHEREUM")).toBe(false);
  });

  it("holds valid EIP-55 checksummed addresses (catches a mistyped character)", () => {
    for (const [coin, address] of Object.entries(TOKEN_CONTRACTS)) {
      expect(toChecksumAddress(address), coin).toBe(address);
    }
  });
});
