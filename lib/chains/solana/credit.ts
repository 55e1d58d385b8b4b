/**
 * What a Solana transaction paid a recipient, from its balances before and after, as
 * `getTransaction` (encoding "json") gives them: never from its instructions. Wallets add
 * instructions of their own (compute budget, Lighthouse guards) before and after the transfer,
 * payments arrive through programs (a swap, a multisig), and a failed transaction still lists the
 * transfer it did not make; the balances say what moved. Pure, on the RPC's shapes
 * (solana.com/docs/rpc/http/gettransaction).
 */

/** A token balance entry of `meta.preTokenBalances` / `postTokenBalances`. */
export type TokenBalance = {
  accountIndex: number;
  mint: string;
  owner?: string;
  programId?: string;
  uiTokenAmount: { amount: string };
};

/** The parts of a `getTransaction` result (json encoding) the watcher reads. */
export type SolanaTx = {
  slot: bigint | number;
  transaction: { signatures: readonly string[]; message: { accountKeys: readonly string[] } };
  meta: {
    err: unknown;
    preBalances: readonly (bigint | number)[];
    postBalances: readonly (bigint | number)[];
    preTokenBalances?: readonly TokenBalance[] | null;
    postTokenBalances?: readonly TokenBalance[] | null;
    loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } | null;
  } | null;
};

/** What a coin is paid to: lamports to the wallet, or a mint's tokens to the wallet's associated token account under `tokenProgram`. */
export type Recipient = { wallet: string } & ({ kind: "lamports" } | { kind: "token"; mint: string; tokenAccount: string; tokenProgram: string });

/**
 * The transaction's accounts in the order its indexes count them: the message's static keys, then
 * the addresses loaded from lookup tables, writable before read-only (a v0 transaction).
 */
export function accountKeysOf(tx: SolanaTx): string[] {
  const loaded = tx.meta?.loadedAddresses;
  return [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

/**
 * The base units `tx` credited to `to`: lamports as post − pre balance of the wallet; tokens as
 * post − pre amount of the wallet's associated token account for the mint, the entry checked for
 * mint, owner and token program (a missing pre entry is 0: the account was made in the same
 * transaction). Zero for a failed transaction (`meta.err` set: nothing but its fee moved), for
 * one without metadata, and when the balance fell or did not move.
 */
export function creditOf(tx: SolanaTx, to: Recipient): bigint {
  const meta = tx.meta;
  if (!meta || meta.err !== null) return 0n;
  const keys = accountKeysOf(tx);
  if (to.kind === "lamports") {
    const i = keys.indexOf(to.wallet);
    if (i < 0 || meta.preBalances[i] === undefined || meta.postBalances[i] === undefined) return 0n;
    const delta = BigInt(meta.postBalances[i]) - BigInt(meta.preBalances[i]);
    return delta > 0n ? delta : 0n;
  }
  const i = keys.indexOf(to.tokenAccount);
  if (i < 0) return 0n;
  const entry = (list: readonly TokenBalance[] | null | undefined) =>
    (list ?? []).find((b) => b.accountIndex === i && b.mint === to.mint && (b.owner === undefined || b.owner === to.wallet) && (b.programId === undefined || b.programId === to.tokenProgram));
  const post = entry(meta.postTokenBalances);
  if (!post) return 0n;
  const pre = entry(meta.preTokenBalances);
  const delta = BigInt(post.uiTokenAmount.amount) - BigInt(pre?.uiTokenAmount.amount ?? "0");
  return delta > 0n ? delta : 0n;
}
