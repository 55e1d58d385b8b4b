import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Address, beginCell, Cell, loadMessage, toNano, type TupleItem } from "@ton/core";
import { Blockchain, GetMethodError, type SendMessageResult, type SandboxContract, type TreasuryContract } from "@ton/sandbox";
import { JettonMinter } from "@ton-community/assets-sdk/dist/jetton/JettonMinter.js";
import { JettonWallet } from "@ton-community/assets-sdk/dist/jetton/JettonWallet.js";

/**
 * A fake toncenter for the tests: the HTTP API's v2 methods the watcher calls
 * (docs.ton.org/ecosystem/api/toncenter/v2/, each method's page named below) over a TVM emulator
 * (@ton/sandbox) running the real contracts: its treasuries as wallets, and the jetton minter and
 * wallet code @ton-community/assets-sdk ships (the TEP-74 reference jetton). Every transaction the
 * emulator makes is kept per account with its BOC, so the watcher decodes real bytes; each send is
 * one masterchain block here (the emulator has none), its root hash made up.
 */

/** Mainnet's zero state root hash (global.config.json "validator.zero_state"). */
export const MAINNET_ZERO_STATE = "F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=";
/** A zero state of no public network: a private one, as a local node's. */
export const PRIVATE_ZERO_STATE = createHash("sha256").update("a private TON network").digest("base64");

type Kept = { lt: bigint; hash: Buffer; utime: number; boc: string; tx: SendMessageResult["transactions"][number] };

export class TonNode {
  readonly url: string;
  /** Requests by method, for the tests and the bench. */
  readonly calls = new Map<string, number>();
  /** While true, every request fails with 503: the API is down. */
  down = false;
  /** The key the API requires in X-API-Key, when set. */
  apiKey: string | undefined;
  seqno = 1;
  private readonly blocks = new Map<number, string>([[1, randomBytes(32).toString("base64")]]);
  private readonly txs = new Map<string, Kept[]>();

  private constructor(
    readonly chain: Blockchain,
    private readonly server: Server,
    readonly zeroState: string,
  ) {
    const { port } = server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
  }

  static async start(o: { zeroState?: string; port?: number } = {}): Promise<TonNode> {
    const chain = await Blockchain.create();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(o.port ?? 0, "127.0.0.1", resolve));
    const node = new TonNode(chain, server, o.zeroState ?? PRIVATE_ZERO_STATE);
    server.on("request", (req, res) => void node.handle(req, res));
    return node;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A funded wallet of the emulator (a treasury contract), by name. */
  wallet(name: string): Promise<SandboxContract<TreasuryContract>> {
    return this.chain.treasury(name);
  }

  /** Keeps a send's transactions per account and makes one masterchain block. */
  keep(result: SendMessageResult): SendMessageResult {
    for (const tx of result.transactions) {
      const dest = tx.inMessage?.info.dest;
      if (!(dest instanceof Address)) continue;
      const account = dest.toRawString();
      const list = this.txs.get(account) ?? [];
      list.push({ lt: tx.lt, hash: tx.hash(), utime: tx.now, boc: tx.raw.toBoc().toString("base64"), tx });
      this.txs.set(account, list);
    }
    this.blocks.set(++this.seqno, randomBytes(32).toString("base64"));
    return result;
  }

  /** Sends `value` nanotons from `from` to `to` with a text comment (op 0), or no body when `comment` is null. */
  async pay(from: SandboxContract<TreasuryContract>, to: Address, value: bigint, comment: string | null, o: { bounce?: boolean } = {}): Promise<SendMessageResult> {
    const body = comment === null ? undefined : beginCell().storeUint(0, 32).storeStringTail(comment).endCell();
    return this.keep(await from.send({ to, value, body, bounce: o.bounce ?? false }));
  }

