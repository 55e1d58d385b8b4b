import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { TronWeb, utils } from "tronweb";
import { freePort } from "./free-port";
import { TronChain, type TronTx, type Witness } from "./tron-node-chain";
import { hexAddress, tronJson } from "./tron-node-encoding";
import { requestBody, route } from "./tron-node-http";

/**
 * A fake java-tron full node for the TRON watcher's tests: a `node:http` server on 127.0.0.1
 * speaking the documented HTTP API (tron-node-http.ts) over an in-memory chain
 * (tron-node-chain.ts). No TRON node can run here (java-tron ships only as GitHub releases and
 * Docker images), so transactions are built and signed OFFLINE by tronweb: txIDs, signatures,
 * addresses and ABI data are genuine, and the node checks them on broadcast as java-tron does.
 */

export type TronAccount = { privateKey: string; address: string /* base58 T… */; hex: string /* 41… lower-case */ };
export type TronNode = {
  url: string;
  /** blockID of block 0. */
  genesisId: string;
  /** Every request received (the fixture's own broadcasts too): path and its TRON-PRO-API-KEY header (null if absent). */
  requests: { path: string; apiKey: string | null }[];
  head(): number;
  solidified(): number;
  /** Solidified = head − solidLag (default 18, TRON's 19-of-27 rule); 0 makes every block solidified at once. */
  solidLag: number;
  /** Freezes the solidified block at this height (null: follows head − solidLag again): a lagging solidity node. */
  holdSolidified(height: number | null): void;
  /** A tronweb-generated key pair, credited `sun` (default 10 000 TRX) outside any block; 0 leaves it unactivated. */
  newAccount(sun?: bigint): TronAccount;
  /** An emulated TRC-20 contract at a fresh address. */
  deployToken(o: { symbol: string; decimals: number; name?: string }): { address: string; hex: string };
  /** Credits token units outside any block (no log). */
  mint(contract: string, to: string, units: bigint): void;
  tokenBalance(contract: string, owner: string): bigint;
  trxBalance(owner: string): bigint;
  /** A TransferContract built by tronweb on this node's head, signed offline, POSTed to /wallet/broadcasttransaction; the txID, or the node's refusal as an Error ("CODE: message"). */
  sendTrx(from: TronAccount, to: string, sun: bigint): Promise<string>;
  /** transfer(to, units) on `contract` by `from`, or transferFrom(from, to, units) by `o.spender`; pooled even when it will revert. */
  sendToken(from: TronAccount, contract: string, to: string, units: bigint, o?: { spender?: TronAccount }): Promise<string>;
  approve(owner: TronAccount, contract: string, spender: string, units: bigint): Promise<string>;
  /** Mines `count` blocks (default 1): the first takes the whole pending pool, in order. */
  mine(count?: number): Promise<{ number: number; blockID: string }[]>;
  /** Appends `count` blocks of genuine signed transfers between generated accounts, without broadcasts; the pool waits for mine(). */
  mineBusy(count: number, o: { trx?: number; token?: { contract: string; count: number } }): Promise<void>;
  /** Replaces the newest `depth` blocks (all above the solidified one, else throws) by `depth + extra` of other ids; their transactions return to the pool but `o.drop`. */
  reorg(depth: number, o?: { extra?: number; drop?: string[] }): Promise<void>;
  /** Every request answers HTTP 503 (true), or is served again (false). */
  setDown(down: boolean): void;
  stop(): Promise<void>;
};

/** Block 0's id per network: its last 4 bytes are the chain id (docs/api/json-rpc/node/eth_chainId.md). */
const GENESIS: Record<string, string> = {
  mainnet: "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc",
  nile: "0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc",
  shasta: "0000000000000000de1aa88295e1fcf982742f773e0419c5a9c134c994a9059e",
};
const DEFAULT_SUN = 10_000_000_000n;
/*
 * Expiration an hour past the ref block (tronweb's own default is one minute): tests mine many
 * 3-second blocks in a moment, and java-tron takes expirations up to 24 hours ahead.
 */
const EXPIRY_MS = 3_600_000;
const FEE_LIMIT = 100_000_000;

export type TronNodeOptions = {
  network?: "mainnet" | "nile" | "shasta" | "private";
  /** Every request must carry it as TRON-PRO-API-KEY (else 401). */
  apiKey?: string;
  /** The port to listen on (default a free one): for a client told the URL before the node starts, e.g. a server in another process. */
  port?: number;
  /** Accounts funded at genesis from fixed private keys (hex), `sun` each (default 10 000 TRX): a process that only has the key can sign for them. */
  accounts?: { privateKey: string; sun?: bigint }[];
  /** Emulated TRC-20 contracts at fixed addresses (base58 or 41… hex), with genesis balances in units by owner address. */
  tokens?: { address: string; symbol: string; decimals: number; name?: string; balances?: Record<string, bigint> }[];
  /**
   * Mines a block with the pending pool every `autoMineMs` until stop(), as a real node makes one
   * every 3 s: a client that only speaks HTTP (broadcasttransaction) sees its transfer mined and
   * solidified without calling mine(). Unset, blocks come only from mine().
   */
  autoMineMs?: number;
};

