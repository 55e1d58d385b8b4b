import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstructionAsync,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";

/**
 * The tests' Solana wallet: builds and signs real transactions with @solana/kit and sends them
 * to a node over JSON-RPC, as a wallet app does with a Solana Pay transfer request
 * (anza-xyz/solana-pay SPEC.md: the reference is added to the transfer instruction as a
 * read-only, non-signer account).
 */

export type TransferRequest = { recipient: string; amount: bigint; splToken?: string; decimals?: number; reference?: string };

const COMPUTE_BUDGET = address("ComputeBudget111111111111111111111111111111");

/** What wallets add around a transfer (compute-unit limit before, price after): instructions the watcher must look past. */
function computeBudget(kind: "limit" | "price"): Instruction {
  const data = new Uint8Array(kind === "limit" ? 5 : 9);
  const view = new DataView(data.buffer);
  data[0] = kind === "limit" ? 2 : 3; // SetComputeUnitLimit(u32) / SetComputeUnitPrice(u64)
  if (kind === "limit") view.setUint32(1, 200_000, true);
  else view.setBigUint64(1, 1000n, true);
  return { programAddress: COMPUTE_BUDGET, accounts: [], data };
}

export class SolanaWallet {
  readonly rpc;
  constructor(
    readonly url: string,
    readonly signer: KeyPairSigner,
  ) {
    this.rpc = createSolanaRpc(url);
  }

  get address(): Address {
    return this.signer.address;
  }

  /** A fresh key (or `signer`) funded with `lamports` through requestAirdrop. */
  static async funded(url: string, lamports = 10_000_000_000n, signer?: KeyPairSigner): Promise<SolanaWallet> {
    const w = new SolanaWallet(url, signer ?? (await generateKeyPairSigner()));
    await w.rpc.requestAirdrop(w.address, lamports as never).send();
    return w;
  }

  /** Signs `instructions` with this wallet paying the fee, sends it, and returns its signature (a refused one throws). */
  async send(instructions: Instruction[]): Promise<string> {
    const { value } = await this.rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(this.signer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(value, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = await signTransactionMessageWithSigners(message);
    return this.rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" }).send();
  }

  /** A new SPL mint of `decimals` with this wallet as its authority (at `mint`'s address when given). */
  async createMint(decimals: number, mint?: KeyPairSigner): Promise<Address> {
    mint ??= await generateKeyPairSigner();
    const space = BigInt(getMintSize());
    const rent = await this.rpc.getMinimumBalanceForRentExemption(space).send();
    await this.send([
      getCreateAccountInstruction({ payer: this.signer, newAccount: mint, lamports: rent, space, programAddress: TOKEN_PROGRAM_ADDRESS }),
      getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: this.address }),
    ]);
    return mint.address;
  }

  /** Mints `amount` base units of `mint` (this wallet its authority) to `owner`'s associated token account, made if missing. */
  async mintTo(mint: Address, owner: Address, amount: bigint): Promise<void> {
    const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    await this.send([
      await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: this.signer, owner, mint }),
      getMintToInstruction({ mint, token: ata, mintAuthority: this.signer, amount }),
    ]);
  }

  /**
   * The instructions paying a transfer request: a System transfer of lamports, or for an SPL
   * token a transferChecked from this wallet's associated token account to the recipient's
   * (made in the same transaction with `createRecipientAccount`), the reference appended to the
   * transfer as a read-only account; with `guards`, compute-budget instructions before and after.
   */
  async transferInstructions(r: TransferRequest, o: { guards?: boolean; createRecipientAccount?: boolean; reference?: boolean } = {}): Promise<Instruction[]> {
    const recipient = address(r.recipient);
    let transfer: Instruction;
    const out: Instruction[] = [];
    if (!r.splToken) {
      transfer = getTransferSolInstruction({ source: this.signer, destination: recipient, amount: r.amount });
    } else {
      const mint = address(r.splToken);
      const [source] = await findAssociatedTokenPda({ owner: this.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const [destination] = await findAssociatedTokenPda({ owner: recipient, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      if (o.createRecipientAccount) out.push(await getCreateAssociatedTokenIdempotentInstructionAsync({ payer: this.signer, owner: recipient, mint }));
      transfer = getTransferCheckedInstruction({ source, mint, destination, authority: this.signer, amount: r.amount, decimals: r.decimals ?? 6 });
    }
    if (r.reference && o.reference !== false) transfer = { ...transfer, accounts: [...(transfer.accounts ?? []), { address: address(r.reference), role: AccountRole.READONLY }] };
    return [...(o.guards ? [computeBudget("limit")] : []), ...out, transfer, ...(o.guards ? [computeBudget("price")] : [])];
  }

  /** Pays a transfer request (see transferInstructions) and returns the signature. */
  async pay(r: TransferRequest, o: Parameters<SolanaWallet["transferInstructions"]>[1] = {}): Promise<string> {
    return this.send(await this.transferInstructions(r, o));
  }
}

/** Reads a Solana Pay transfer request URI (`solana:<recipient>?amount=…&spl-token=…&reference=…`) into base units of `decimals`. */
export function parseTransferRequest(uri: string, decimals: number): TransferRequest {
  const url = new URL(uri);
  if (url.protocol !== "solana:") throw new Error(`not a solana: URI: ${uri}`);
  const [whole, frac = ""] = (url.searchParams.get("amount") ?? "0").split(".");
  const amount = BigInt(whole + frac.padEnd(decimals, "0").slice(0, decimals));
  return { recipient: decodeURIComponent(url.pathname), amount, splToken: url.searchParams.get("spl-token") ?? undefined, decimals, reference: url.searchParams.get("reference") ?? undefined };
}