  /** Deploys a jetton master (the reference minter) with `admin` as its admin. */
  async deployJetton(admin: SandboxContract<TreasuryContract>, name: string): Promise<SandboxContract<JettonMinter>> {
    const minter = this.chain.openContract(JettonMinter.createFromConfig({ admin: admin.address, content: beginCell().storeStringTail(name).endCell() }));
    await minter.sendDeploy(admin.getSender(), toNano("0.1"));
    return minter;
  }

  async mint(minter: SandboxContract<JettonMinter>, admin: SandboxContract<TreasuryContract>, to: Address, amount: bigint): Promise<void> {
    await minter.sendMint(admin.getSender(), to, amount, { value: toNano("0.2") });
  }

  /**
   * `from` sends `amount` of the jetton to `to` through its jetton wallet, with the comment in the
   * forward payload (op 0 text in a ref); `forwardTon` 0 sends no notification to `to`.
   */
  async payJetton(minter: SandboxContract<JettonMinter>, from: SandboxContract<TreasuryContract>, to: Address, amount: bigint, comment: string | null, forwardTon: bigint): Promise<SendMessageResult> {
    const wallet = this.chain.openContract(JettonWallet.createFromAddress(await minter.getWalletAddress(from.address)));
    const payload = comment === null ? null : beginCell().storeUint(0, 32).storeStringTail(comment).endCell();
    // The emulator's opened contracts return the send's transactions from every send… method.
    return this.keep((await wallet.send(from.getSender(), to, amount, { notify: { amount: forwardTon, payload }, value: toNano("0.1") })) as unknown as SendMessageResult);
  }

  /** An account's kept transactions, oldest first. */
  transactionsOf(address: Address): Kept[] {
    return this.txs.get(address.toRawString()) ?? [];
  }

