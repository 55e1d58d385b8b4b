import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { Trx, utils, type Types } from "tronweb";
import { blockIdOf, hexAddress, hexText, witnessSignature, type TronHeader } from "./tron-node-encoding";
import { addTo, callToken, type TronToken, type Undo } from "./tron-node-tokens";

/**
 * The fake TRON node's in-memory chain (tron-node.ts serves it over HTTP): blocks, the pending
 * pool, TRX balances in sun and the emulated TRC-20 tokens, with java-tron's broadcast checks,
 * block ids and transaction results. Each block keeps the steps that undo its state changes, so a
 * reorg rewinds exactly the orphaned blocks.
 */

/** A signed transaction as tronweb builds it and broadcasttransaction takes it. */
export type TronTx = { txID: string; raw_data: Types.Transaction["raw_data"]; raw_data_hex: string; signature: string[] };
type Included = { tx: TronTx; contractRet: string; info: Record<string, unknown> };
export type TronBlock = { blockID: string; header: TronHeader; witness_signature: string; txs: Included[]; undo: Undo };
export type Witness = { hex: string; privateKey: Uint8Array };
/** Why the node refuses a broadcast: a code and message of docs/api/http/tx-build-and-broadcast/broadcasttransaction.md. */
export type Refusal = { code: string; message: string };

/*
 * Fees, in sun (a fixed model: an account's daily free bandwidth is taken as spent). Bandwidth
 * burns 1 000 sun a byte (getbandwidthprices.md); a TRX transfer is ~267 bytes (the transfers of
 * getblock.md's Nile block paid 267 000). Activating an account burns 1 TRX plus 0.1 TRX of
 * bandwidth (mechanism-algorithm/account.md). Energy burns 100 sun a unit (getenergyprices.md).
 */
const FEE = { trxNet: 267_000n, activation: 1_100_000n, activationNet: 100_000n, callNet: 345_000n, energy: 100n };
const SLOT_MS = 3_000;
export const ZERO_HASH = "0".repeat(64);

const sumOr0 = (m: Map<string, bigint>, k: string) => m.get(k) ?? 0n;
const valueOf = (tx: TronTx) => (tx.raw_data.contract[0]?.parameter.value ?? {}) as unknown as Record<string, unknown>;
const big = (v: unknown) => BigInt(typeof v === "number" || typeof v === "string" || typeof v === "bigint" ? v : 0);
/** Protobuf JSON leaves out zero and empty fields; so does the node. */
const compact = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== 0 && v !== 0n && v !== ""));

export class TronChain {
  readonly blocks: TronBlock[] = [];
  readonly byId = new Map<string, number>();
  readonly txAt = new Map<string, { block: number; index: number }>();
  pending = new Map<string, TronTx>();
  readonly trx = new Map<string, bigint>();
  /** Activated accounts (TRON accounts exist once they receive TRX) and their create_time. */
  readonly created = new Map<string, number>();
  readonly tokens = new Map<string, TronToken>();
  solidLag = 18;
  private held: number | null = null;
  /** Bumped by each reorg, so the replacing blocks come from other witnesses and get other ids. */
  private fork = 0;

  constructor(
    genesisId: string,
    private readonly genesisTime: number,
    private readonly witnesses: Witness[],
  ) {
    const header: TronHeader = { number: 0, txTrieRoot: ZERO_HASH, witness_address: witnesses[0].hex, parentHash: ZERO_HASH, version: 0, timestamp: genesisTime };
    this.blocks.push({ blockID: genesisId, header, witness_signature: "", txs: [], undo: [] });
    this.byId.set(genesisId, 0);
  }

  head = () => this.blocks.length - 1;
  headBlock = () => this.blocks[this.head()];
  solidified = () => Math.max(0, Math.min(this.head(), this.held ?? this.head() - this.solidLag));
  hold(height: number | null) {
    this.held = height;
  }
  /** Where a mined transaction is. */
  located(txID: string): { block: TronBlock; item: Included } | undefined {
    const at = this.txAt.get(txID);
    return at && { block: this.blocks[at.block], item: this.blocks[at.block].txs[at.index] };
  }

  /** Credits sun outside any block (a funded account of the test set-up), activating the account. */
  credit(hex: string, sun: bigint) {
    if (!this.created.has(hex)) this.created.set(hex, this.headBlock().header.timestamp);
    this.trx.set(hex, sumOr0(this.trx, hex) + sun);
  }

  /** Sun an owner can still spend: its balance less what its pending transactions will cost. */
  private spendable(owner: string): bigint {
    let sun = sumOr0(this.trx, owner);
    for (const tx of this.pending.values()) {
      const v = valueOf(tx);
      if (v.owner_address !== owner) continue;
      const type = tx.raw_data.contract[0].type;
      if (type === "TransferContract") sun -= big(v.amount) + (this.created.has(String(v.to_address)) ? FEE.trxNet : FEE.activation);
      else sun -= FEE.callNet;
    }
    return sun;
  }

