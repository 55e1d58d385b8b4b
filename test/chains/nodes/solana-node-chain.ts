import { createHash } from "node:crypto";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import {
  getAddressDecoder,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  type Address,
  type Transaction,
} from "@solana/kit";
import { LiteSVM } from "litesvm";

/**
 * A Solana chain for the tests: LiteSVM (the real System and SPL Token programs, in process)
 * with the blocks, signature index and balance metadata a validator keeps and LiteSVM does not.
 * Each transaction sent is executed by LiteSVM and recorded in a block of its own slot; the
 * lamports and token accounts it names are read before and after, which is what a validator's
 * `preBalances`/`postBalances` and `preTokenBalances`/`postTokenBalances` are. A transaction that
 * fails while executing (an instruction error) is included with `err` set, as a validator
 * includes it (its fee paid, nothing else moved); one rejected before execution (an unknown
 * blockhash, no funds for the fee) is refused and recorded nowhere.
 */

const b58 = getBase58Decoder();
const addressOf = (bytes: Uint8Array) => getAddressDecoder().decode(bytes);

/** A token balance entry (solana.com/docs/rpc/json-structures#token-balances). */
export type TokenBalance = {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: number | null; uiAmountString: string };
};

export type RecordedTx = {
  signature: string;
  slot: number;
  blockTime: number;
  version: "legacy" | 0;
  signatures: string[];
  message: {
    accountKeys: string[];
    header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
    recentBlockhash: string;
    instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: null }[];
  };
  err: unknown;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  logMessages: string[];
  computeUnitsConsumed: bigint;
};

export type Block = { slot: number; blockhash: string; parentSlot: number; blockTime: number; txs: RecordedTx[] };

/** Lamports per signature: the fee a validator charges (solana.com/docs/core/fees). */
const FEE_PER_SIGNATURE = 5000n;

/** A LiteSVM error as the RPC's `err` JSON (solana.com/docs/rpc/json-structures#transaction-status-error). */
function errJson(err: unknown): unknown {
  const e = err as { index?: number; err?: () => unknown };
  if (typeof e.index === "number" && typeof e.err === "function") {
    const inner = e.err() as { code?: number } | number;
    return { InstructionError: [e.index, typeof inner === "object" && inner && typeof inner.code === "number" ? { Custom: inner.code } : String(inner)] };
  }
  return String(err);
}

export class SolanaChain {
  readonly svm = new LiteSVM();
  readonly blocks: Block[] = [];
  readonly bySignature = new Map<string, RecordedTx>();
  /** Signatures by every account their transaction names, oldest first. */
  private readonly byAccount = new Map<string, string[]>();
  private readonly startTime = Math.floor(Date.now() / 1000);

  constructor(readonly genesisHash: string) {
    this.seal([]); // slot 0: the genesis block
  }

  get slot(): number {
    return this.blocks.length - 1;
  }

  /** Closes the current slot's block with `txs` and moves to the next slot (a fresh blockhash, as a new block gives). */
  private seal(txs: RecordedTx[]): Block {
    const slot = this.blocks.length;
    const parent = this.blocks[slot - 1];
    const blockhash = b58.decode(createHash("sha256").update(`${this.genesisHash}:${slot}`).digest());
    const block = { slot, blockhash, parentSlot: parent?.slot ?? 0, blockTime: this.startTime + Math.floor(slot * 0.4), txs };
    this.blocks.push(block);
    this.svm.warpToSlot(BigInt(slot + 1));
    return block;
  }

  /** An empty slot: time passes. */
  mine(n = 1): void {
    for (let i = 0; i < n; i++) this.seal([]);
  }

  airdrop(to: string, lamports: bigint): void {
    const res = this.svm.airdrop(to as Address, lamports as never);
    if (!res || "err" in res) throw new Error(`airdrop failed: ${res ? String((res as { err(): unknown }).err()) : "no result"}`);
  }