  private blockId(seqno: number, rootHash: string) {
    return { "@type": "ton.blockIdExt", workchain: -1, shard: "-9223372036854775808", seqno, root_hash: rootHash, file_hash: createHash("sha256").update(rootHash).digest("base64") };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", this.url);
    const method = url.pathname.replace(/^\/api\/v[23]\//, "");
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (this.down) return send(503, { ok: false, error: "Service Unavailable", code: 503 });
    if (this.apiKey && req.headers["x-api-key"] !== this.apiKey) return send(401, { ok: false, error: "API key does not exist", code: 401 });
    try {
      const q = url.searchParams;
      if (method === "getMasterchainInfo") {
        // docs.ton.org/ecosystem/api/toncenter/v2/blocks/get-masterchain-info: last, state_root_hash, init (the zero state).
        return send(200, { ok: true, result: { "@type": "blocks.masterchainInfo", last: this.blockId(this.seqno, this.blocks.get(this.seqno)!), state_root_hash: randomBytes(32).toString("base64"), init: { ...this.blockId(0, this.zeroState), shard: "0" } } });
      }
      if (method === "lookupBlock") {
        // docs.ton.org/ecosystem/api/toncenter/v2/blocks/lookup-block: the block's ton.blockIdExt.
        const seqno = Number(q.get("seqno"));
        const hash = this.blocks.get(seqno);
        if (!hash) return send(404, { ok: false, error: "LITE_SERVER_UNKNOWN: block is not applied", code: 404 });
        return send(200, { ok: true, result: this.blockId(seqno, hash) });
      }
      if (method === "getTransactions") return send(200, { ok: true, result: this.getTransactions(q) });
      if (method === "runGetMethod" && req.method === "POST") return send(200, { ok: true, result: await this.runGetMethod(await readJson(req)) });
      if (method === "sendBoc" && req.method === "POST") {
        // docs.ton.org/ecosystem/api/toncenter/v2/ "Send BoC": POST `{ boc }` (a serialized external message), answers `{ "@type": "ok" }`.
        const { boc } = await readJson<{ boc: string }>(req);
        this.keep(await this.chain.sendMessage(loadMessage(Cell.fromBase64(boc).beginParse())));
        return send(200, { ok: true, result: { "@type": "ok", "@extra": "" } });
      }
      return send(404, { ok: false, error: `no method ${method}`, code: 404 });
    } catch (e) {
      return send(500, { ok: false, error: (e as Error).message, code: 500 });
    }
  }

  /**
   * docs.ton.org/ecosystem/api/toncenter/v2/transactions/get-transactions: newest first, from
   * (`lt`, `hash`) inclusive when given, at most `limit`, down to `to_lt` (exclusive). Items:
   * `{ utime, data (the BOC), transaction_id: { lt, hash }, fee, storage_fee, other_fee, in_msg, out_msgs }`.
   */
  private getTransactions(q: URLSearchParams) {
    const account = Address.parse(q.get("address") ?? "").toRawString();
    const limit = Math.min(Number(q.get("limit") ?? 10), 100);
    const fromLt = q.get("lt") ? BigInt(q.get("lt")!) : null;
    const toLt = q.get("to_lt") ? BigInt(q.get("to_lt")!) : 0n;
    const list = [...(this.txs.get(account) ?? [])].reverse().filter((k) => (fromLt === null || k.lt <= fromLt) && k.lt > toLt);
    return list.slice(0, limit).map((k) => {
      const info = k.tx.inMessage?.info;
      const internal = info?.type === "internal" ? info : null;
      return {
        "@type": "raw.transaction",
        address: { "@type": "accountAddress", account_address: Address.parseRaw(account).toString() },
        utime: k.utime,
        data: k.boc,
        transaction_id: { "@type": "internal.transactionId", lt: k.lt.toString(), hash: k.hash.toString("base64") },
        fee: k.tx.totalFees.coins.toString(),
        storage_fee: "0",
        other_fee: k.tx.totalFees.coins.toString(),
        in_msg: {
          "@type": "raw.message",
          source: internal ? internal.src.toString() : "",
          destination: Address.parseRaw(account).toString(),
          value: internal ? internal.value.coins.toString() : "0",
          fwd_fee: internal ? internal.forwardFee.toString() : "0",
          ihr_fee: "0",
          created_lt: internal ? internal.createdLt.toString() : "0",
          body_hash: k.tx.inMessage ? k.tx.inMessage.body.hash().toString("base64") : "",
          msg_data: { "@type": "msg.dataRaw", body: k.tx.inMessage ? k.tx.inMessage.body.toBoc().toString("base64") : "", init_state: "" },
          message: "",
        },
        out_msgs: [],
      };
    });
  }

  /**
   * docs.ton.org/ecosystem/api/toncenter/v2/run-method/run-get-method: POST `{ address, method,
   * stack }`, stack entries `["num", "0x…"]` or `["tvm.Slice", "<boc base64>"]`; answers
   * `{ gas_used, stack, exit_code }`, a cell or slice as `["cell", { bytes }]`.
   */
  private async runGetMethod(body: { address: string; method: string; stack: [string, string][] }) {
    const args: TupleItem[] = body.stack.map(([type, value]) => (type === "num" ? { type: "int", value: BigInt(value) } : { type: "slice", cell: Cell.fromBase64(value) }));
    try {
      const r = await this.chain.runGetMethod(Address.parse(body.address), body.method, args);
      const stack = r.stack.map((item) => {
        if (item.type === "int") return ["num", `0x${item.value.toString(16)}`];
        if (item.type === "cell" || item.type === "slice" || item.type === "builder") return ["cell", { bytes: item.cell.toBoc().toString("base64") }];
        return ["null", null];
      });
      return { "@type": "smc.runResult", gas_used: Number(r.gasUsed), stack, exit_code: r.exitCode };
    } catch (e) {
      if (e instanceof GetMethodError) return { "@type": "smc.runResult", gas_used: 0, stack: [], exit_code: e.exitCode };
      throw e;
    }
  }
}

async function readJson<T = never>(req: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as T;
}
