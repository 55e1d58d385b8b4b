import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { listChainCursors } from "@/db/queries/chain-cursors";
import { findCharge, listTransfers } from "@/db/queries/charges";
import { findTonComment, listTonUnmatched, setTonWallet } from "@/db/queries/ton";
import { businesses, charges, payments } from "@/db/schema";
import type { CoinName } from "@/domain/coins";
import type { CreateBusinessInput } from "@/lib/businesses/schemas";
import { selectCoin } from "@/lib/checkout/select";
import { followTon, type TonFollowOptions } from "@/lib/chains/ton/follower";
import { jettonHandler, jettonWalletsOf } from "@/lib/chains/ton/jettons";
import { reconcilePayment } from "@/lib/payments/reconcile";
import { parseTonAddress } from "@/lib/wallets/ton";
import { createPayment, newBusiness } from "../helpers";

const DAY_SECONDS = 86_400;
const WEEK = 7 * 86_400_000;

/**
 * A live business's payment with a charge in `coin` paid to `wallet` (a TON address in any form),
 * for the TON watcher's tests: a test business chooses the coin (the payment gets its comment),
 * its charge names the merchant's wallet, the business's TON wallet is set, and it turns live (the
 * watcher follows live businesses only). `retire` turns it back to test mode at the file's end.
 */
export async function tonLivePayment(db: Db, coin: CoinName, wallet: string, retire: (businessId: number) => void, input: Partial<CreateBusinessInput> = {}) {
  const business = await newBusiness({ paymentLifetimeSeconds: DAY_SECONDS, enabledCoins: [coin], ...input });
  const { id } = await createPayment(business);
  await selectCoin(db, id, coin);
  await db.update(charges).set({ address: wallet }).where(eq(charges.paymentId, id));
  const parsed = parseTonAddress(wallet);
  if (typeof parsed === "string") throw new Error(parsed);
  await setTonWallet(db, business.businessId, { address: parsed.raw, testnet: parsed.testnet }, new Date(Date.now() - 2_000));
  await db.update(businesses).set({ mode: "live" }).where(eq(businesses.id, business.businessId));
  retire(business.businessId);
  const charge = (await findCharge(db, id))!;
  return { id, business, comment: (await findTonComment(db, id))!, units: BigInt(charge.quotedUnits), required: charge.requiredConfirmations };
}

/** A TON watcher following `url` with `followTon` itself, each under a cursor of its own (test files may share one database). */
export function tonWatcher(db: Db, url: string, masters: () => ReadonlyMap<CoinName, string>) {
  const cache = new Map<string, Map<CoinName, string>>();
  const api = { url, apiKey: undefined as string | undefined };
  const options = (extra: Partial<TonFollowOptions> = {}): TonFollowOptions => ({
    api,
    net: "regtest",
    owner: "a",
    cursor: `TON-${randomUUID()}`,
    lateWindowMs: WEEK,
    decide: reconcilePayment,
    jettonWallets: (owner) => jettonWalletsOf(api, masters(), owner, cache),
    onJetton: jettonHandler(db),
    ...extra,
  });
  return {
    api,
    options,
    tick: (o: TonFollowOptions, extra: Partial<TonFollowOptions> = {}) => followTon(db, { ...o, ...extra }),
    status: async (id: string) => (await db.select().from(payments).where(eq(payments.id, id)))[0].status,
    transfersOf: (id: string) => listTransfers(db, id),
    reviewOf: (businessId: number) => listTonUnmatched(db, businessId),
    cursorOf: async (o: TonFollowOptions) => (await listChainCursors(db)).find((c) => c.chain === o.cursor)!,
  };
}
