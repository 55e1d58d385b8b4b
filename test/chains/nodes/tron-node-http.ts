import type { IncomingMessage } from "node:http";
import { hexText, selectorOf } from "./tron-node-encoding";
import type { TronBlock, TronChain, TronTx } from "./tron-node-chain";
import { readToken } from "./tron-node-tokens";

/**
 * The java-tron HTTP API the fake TRON node serves: each route names the page of
 * tronprotocol/documentation-en (docs/api/http/…, commit 8f3209ef53d7) whose request and response
 * shapes it follows. Addresses print as hex (41…), as with `visible` false, the default.
 * `/walletsolidity/*` serves the solidified chain: nothing above the solidified block.
 */

type Body = Record<string, unknown>;
type Route = (chain: TronChain, body: Body, solidity: boolean) => unknown;

/** A request's fields: the JSON body of a POST, the query of a GET (java-tron reads either, per endpoint page). */
export async function requestBody(req: IncomingMessage, url: URL): Promise<Body | { Error: string }> {
  if (req.method === "GET") return Object.fromEntries(url.searchParams);
  let text = "";
  for await (const chunk of req) text += chunk;
  if (!text.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Body) : { Error: "class org.tron.json.JSONException : not an object" };
  } catch (err) {
    return { Error: `class org.tron.json.JSONException : ${(err as Error).message}` };
  }
}

/** `raw_data` as protobuf JSON prints it: zero fields (block 0's number) left out. */
const rawHeader = (b: TronBlock) => Object.fromEntries(Object.entries(b.header).filter(([, v]) => v !== 0));

/** A mined transaction (docs/api/http/block-and-tx-query/gettransactionbyid.md). */
const txJson = (item: TronBlock["txs"][number]) => ({ ret: [{ contractRet: item.contractRet }], ...pendingJson(item.tx) });
const pendingJson = (tx: TronTx) => ({ signature: tx.signature, txID: tx.txID, raw_data: tx.raw_data, raw_data_hex: tx.raw_data_hex });

/** A block (docs/api/http/block-and-tx-query/getnowblock.md); `transactions` only with `detail` and when there are any. */
function blockJson(b: TronBlock | undefined, detail: boolean): unknown {
  if (!b) return {};
  const header = { raw_data: rawHeader(b), ...(b.witness_signature ? { witness_signature: b.witness_signature } : {}) };
  return { blockID: b.blockID, block_header: header, ...(detail && b.txs.length ? { transactions: b.txs.map(txJson) } : {}) };
}

const top = (chain: TronChain, solidity: boolean) => (solidity ? chain.solidified() : chain.head());
const blockAt = (chain: TronChain, n: number, solidity: boolean) => (n >= 0 && n <= top(chain, solidity) ? chain.blocks[n] : undefined);
const truthy = (v: unknown) => v === true || v === "true";
const num = (v: unknown) => (v === undefined || v === "" ? 0 : Number(v));
/** A mined transaction the view has (the solidity view: only in solidified blocks). */
function minedTx(chain: TronChain, id: unknown, solidity: boolean) {
  const found = typeof id === "string" ? chain.located(id.toLowerCase()) : undefined;
  return found && found.block.header.number <= top(chain, solidity) ? found : undefined;
}

