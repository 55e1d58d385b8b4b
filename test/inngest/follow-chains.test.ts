import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InngestTestEngine } from "@inngest/test";
import { getDb } from "@/db/client";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { chainCursors, payments } from "@/db/schema";
import { followChains, TICKS_PER_RUN } from "@/inngest/functions/follow-chains";
import { unitsToDecimal } from "@/domain/amounts";
import { CHAIN_POLL_MS } from "@/lib/chains/follow";
import { selectCoin } from "@/lib/checkout/select";
import { config } from "@/lib/config";
import { chainFollowed, createPayment, newBusiness } from "../helpers";
import { oneChainFileAtATime } from "../serial";
import { LITECOIN_REGTEST_TPUB, litecoindInstalled, startLitecoind, type Litecoind } from "../chains/nodes/litecoind";

oneChainFileAtATime();

const run = litecoindInstalled() || process.env.CI === "true";

/** One run, its sleeps between ticks mocked (the engine would otherwise never resume them). */
const runOnce = () =>
  new InngestTestEngine({ function: followChains }).execute({
    events: [{ name: "inngest/scheduled.timer", data: {} }],
    steps: Array.from({ length: TICKS_PER_RUN - 1 }, (_, i) => ({ id: `wait-${i}`, handler: () => undefined })),
  });

describe("follow-chains (Inngest cron function)", () => {
  it("runs every minute, one tick per poll interval within it", () => {
    expect(followChains.opts.triggers).toEqual([{ cron: "* * * * *" }]);
    expect(TICKS_PER_RUN * CHAIN_POLL_MS).toBeLessThan(60_000);
  });

  describe.runIf(run)("against Litecoin Core in regtest", () => {
    let node: Litecoind;
    const chains = config().chains;
    const urls = chains.rpcUrls;
    beforeAll(async () => {
      node = await startLitecoind();
      await node.rpc.call("createwallet", ["miner"]);
      await node.rpc.call("generatetoaddress", [101, await node.wallet("miner").call<string>("getnewaddress")]);
      chains.rpcUrls = { LITECOIN: node.url };
      // The chain's own row, as on a service's first start (a shared database keeps other files' rows; files take turns).
      await (await getDb()).delete(chainCursors).where(eq(chainCursors.chain, "LITECOIN"));
    }, 60_000);
    afterAll(async () => {
      chains.rpcUrls = urls;
      await node?.stop();
    }, 30_000);

    it("follows the configured node as the embedded runner does: a payment in the mempool becomes PENDING", async () => {
      const db = await getDb();
      // The first run starts at the node's tip.
      const first = await runOnce();
      expect(first.error).toBeUndefined();
      expect(first.result).toMatchObject({ ticks: TICKS_PER_RUN, chains: { LITECOIN: { to: 101, error: null } } });

      await chainFollowed("LITECOIN", { network: "regtest" });
      const b = await newBusiness({ mode: "live", enabledCoins: ["LITECOIN"], extendedPublicKeys: { LITECOIN: LITECOIN_REGTEST_TPUB } });
      const { id } = await createPayment(b);
      await selectCoin(db, id, "LITECOIN");
      const charge = (await findCharge(db, id))!;
      await node.wallet("miner").call("sendtoaddress", [charge.address, unitsToDecimal(BigInt(charge.quotedUnits), 8)]);
      // A chain is followed at most every CHAIN_POLL_MS: the next run's first tick comes after it.
      await new Promise((r) => setTimeout(r, CHAIN_POLL_MS));
      const second = await runOnce();
      expect(second.error).toBeUndefined();
      expect(await listTransfers(db, id)).toMatchObject([{ amount: charge.quotedUnits, confirmations: 0 }]);
      expect((await db.select().from(payments).where(eq(payments.id, id)))[0].status).toBe("PENDING");
    }, 60_000);
  });
});
