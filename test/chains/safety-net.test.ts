import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Address } from "viem";
import { getDb } from "@/db/client";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { payments } from "@/db/schema";
import { unitsToDecimal } from "@/domain/amounts";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { checkOpenAddresses } from "@/lib/chains/bitcoin/safety-net";
import { checkOpenEvmAddresses } from "@/lib/chains/evm/safety-net";
import { selectCoin } from "@/lib/checkout/select";
import { chainFollowed, createPayment, newBusiness } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { anvilWallet } from "./nodes/anvil-wallet";
import { startAnvil, type Anvil } from "./nodes/anvil";
import { LITECOIN_REGTEST_TPUB, litecoindInstalled, startLitecoind, type Litecoind } from "./nodes/litecoind";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { log } from "@/log/logger.mjs";

/**
 * The check after catching up: every open payment's address asked about directly, so money the
 * block-by-block reading missed is still found (Bitcoin family, recorded) or reported (Ethereum,
 * where no standard call lists an address's transactions).
 */
const status = async (id: string) => (await (await getDb()).select().from(payments).where(eq(payments.id, id)))[0].status;

oneChainFileAtATime();

describe.runIf(litecoindInstalled() || process.env.CI === "true")("Bitcoin family: scantxoutset (Litecoin Core, regtest)", () => {
  let node: Litecoind;
  beforeAll(async () => {
    node = await startLitecoind();
    await node.rpc.call("createwallet", ["miner"]);
    await node.rpc.call("generatetoaddress", [101, await node.wallet("miner").call<string>("getnewaddress")]);
  }, 60_000);
  afterAll(async () => node?.stop(), 30_000);

  it("records an output the blocks never showed the watcher, once, and decides the payment's status", async () => {
    const db = await getDb();
    await chainFollowed("LITECOIN", { network: "regtest" });
    const b = await newBusiness({ mode: "live", enabledCoins: ["LITECOIN"], extendedPublicKeys: { LITECOIN: LITECOIN_REGTEST_TPUB } });
    const { id } = await createPayment(b);
    await selectCoin(db, id, "LITECOIN");
    const charge = (await findCharge(db, id))!;
    const txid = await node.wallet("miner").call<string>("sendtoaddress", [charge.address, unitsToDecimal(BigInt(charge.quotedUnits), 8)]);
    const [block] = await node.rpc.call<string[]>("generatetoaddress", [1, await node.wallet("miner").call<string>("getnewaddress")]);

    expect(await checkOpenAddresses(db, { chain: "LITECOIN", rpc: node.rpc, now: new Date(), decide: reconcilePayment })).toBe(1);
    const [t] = await listTransfers(db, id);
    expect(t).toMatchObject({ amount: charge.quotedUnits, blockHash: block, confirmations: 1, late: false });
    expect(t.txId.startsWith(`${txid}:`)).toBe(true);
    expect(await status(id)).toBe("PENDING"); // LITECOIN needs 2 confirmations
    expect(await checkOpenAddresses(db, { chain: "LITECOIN", rpc: node.rpc, now: new Date(), decide: reconcilePayment })).toBe(0);
  }, 60_000);
});

describe("Ethereum: balances against the records (anvil)", () => {
  let node: Anvil;
  beforeAll(async () => {
    node = await startAnvil();
  }, 60_000);
  afterAll(async () => node?.stop());

  it("reports an open address that holds more than was recorded, naming the payment", async () => {
    const db = await getDb();
    await chainFollowed("ETHEREUM");
    const b = await newBusiness({ mode: "live", enabledCoins: ["ETHEREUM"], extendedPublicKeys: { ETHEREUM: TEST_EXTENDED_PUBLIC_KEYS.ETHEREUM } });
    const { id } = await createPayment(b);
    await selectCoin(db, id, "ETHEREUM");
    const charge = (await findCharge(db, id))!;
    await anvilWallet(node).pay(charge.address as Address, 12_345n);
    const warn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const info = vi.spyOn(log, "info").mockImplementation(() => {});
    try {
      expect(await checkOpenEvmAddresses(db, { client: node.client, contractOf: () => undefined, now: new Date() })).toBeGreaterThanOrEqual(1);
      expect(warn.mock.calls.map((c) => String(c[1]))).toContainEqual(
        `payment ${id}: ${charge.address} holds 12345 base units of ETHEREUM, 0 recorded`,
      );
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
    expect(await status(id)).toBe("AWAITING_PAYMENT");
  }, 60_000);
});
