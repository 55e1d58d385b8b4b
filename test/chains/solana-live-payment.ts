import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { claimSolanaReference } from "@/db/queries/solana";
import { businesses, chainCursors, charges, payments } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import type { CreateBusinessInput } from "@/lib/businesses/schemas";
import { selectCoin } from "@/lib/checkout/select";
import { followSolana, type SolanaFollowOptions } from "@/lib/chains/solana/follower";
import { solanaClient } from "@/lib/chains/solana/rpc";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { newSolanaReference } from "@/lib/wallets/solana";
import { createPayment, newBusiness } from "../helpers";

const DAY_SECONDS = 86_400;
const WEEK = 7 * 86_400_000;

/**
 * A live business's payment with a charge in `coin` paid to `wallet`, for the Solana watcher's
 * tests: a test business chooses the coin, then its charge names the merchant's wallet and the
 * payment a reference, and it turns live (the watcher follows live businesses' charges only).
 * `retire` (the file's oneChainFileAtATime handle) turns it back to test mode at the file's end.
 */
export async function solanaLivePayment(
  db: Db,
  coin: CoinName,
  wallet: string,
  retire: (businessId: number) => void,
  input: Partial<CreateBusinessInput> = {},
  /** Another payment of this business (its coins enabled): it turns test for the choice, live again after. */
  of?: Awaited<ReturnType<typeof newBusiness>>,
) {
  const business = of ?? (await newBusiness({ paymentLifetimeSeconds: DAY_SECONDS, enabledCoins: [coin], ...input }));
  if (of) await db.update(businesses).set({ mode: "test" }).where(eq(businesses.id, of.businessId));
  const { id } = await createPayment(business);
  await selectCoin(db, id, coin);
  await db.update(charges).set({ address: wallet }).where(eq(charges.paymentId, id));
  const reference = await claimSolanaReference(db, id, newSolanaReference(), new Date());
  await db.update(businesses).set({ mode: "live" }).where(eq(businesses.id, business.businessId));
  retire(business.businessId);
  const charge = (await findCharge(db, id))!;
  return { id, business, reference, address: wallet, units: BigInt(charge.quotedUnits), required: charge.requiredConfirmations };
}

/** A Solana watcher following `url` with `followSolana` itself, each under a cursor of its own (test files may share one database). */
export function solanaWatcher(db: Db, url: string, mints: () => ReadonlyMap<CoinName, string>) {
  const rpc = solanaClient(url);
  const options = (extra: Partial<SolanaFollowOptions> = {}): SolanaFollowOptions => ({
    rpc,
    net: "regtest",
    owner: "a",
    cursor: `SOLANA-${randomUUID()}`,
    lateWindowMs: WEEK,
    decide: reconcilePayment,
    mints: mints(),
    ...extra,
  });
  return {
    rpc,
    options,
    tick: (o: SolanaFollowOptions, extra: Partial<SolanaFollowOptions> = {}) => followSolana(db, { ...o, ...extra }),
    status: async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status,
    transfersOf: (id: string) => listTransfers(db, id),
    cursorOf: async (o: SolanaFollowOptions) => (await listChainCursors(db)).find((c) => c.chain === o.cursor)!,
  };
}

/** The chain's own cursor ("SOLANA", which the driver follows) as on a first start: no slot read and no lease. */
export async function freshSolanaCursor(db: Db) {
  await db.update(chainCursors).set({ height: null, blockHash: null, recent: [], leaseOwner: null, leaseUntil: null }).where(eq(chainCursors.chain, "SOLANA"));
}
