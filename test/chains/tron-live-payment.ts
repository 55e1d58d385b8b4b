import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { businesses, chainCursors, payments } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import type { CreateBusinessInput } from "@/lib/businesses/schemas";
import { selectCoin } from "@/lib/checkout/select";
import { followTronChain, type TronFollowOptions } from "@/lib/chains/tron/follower";
import { tronClient } from "@/lib/chains/tron/rpc";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { TEST_EXTENDED_PUBLIC_KEYS } from "@/lib/wallets/derive";
import { createPayment, newBusiness } from "../helpers";
import type { TronNode } from "./nodes/tron-node";

const DAY_SECONDS = 86_400;

/**
 * A live business's payment with a charge in `coin`, for the TRON watcher's tests, made as the
 * EVM tests make theirs (evm-live-payment.ts): a test business (offered the coin, its `T…`
 * addresses derived from the TRON test key with one counter for all test businesses, so no two
 * charges share one) chooses the coin, then turns live with that key, as the watcher follows live
 * businesses' charges only. `retire` (the file's oneChainFileAtATime handle) turns it back to test
 * mode at the file's end. `input` sets the business (its confirmations, say). Its payments live a
 * day: a file sharing the database may expire every payment due within hours (test/checkout).
 */
export async function tronLivePayment(db: Db, coin: CoinName, retire: (businessId: number) => void, input: Partial<CreateBusinessInput> = {}) {
  const business = await newBusiness({ paymentLifetimeSeconds: DAY_SECONDS, enabledCoins: [coin], ...input });
  const { id } = await createPayment(business);
  await selectCoin(db, id, coin);
  await db
    .update(businesses)
    .set({ mode: "live", extendedPublicKeys: { TRON: TEST_EXTENDED_PUBLIC_KEYS.TRON } })
    .where(eq(businesses.id, business.businessId));
  retire(business.businessId);
  const charge = (await findCharge(db, id))!;
  return { id, business, address: charge.address, units: BigInt(charge.quotedUnits), required: charge.requiredConfirmations };
}

const WEEK = 7 * 86_400_000;

/**
 * A TRON watcher following `node` with `followTronChain` itself, deciding statuses with the
 * payments layer's step, each under a cursor of its own (test files may share one database).
 * `tokens` maps configured contracts (41… hex) to the coins they pay; `url` is where the node is
 * reached (its own by default).
 */
export function tronWatcher(db: Db, node: TronNode, tokens: () => ReadonlyMap<string, readonly CoinName[]>, url = node.url) {
  const client = tronClient(url);
  const options = (extra: Partial<TronFollowOptions> = {}): TronFollowOptions => ({
    client,
    net: "regtest",
    owner: "a",
    cursor: `TRON-${randomUUID()}`,
    lateWindowMs: WEEK,
    decide: reconcilePayment,
    tokens: tokens(),
    ...extra,
  });
  const tick = (o: TronFollowOptions, extra: Partial<TronFollowOptions> = {}) => followTronChain(db, { ...o, ...extra });
  return {
    client,
    options,
    tick,
    /** A watcher's first tick: it starts at the node's tip. */
    async started(extra: Partial<TronFollowOptions> = {}) {
      const o = options(extra);
      expect(await tick(o)).toMatchObject({ followed: true, to: node.head() });
      return o;
    },
    status: async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status,
    transfersOf: (id: string) => listTransfers(db, id),
    cursorOf: async (o: TronFollowOptions) => (await listChainCursors(db)).find((c) => c.chain === o.cursor)!,
  };
}

/**
 * The chain's own cursor ("TRON", which the driver and the runner's job follow) as on a service's
 * first start: no block read and no lease. Its health (network, coins, last tick) stays: a file
 * sharing the database may be reading it, and every file marks TRON the same way, a mainnet node
 * (test/helpers.ts chainFollowed), so the files following the cursor run mainnet nodes.
 */
export async function freshTronCursor(db: Db) {
  await db.update(chainCursors).set({ height: null, blockHash: null, recent: [], leaseOwner: null, leaseUntil: null }).where(eq(chainCursors.chain, "TRON"));
}