  /**
   * The checks java-tron runs before it pools a broadcast transaction; null when it takes it.
   * Like java-tron it re-serializes `raw_data` (tronweb's protobuf) for the bytes it hashes;
   * stricter, it also refuses a `raw_data_hex` or `txID` sent along that disagrees, where
   * java-tron ignores them. `tx` gets the derived hex and id.
   */
  refuse(tx: TronTx): Refusal | null {
    const rawHex = utils.transaction.txPbToRawDataHex(utils.transaction.txJsonToPb(tx)).toLowerCase();
    const txID = bytesToHex(sha256(hexToBytes(rawHex)));
    if ((tx.raw_data_hex && tx.raw_data_hex !== rawHex) || (tx.txID && tx.txID !== txID)) return { code: "SIGERROR", message: "validateSignature error" };
    [tx.raw_data_hex, tx.txID] = [rawHex, txID];
    if (this.pending.has(tx.txID) || this.txAt.has(tx.txID)) return { code: "DUP_TRANSACTION_ERROR", message: "Dup transaction." };
    const owner = String(valueOf(tx)?.owner_address ?? "");
    let signer = "";
    try {
      signer = tx.signature.length === 1 ? hexAddress(String(Trx.ecRecover(tx as Types.SignedTransaction))) : "";
    } catch {
      // a signature that recovers no key is refused below
    }
    if (signer !== owner) return { code: "SIGERROR", message: "validateSignature error" };
    const head = this.headBlock();
    if (tx.raw_data.expiration <= head.header.timestamp) return { code: "TRANSACTION_EXPIRATION_ERROR", message: "Transaction expired" };
    if (!this.taposOk(tx)) return { code: "TAPOS_ERROR", message: "Tapos failed" };
    const invalid = (m: string): Refusal => ({ code: "CONTRACT_VALIDATE_ERROR", message: `Contract validate error : ${m}` });
    const type = tx.raw_data.contract[0].type;
    if (tx.raw_data.contract.length !== 1) return invalid("one contract per transaction");
    // The TriggerSmartContract wording follows TransferContract's documented one (createtransaction.md).
    if (!this.created.has(owner)) return invalid(`Validate ${type} error, no OwnerAccount.`);
    const v = valueOf(tx);
    if (type === "TransferContract") {
      const [to, amount] = [String(v.to_address), big(v.amount)];
      if (amount <= 0n) return invalid("Amount must be greater than 0.");
      if (to === owner) return invalid("Cannot transfer TRX to yourself.");
      const fee = this.created.has(to) ? FEE.trxNet : FEE.activation;
      if (this.spendable(owner) < amount + fee) return invalid("Validate TransferContract error, balance is not sufficient.");
      return null;
    }
    if (type === "TriggerSmartContract") {
      if (this.spendable(owner) < FEE.callNet) return { code: "BANDWITH_ERROR", message: "Account resource insufficient error." };
      return null;
    }
    return invalid(`${type} is not run by this test node`);
  }

  /** TaPoS: the ref block (low 2 bytes of its number, bytes 8..16 of its id) is one of the newest 65 536 blocks. */
  private taposOk(tx: TronTx): boolean {
    const n = this.head() - ((this.head() - parseInt(tx.raw_data.ref_block_bytes, 16) + 65_536) % 65_536);
    return n >= 0 && this.blocks[n]?.blockID.slice(16, 32) === tx.raw_data.ref_block_hash;
  }

