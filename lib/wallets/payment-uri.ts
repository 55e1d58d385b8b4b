import { fromBaseUnits } from "@/domain/amounts";
import type { CoinName } from "@/domain/coins";
import { isErc20Coin, TOKEN_CONTRACTS } from "@/domain/token-contracts";

/** Where an EVM payment goes: the chain's id, and the token's contract there (default: mainnet's built-in one). */
export type EvmTarget = { chainId: number; tokenContract?: string };

/** Who is paid and for what, where a coin's URI carries them (Monero's). */
export type UriLabel = { recipient?: string; description?: string };

const ETHEREUM_MAINNET: EvmTarget = { chainId: 1 };

/**
 * The URI a wallet opens (link or QR code) to pay `baseUnits` of `coin` to `address`:
 * - BITCOIN / LITECOIN: BIP21 `bitcoin:<addr>?amount=<whole coins>` / `litecoin:…`;
 * - BITCOIN_CASH: the CashAddr already reads `bitcoincash:<payload>`; `?amount=` is appended;
 * - ETHEREUM / CONTRACT_ERC20_ETH: EIP-681 `ethereum:<addr>@<chain id>?value=<wei>`;
 * - ERC-20 tokens: EIP-681 `ethereum:<token contract>@<chain id>/transfer?address=<addr>&uint256=<base units>`;
 * - MONERO: `monero:<subaddress>?tx_amount=<whole XMR>&recipient_name=…&tx_description=…`, the
 *   parameters monero-wallet-rpc's make_uri writes (and Monero GUI and Cake Wallet read);
 * - every other coin: the plain address.
 * BIP21 amounts are exact decimal whole coins (never a float, never exponent notation).
 */
export function paymentUri(coin: CoinName, address: string, baseUnits: bigint, evm: EvmTarget = ETHEREUM_MAINNET, label: UriLabel = {}): string {
  if (baseUnits < 0n) throw new Error("Amount must not be negative");
  switch (coin) {
    case "BITCOIN":
      return `bitcoin:${address}?amount=${fromBaseUnits(coin, baseUnits)}`;
    case "LITECOIN":
      return `litecoin:${address}?amount=${fromBaseUnits(coin, baseUnits)}`;
    case "BITCOIN_CASH": {
      const withScheme = address.toLowerCase().startsWith("bitcoincash:") ? address : `bitcoincash:${address}`;
      return `${withScheme}?amount=${fromBaseUnits(coin, baseUnits)}`;
    }
    case "MONERO": {
      const q = new URLSearchParams({ tx_amount: fromBaseUnits(coin, baseUnits) });
      if (label.recipient) q.set("recipient_name", label.recipient);
      if (label.description) q.set("tx_description", label.description);
      // URLSearchParams writes spaces as "+", which Monero wallets keep literally: percent-encode them.
      return `monero:${address}?${q.toString().replaceAll("+", "%20")}`;
    }
    case "ETHEREUM":
    case "CONTRACT_ERC20_ETH":
      return `ethereum:${address}@${evm.chainId}?value=${baseUnits}`;
  }
  if (isErc20Coin(coin)) {
    const contract = evm.tokenContract ?? (evm.chainId === 1 ? TOKEN_CONTRACTS[coin] : undefined);
    // Without the token's contract on this chain a wallet cannot build the transfer: the address alone.
    if (contract === undefined) return address;
    return `ethereum:${contract}@${evm.chainId}/transfer?address=${address}&uint256=${baseUnits}`;
  }
  return address;
}