export async function startTronNode(opts: TronNodeOptions = {}): Promise<TronNode> {
  const network = opts.network ?? "private";
  const genesisId = GENESIS[network] ?? `${"0".repeat(16)}${randomBytes(24).toString("hex")}`;
  // TRON's 27 super representatives, produce in turn; fixed keys so block ids repeat from run to run.
  const witnesses: Witness[] = Array.from({ length: 27 }, (_, i) => {
    const privateKey = sha256(utf8ToBytes(`tron-node witness ${i}`));
    return { privateKey, hex: hexAddress(TronWeb.address.fromPrivateKey(bytesToHex(privateKey)) as string) };
  });
  const chain = new TronChain(genesisId, Math.floor(Date.now() / 3_000) * 3_000, witnesses);
  // Offline: every build passes the ref block (blockHeader / txLocal), so tronweb never calls a node; port 9 (discard) would make a call fail loudly.
  const tronWeb = new TronWeb({ fullHost: "http://127.0.0.1:9" });
  const requests: TronNode["requests"] = [];
  let down = false;
  for (const a of opts.accounts ?? []) chain.credit(hexAddress(TronWeb.address.fromPrivateKey(a.privateKey) as string), a.sun ?? DEFAULT_SUN);
  for (const t of opts.tokens ?? []) {
    const hex = hexAddress(t.address);
    const balances = new Map(Object.entries(t.balances ?? {}).map(([owner, units]) => [hexAddress(owner), units]));
    chain.tokens.set(hex, { hex, symbol: t.symbol, decimals: t.decimals, name: t.name ?? t.symbol, balances, allowances: new Map() });
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const key = req.headers["tron-pro-api-key"];
    requests.push({ path: url.pathname, apiKey: typeof key === "string" ? key : null });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(tronJson(body));
    };
    if (down) return send(503, { Error: "node is down" });
    // TronGrid answers 401 Unauthorized to a request its key does not let through (andelf/tronpy#102); this node also
    // refuses a request with no key, so a test sees whether the watcher sends its key at all.
    if (opts.apiKey !== undefined && key !== opts.apiKey) return send(401, { Error: "TRON-PRO-API-KEY missing or unknown" });
    try {
      const body = await requestBody(req, url);
      if ("Error" in body) return send(200, body);
      const answer = route(chain, url.pathname, body);
      if (answer === null) return send(404, { Error: `no endpoint ${url.pathname}` });
      send(200, answer);
    } catch (err) {
      // java-tron's servlets print an uncaught exception as {"Error": "<class> : <message>"} (each endpoint page's last error row)
      send(200, { Error: `class ${(err as Error).name} : ${(err as Error).message}` });
    }
  });
  const port = opts.port ?? (await freePort());
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  const nodeUrl = `http://127.0.0.1:${port}`;
  // unref: a test that forgets stop() still lets its process exit.
  const autoMiner = opts.autoMineMs ? setInterval(() => chain.mine(1), opts.autoMineMs).unref() : undefined;

  const token = (contract: string) => {
    const t = chain.tokens.get(hexAddress(contract));
    if (!t) throw new Error(`no emulated token at ${contract}`);
    return t;
  };
  /** The ref block fields tronweb's getCurrentRefBlockParams takes from the head, with the timestamp a wallet sets (strictly rising, so equal payments are distinct txs). */
  let lastStamp = 0;
  const blockHeader = () => {
    const head = chain.headBlock();
    lastStamp = Math.max(Date.now(), lastStamp + 1);
    return {
      ref_block_bytes: head.header.number.toString(16).padStart(16, "0").slice(12),
      ref_block_hash: head.blockID.slice(16, 32),
      expiration: head.header.timestamp + EXPIRY_MS,
      timestamp: lastStamp,
    };
  };
  const base58 = (address: string) => TronWeb.address.fromHex(hexAddress(address));
  const buildTrx = async (from: TronAccount, to: string, sun: bigint): Promise<TronTx> => {
    if (sun > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error("tronweb takes amounts below 2^53 sun");
    const tx = await tronWeb.transactionBuilder.sendTrx(base58(to), Number(sun), from.address, { blockHeader: blockHeader() });
    return utils.crypto.signTransaction(from.privateKey, tx) as TronTx;
  };
  const buildCall = async (signer: TronAccount, contract: string, fn: string, params: { type: string; value: string }[]): Promise<TronTx> => {
    const options = { feeLimit: FEE_LIMIT, txLocal: true, blockHeader: blockHeader() };
    const built = await tronWeb.transactionBuilder.triggerSmartContract(base58(contract), fn, options, params, signer.address);
    return utils.crypto.signTransaction(signer.privateKey, built.transaction) as TronTx;
  };
  const broadcast = async (tx: TronTx): Promise<string> => {
    const res = await fetch(`${nodeUrl}/wallet/broadcasttransaction`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(opts.apiKey !== undefined ? { "TRON-PRO-API-KEY": opts.apiKey } : {}) },
      body: JSON.stringify(tx),
    });
    const reply = (await res.json()) as { result?: boolean; code?: string; message?: string; txid?: string; Error?: string };
    if (reply.result === true && reply.txid) return reply.txid;
    const message = reply.message ? new TextDecoder().decode(hexToBytes(reply.message)) : (reply.Error ?? `HTTP ${res.status}`);
    throw new Error(`${reply.code ?? "refused"}: ${message}`);
  };
  const newAccount = (sun = DEFAULT_SUN): TronAccount => {
    const a = utils.accounts.generateAccount();
    const account = { privateKey: a.privateKey.toLowerCase(), address: a.address.base58, hex: a.address.hex.toLowerCase() };
    if (sun > 0n) chain.credit(account.hex, sun);
    return account;
  };
  const addressParam = (a: string) => ({ type: "address", value: base58(a) });

  /*
   * mineBusy's senders: generated accounts funded outside any block, each block's transfers
   * rotating through them. Cost per block, measured on this 2-core machine: ~0.8 ms per TRX
   * transfer and ~1.1 ms per token transfer (tronweb build + sign; no broadcast or signature
   * recovery) plus ~1 ms for the block (its witness signature): 20 TRX transfers ≈ 20 ms a block,
   * 100 ≈ 75 ms.
   */
  const busy: TronAccount[] = [];
  let busyCount = 0;
  const busyAccount = (i: number) => {
    while (busy.length < 8) busy.push(newAccount(1_000_000_000_000_000n));
    return busy[i % busy.length];
  };

  return {
    url: nodeUrl,
    genesisId,
    requests,
    head: chain.head,
    solidified: chain.solidified,
    get solidLag() {
      return chain.solidLag;
    },
    set solidLag(lag: number) {
      chain.solidLag = lag;
    },
    holdSolidified: (height) => chain.hold(height),
    newAccount,
    deployToken({ symbol, decimals, name }) {
      const hex = `41${randomBytes(20).toString("hex")}`;
      chain.tokens.set(hex, { hex, symbol, decimals, name: name ?? symbol, balances: new Map(), allowances: new Map() });
      return { address: TronWeb.address.fromHex(hex), hex };
    },
    mint(contract, to, units) {
      const t = token(contract);
      t.balances.set(hexAddress(to), (t.balances.get(hexAddress(to)) ?? 0n) + units);
    },
    tokenBalance: (contract, owner) => token(contract).balances.get(hexAddress(owner)) ?? 0n,
    trxBalance: (owner) => chain.trx.get(hexAddress(owner)) ?? 0n,
    sendTrx: async (from, to, sun) => broadcast(await buildTrx(from, to, sun)),
    async sendToken(from, contract, to, units, o = {}) {
      const value = { type: "uint256", value: units.toString() };
      const tx = o.spender
        ? await buildCall(o.spender, contract, "transferFrom(address,address,uint256)", [addressParam(from.address), addressParam(to), value])
        : await buildCall(from, contract, "transfer(address,uint256)", [addressParam(to), value]);
      return broadcast(tx);
    },
    approve: async (owner, contract, spender, units) =>
      broadcast(await buildCall(owner, contract, "approve(address,uint256)", [addressParam(spender), { type: "uint256", value: units.toString() }])),
    mine: async (count = 1) => chain.mine(count).map((b) => ({ number: b.header.number, blockID: b.blockID })),
    async mineBusy(count, o) {
      if (o.token) {
        const t = token(o.token.contract);
        for (let i = 0; i < 8; i++) t.balances.set(busyAccount(i).hex, (t.balances.get(busyAccount(i).hex) ?? 0n) + 10n ** 30n);
      }
      for (let b = 0; b < count; b++) {
        const txs: TronTx[] = [];
        for (let i = 0; i < (o.trx ?? 0); i++, busyCount++) txs.push(await buildTrx(busyAccount(busyCount), busyAccount(busyCount + 1).hex, BigInt(1 + busyCount)));
        for (let i = 0; i < (o.token?.count ?? 0); i++, busyCount++) {
          const [from, to] = [busyAccount(busyCount), busyAccount(busyCount + 3)];
          txs.push(await buildCall(from, o.token!.contract, "transfer(address,uint256)", [addressParam(to.address), { type: "uint256", value: String(1 + busyCount) }]));
        }
        chain.append(txs);
      }
    },
    async reorg(depth, o = {}) {
      chain.reorg(depth, o.extra ?? 0, o.drop ?? []);
    },
    setDown(d) {
      down = d;
    },
    async stop() {
      clearInterval(autoMiner);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