  /** Applies a transaction to the state of block `number`; null when it cannot be included (its sender can no longer pay). */
  private execute(tx: TronTx, number: number, timestamp: number, undo: Undo): Included | null {
    const v = valueOf(tx);
    const owner = String(v.owner_address);
    const type = tx.raw_data.contract[0].type;
    const base = { id: tx.txID, blockNumber: number, blockTimeStamp: timestamp, contractResult: [""] };
    if (!this.created.has(owner)) return null;
    if (type === "TransferContract") {
      const [to, amount] = [String(v.to_address), big(v.amount)];
      const fresh = !this.created.has(to);
      const fee = fresh ? FEE.activation : FEE.trxNet;
      if (sumOr0(this.trx, owner) < amount + fee) return null;
      addTo(this.trx, owner, -(amount + fee), undo);
      addTo(this.trx, to, amount, undo);
      if (fresh) {
        this.created.set(to, timestamp);
        undo.push(() => this.created.delete(to));
      }
      return { tx, contractRet: "SUCCESS", info: { ...base, fee, receipt: { net_fee: fresh ? FEE.activationNet : FEE.trxNet } } };
    }
    if (type !== "TriggerSmartContract") return null;
    const balance = sumOr0(this.trx, owner);
    if (balance < FEE.callNet) return null;
    const contract = String(v.contract_address);
    const scratch: Undo = [];
    const out = callToken(this.tokens.get(contract), owner, String(v.data ?? ""), Number(v.call_value ?? 0), scratch);
    let energyFee = BigInt(out.energy) * FEE.energy;
    // Energy the sender cannot pay for (balance, or the tx's fee_limit) stops the call: OUT_OF_ENERGY, nothing changes, all it could pay is burnt.
    const payable = [balance - FEE.callNet, big(tx.raw_data.fee_limit)].reduce((a, b) => (a < b ? a : b));
    const result = energyFee > payable ? "OUT_OF_ENERGY" : out.ok ? "SUCCESS" : "REVERT";
    if (result === "OUT_OF_ENERGY") {
      for (const step of scratch.reverse()) step();
      energyFee = payable;
    } else undo.push(...scratch);
    const fee = FEE.callNet + energyFee;
    addTo(this.trx, owner, -fee, undo);
    const receipt = compact({ energy_fee: energyFee, energy_usage_total: out.energy, net_fee: FEE.callNet, result });
    const failed = result === "SUCCESS" ? {} : { result: "FAILED", resMessage: hexText(result === "REVERT" ? "REVERT opcode executed" : "Not enough energy") };
    const logs = result === "SUCCESS" && out.logs.length ? { log: out.logs } : {};
    const info = { ...base, fee, contractResult: [result === "SUCCESS" ? out.returned : ""], contract_address: contract, receipt, ...logs, ...failed };
    return { tx, contractRet: result, info };
  }

  /** Appends one block over the head holding `txs` in order (those that cannot be included are dropped, as a producer drops them). */
  append(txs: TronTx[]): TronBlock {
    const parent = this.headBlock();
    const number = parent.header.number + 1;
    const timestamp = this.genesisTime + number * SLOT_MS;
    const undo: Undo = [];
    const included: Included[] = [];
    for (const tx of txs) {
      if (tx.raw_data.expiration <= parent.header.timestamp) continue;
      const item = this.execute(tx, number, timestamp, undo);
      if (item) included.push(item);
    }
    // java-tron's txTrieRoot is a Merkle root of the signed transactions' bytes; this stands in with sha256 of the txIDs.
    const txTrieRoot = included.length ? bytesToHex(sha256(hexToBytes(included.map((i) => i.tx.txID).join("")))) : ZERO_HASH;
    const witness = this.witnesses[(number + this.fork) % this.witnesses.length];
    const header: TronHeader = { number, txTrieRoot, witness_address: witness.hex, parentHash: parent.blockID, version: 34, timestamp };
    const block: TronBlock = { blockID: blockIdOf(header), header, witness_signature: witnessSignature(header, witness.privateKey), txs: included, undo };
    this.blocks.push(block);
    this.byId.set(block.blockID, number);
    included.forEach((item, index) => this.txAt.set(item.tx.txID, { block: number, index }));
    return block;
  }

  /** Mines `count` blocks; the first takes the whole pending pool. */
  mine(count: number): TronBlock[] {
    const pool = [...this.pending.values()];
    this.pending = new Map();
    return Array.from({ length: count }, (_, i) => this.append(i === 0 ? pool : []));
  }

  /** Replaces the newest `depth` blocks by `depth + extra` empty ones; their transactions go back to the pool, but `drop`. */
  reorg(depth: number, extra: number, drop: string[]) {
    const [head, solid] = [this.head(), this.solidified()];
    if (!Number.isInteger(depth) || depth < 1 || head - depth < solid) {
      throw new Error(`cannot reorg ${depth} blocks: head ${head}, solidified ${solid} (only blocks above the solidified one can change)`);
    }
    const txs = this.blocks.slice(head - depth + 1).flatMap((b) => b.txs.map((i) => i.tx));
    const unknown = drop.filter((id) => !txs.some((tx) => tx.txID === id));
    if (unknown.length) throw new Error(`reorg drop: ${unknown.join(", ")} not in the orphaned blocks`);
    for (const block of this.blocks.splice(head - depth + 1).reverse()) {
      for (const step of [...block.undo].reverse()) step();
      this.byId.delete(block.blockID);
      for (const item of block.txs) this.txAt.delete(item.tx.txID);
    }
    const back = txs.filter((tx) => !drop.includes(tx.txID)).map((tx) => [tx.txID, tx] as const);
    this.pending = new Map([...back, ...this.pending]);
    this.fork++;
    for (let i = 0; i < depth + extra; i++) this.append([]);
  }
}
