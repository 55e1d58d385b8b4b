import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { HDKey } from "@scure/bip32";
import { TronWeb } from "tronweb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type Db } from "@/db/client";
import { config } from "@/lib/config";
import { CHAIN_POLL_MS, followConfiguredChains } from "@/lib/chains/follow";
import { selectCoin } from "@/lib/checkout/select";
import { checkoutView } from "@/lib/checkout/view";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { adminToken, createPayment, json, newBusiness, request } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { freePort } from "../chains/nodes/free-port";
import { startTronNode, type TronNode } from "../chains/nodes/tron-node";
import { freshTronCursor } from "../chains/tron-live-payment";
import { log } from "@/log/logger.mjs";

/**
 * Live businesses' TRON deposit addresses, with TRON_RPC_URL naming a fake java-tron node that
 * the runner's chain job (followConfiguredChains) follows: the key is checked when the business is
 * made, and each address is the base58 `T…` one its key derives, as a wallet holding the
 * mnemonic computes it, and the node's chain pays it.
 */

const chainFile = oneChainFileAtATime();

describe("TRON deposit addresses of live businesses", () => {
  let node: TronNode;
  let db: Db;
  let usdt: { address: string; hex: string };
  const t0 = new Date();
  /** The runner's chain job, as the service runs it at `at`. */
  const follow = (at: Date) => followConfiguredChains(db, { ...config().chains, rpcUrls: { TRON: node.url } }, reconcilePayment, at);

  beforeAll(async () => {
    // The configuration is read on first use: the node's address and its token contract are set before.
    const port = await freePort();
    node = await startTronNode({ port, network: "mainnet" });
    usdt = node.deployToken({ symbol: "USDT", decimals: 6, name: "Tether USD" });
    process.env.TRON_RPC_URL = node.url;
    process.env.TRON_TOKEN_CONTRACTS = JSON.stringify({ TRX_TETHER: usdt.address });
    expect(config().chains.rpcUrls.TRON).toBe(node.url);
    db = await getDb();
    await freshTronCursor(db);
    vi.spyOn(log, "info").mockImplementation(() => {});
    vi.spyOn(log, "error").mockImplementation(() => {}); // the built-in USDC contract is not on this node: refused

    const [tron] = await follow(t0);
    expect(tron).toMatchObject({ net: "main", lastError: null, lastResult: { followed: true } });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await node?.stop();
  });

  it("refuses a TRON key that is not an account xpub, naming extendedPublicKeys.TRON", async () => {
    for (const key of ["TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", TEST_EXTENDED_PUBLIC_KEYS.BITCOIN, "xpub-of-nothing"]) {
      const res = await request("POST", "/admin/v1/businesses", { key: adminToken(), body: { name: "Live", mode: "live", extendedPublicKeys: { TRON: key } } });
      expect(res.status).toBe(400);
      const errors = (await json(res)).errors;
      expect(Object.keys(errors)).toEqual(["extendedPublicKeys.TRON"]);
    }
  });

  it("derive base58 T… addresses from the business's own key, as a wallet derives m/44'/195'/0'/0/i from its mnemonic; the chain pays them", async () => {
    /** What a wallet holding `mnemonic` derives: the account key, and the address of each index from its private key. */
    const wallet = (mnemonic: string) => {
      const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
      const address = (i: number) => TronWeb.address.fromPrivateKey(bytesToHex(root.derive(`m/44'/195'/0'/0/${i}`).privateKey!));
      return { xpub: root.derive("m/44'/195'/0'").publicExtendedKey, address };
    };
    // The wallet's derivation, held to the published vector (docs: "abandon" ×11 "about", m/44'/195'/0'/0/0).
    const abandon = wallet(`${"abandon ".repeat(11)}about`);
    expect([abandon.xpub, abandon.address(0)]).toEqual([TEST_EXTENDED_PUBLIC_KEYS.TRON, "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"]);
    const { xpub, address: walletAddress } = wallet(generateMnemonic(wordlist));
    // Its payments live a day: a file sharing the database may expire every payment due within hours.
    const b = await newBusiness({
      mode: "live",
      extendedPublicKeys: { TRON: xpub },
      enabledCoins: ["BITCOIN", "TRON", "CONTRACT_TRC20_TRX", "TRX_TETHER", "CONTRACT_TRC20_USDT"],
      paymentLifetimeSeconds: 86_400,
    });
    chainFile.retire(b.businessId);
    const first = await createPayment(b);
    const second = await createPayment(b);
    const offered = (await checkoutView(db, first.id))!.coins.map((c) => c.coin);
    expect(offered).toEqual(expect.arrayContaining(["TRON", "CONTRACT_TRC20_TRX", "TRX_TETHER", "CONTRACT_TRC20_USDT"]));
    expect(offered).not.toContain("BITCOIN");

    await selectCoin(db, first.id, "TRON");
    await selectCoin(db, second.id, "TRX_TETHER");
    const trx = (await checkoutView(db, first.id))!.charge!;
    const tether = (await checkoutView(db, second.id))!.charge!;
    expect(trx.address).toBe(walletAddress(0));
    expect(tether.address).toBe(walletAddress(1));
    for (const a of [trx.address, tether.address]) expect(TronWeb.isAddress(a) && a.startsWith("T")).toBe(true);
    expect(tether.tokenContract).toBe(usdt.address);
    expect(trx.tokenContract).toBeNull();

    // The chain takes the address, and the runner's job sees the payment in its block.
    const payer = node.newAccount();
    await node.sendTrx(payer, trx.address, BigInt(Math.round(Number(trx.amount) * 1e6)));
    await node.mine();
    const [tron] = await follow(new Date(t0.getTime() + CHAIN_POLL_MS));
    expect(tron).toMatchObject({ lastError: null, lastResult: { followed: true, transfers: 1 } });
    expect((await checkoutView(db, first.id))!).toMatchObject({ status: "PENDING", charge: { transfers: 1, confirmations: 1, requiredConfirmations: 19 } });
  });
});