const routes: Record<string, Route> = {
  // docs/api/http/block-and-tx-query/getnowblock.md (the servlet reads no body; full block with its transactions)
  getnowblock: (chain, _b, solidity) => blockJson(blockAt(chain, top(chain, solidity), solidity), true),

  // docs/api/http/block-and-tx-query/getblock.md: id_or_num is a decimal number, a 64-hex block id, or empty for the newest
  getblock: (chain, body, solidity) => {
    const key = body.id_or_num === undefined ? "" : String(body.id_or_num);
    const detail = truthy(body.detail);
    if (key === "") return blockJson(blockAt(chain, top(chain, solidity), solidity), detail);
    if (/^-\d+$/.test(key)) return { Error: "num must be non-positive number." };
    if (/^\d+$/.test(key) && key.length < 64) return blockJson(blockAt(chain, Number(key), solidity), detail);
    if (!/^[0-9a-fA-F]{64}$/.test(key)) return { Error: "id must be legal block hash." };
    const n = chain.byId.get(key.toLowerCase());
    return blockJson(n === undefined ? undefined : blockAt(chain, n, solidity), detail);
  },

  // docs/api/http/block-and-tx-query/getblockbynum.md (`num` defaults to 0)
  getblockbynum: (chain, body, solidity) => blockJson(blockAt(chain, num(body.num), solidity), true),

  // docs/api/http/block-and-tx-query/gettransactionbyid.md: mined transactions only (the pool answers gettransactionfrompending)
  gettransactionbyid: (chain, body, solidity) => {
    const found = minedTx(chain, body.value, solidity);
    return found ? txJson(found.item) : {};
  },

  // docs/api/http/block-and-tx-query/gettransactioninfobyid.md: `{}` until the transaction is in a block
  gettransactioninfobyid: (chain, body, solidity) => minedTx(chain, body.value, solidity)?.item.info ?? {},

  // docs/api/http/block-and-tx-query/gettransactioninfobyblocknum.md: `num <= 0` answers `{}`, an empty block `[]`. A block the
  // node does not have also answers `[]` (java-tron's Wallet catches ItemNotFoundException and returns the empty list).
  gettransactioninfobyblocknum: (chain, body, solidity) => {
    const n = num(body.num);
    if (!(n > 0)) return {};
    return blockAt(chain, n, solidity)?.txs.map((i) => i.info) ?? [];
  },

  // docs/api/http/block-and-tx-query/gettransactionfrompending.md
  gettransactionfrompending: (chain, body) => {
    const tx = typeof body.value === "string" ? chain.pending.get(body.value.toLowerCase()) : undefined;
    return tx ? pendingJson(tx) : {};
  },

  // docs/api/http/tx-build-and-broadcast/broadcasttransaction.md: `message` is the hex of its UTF-8 text (visible false)
  broadcasttransaction: (chain, body) => {
    const raw = body.raw_data as TronTx["raw_data"] | undefined;
    if (!raw || !Array.isArray(raw.contract) || !Array.isArray(body.signature ?? [])) return { Error: "class java.lang.NullPointerException : null" };
    const tx: TronTx = {
      txID: String(body.txID ?? "").toLowerCase(),
      raw_data: raw,
      raw_data_hex: String(body.raw_data_hex ?? "").toLowerCase(),
      signature: ((body.signature as string[] | undefined) ?? []).map((s) => String(s).toLowerCase()),
    };
    let refusal;
    try {
      refusal = chain.refuse(tx);
    } catch (err) {
      refusal = { code: "OTHER_ERROR", message: (err as Error).message };
    }
    if (refusal) return { result: false, code: refusal.code, message: hexText(refusal.message), txid: tx.txID };
    chain.pending.set(tx.txID, tx);
    return { result: true, code: "SUCCESS", txid: tx.txID };
  },

  // docs/api/http/node-and-tools/getnodeinfo.md: the head and solidified blocks as "Num:<height>,ID:<block id>" (BlockId.getString());
  // a node alone, no peers. The other fields a real node adds (configNodeInfo, machineInfo) are left out.
  getnodeinfo: (chain) => {
    const [head, solid] = [chain.blocks[chain.head()], chain.blocks[chain.solidified()]];
    return {
      beginSyncNum: chain.head(),
      block: `Num:${head.header.number},ID:${head.blockID}`,
      solidityBlock: `Num:${solid.header.number},ID:${solid.blockID}`,
      currentConnectCount: 0,
      activeConnectCount: 0,
      passiveConnectCount: 0,
      totalFlow: 0,
      peerList: [],
      cheatWitnessInfoMap: {},
    };
  },

  // docs/api/http/account/getaccount.md: `{}` for an account never activated; protobuf JSON leaves out a zero balance
  getaccount: (chain, body) => {
    const address = String(body.address ?? "").toLowerCase();
    if (!/^[0-9a-f]*$/.test(address)) return { Error: "class org.tron.core.services.http.JsonFormat$ParseException : 1:13: INVALID hex String" };
    const created = chain.created.get(address);
    if (created === undefined) return {};
    const balance = chain.trx.get(address) ?? 0n;
    return { address, ...(balance ? { balance } : {}), create_time: created };
  },

  // docs/api/http/smart-contract/triggerconstantcontract.md: return data in constant_result; an address with no contract fails
  // validation (result.code, the message in hex); a revert answers result.result true with transaction.ret[0].ret FAILED.
  triggerconstantcontract: (chain, body) => {
    const token = chain.tokens.get(String(body.contract_address ?? "").toLowerCase());
    if (!token) return { result: { code: "CONTRACT_VALIDATE_ERROR", message: hexText("Smart contract is not exist.") } };
    const data = typeof body.data === "string" && body.data ? body.data : selectorOf(String(body.function_selector ?? "")) + String(body.parameter ?? "");
    const out = readToken(token, data);
    if (!out.ok) {
      return { result: { result: true, message: hexText("REVERT opcode executed") }, energy_used: out.energy, constant_result: [""], transaction: { ret: [{ ret: "FAILED" }] } };
    }
    return { result: { result: true }, energy_used: out.energy, constant_result: [out.returned] };
  },
};

/** Endpoints with a /walletsolidity twin (each page's "Solidity endpoint" line). */
const SOLIDITY = new Set(["getnowblock", "getblock", "getblockbynum", "gettransactionbyid", "gettransactioninfobyid", "gettransactioninfobyblocknum"]);

/** The answer to `path`, or null for a path the node does not serve (404). */
export function route(chain: TronChain, path: string, body: Body): unknown {
  const m = /^\/(wallet|walletsolidity)\/([a-z]+)$/.exec(path);
  if (!m || !routes[m[2]] || (m[1] === "walletsolidity" && !SOLIDITY.has(m[2]))) return null;
  // java-tron prints base58 and text for `visible: true`; the watcher never asks for it, so this node refuses it rather than answer in hex.
  if (truthy(body.visible)) return { Error: "visible=true is not served by this test node" };
  return routes[m[2]](chain, body, m[1] === "walletsolidity");
}