  private tokenBalances(keys: string[]): TokenBalance[] {
    const out: TokenBalance[] = [];
    keys.forEach((key, accountIndex) => {
      const acc = this.svm.getAccount(key as Address);
      if (!acc.exists || acc.programAddress !== TOKEN_PROGRAM_ADDRESS || acc.data.length !== 165) return;
      const mint = addressOf(acc.data.slice(0, 32));
      const mintAcc = this.svm.getAccount(mint);
      const decimals = mintAcc.exists ? mintAcc.data[44] : 0;
      const amount = new DataView(acc.data.buffer, acc.data.byteOffset + 64, 8).getBigUint64(0, true);
      const ui = Number(amount) / 10 ** decimals;
      out.push({ accountIndex, mint, owner: addressOf(acc.data.slice(32, 64)), programId: TOKEN_PROGRAM_ADDRESS, uiTokenAmount: { amount: amount.toString(), decimals, uiAmount: ui, uiAmountString: String(ui) } });
    });
    return out;
  }

  private lamports(keys: string[]): bigint[] {
    return keys.map((k) => BigInt(this.svm.getBalance(k as Address) ?? 0n));
  }

  /** Executes a signed transaction in the next block; throws (recording nothing) when a validator would refuse it. */
  send(tx: Transaction): string {
    // Legacy and v0 messages (the versions a wallet sends today) share these fields.
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>["decode"]> & {
      instructions: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[];
      addressTableLookups?: unknown[];
    };
    if (message.addressTableLookups?.length) throw new Error("address lookup tables are not served by this test node");
    const keys = message.staticAccounts.map(String);
    const signature = b58.decode(Object.values(tx.signatures)[0]!);
    const preBalances = this.lamports(keys);
    const preTokenBalances = this.tokenBalances(keys);
    const result = this.svm.sendTransaction(tx);
    const failed = "err" in result && typeof (result as { err?: unknown }).err === "function";
    const err = failed ? (result as unknown as { err(): unknown }).err() : null;
    if (failed && !(typeof (err as { index?: unknown }).index === "number")) throw new Error(`Transaction simulation failed: ${String(err)}`);
    const meta = failed ? (result as unknown as { meta(): { logs(): string[]; computeUnitsConsumed(): bigint } }).meta() : (result as unknown as { logs(): string[]; computeUnitsConsumed(): bigint });
    const recorded: RecordedTx = {
      signature,
      slot: this.blocks.length,
      blockTime: 0,
      version: message.version === "legacy" ? "legacy" : 0,
      signatures: Object.values(tx.signatures).map((s) => b58.decode(s!)),
      message: {
        accountKeys: keys,
        header: { numRequiredSignatures: message.header.numSignerAccounts, numReadonlySignedAccounts: message.header.numReadonlySignerAccounts, numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts },
        recentBlockhash: message.lifetimeToken,
        instructions: message.instructions.map((ix) => ({ programIdIndex: ix.programAddressIndex, accounts: [...(ix.accountIndices ?? [])], data: b58.decode(ix.data ?? new Uint8Array()), stackHeight: null })),
      },
      err: failed ? errJson(err) : null,
      fee: FEE_PER_SIGNATURE * BigInt(message.header.numSignerAccounts),
      preBalances,
      postBalances: this.lamports(keys),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(keys),
      logMessages: meta.logs(),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
    };
    const block = this.seal([recorded]);
    recorded.blockTime = block.blockTime;
    this.bySignature.set(signature, recorded);
    for (const k of keys) this.byAccount.set(k, [...(this.byAccount.get(k) ?? []), signature]);
    this.svm.expireBlockhash();
    return signature;
  }

  /** The signatures naming `account`, newest first. */
  signaturesOf(account: string): RecordedTx[] {
    return (this.byAccount.get(account) ?? []).map((s) => this.bySignature.get(s)!).reverse();
  }
}
