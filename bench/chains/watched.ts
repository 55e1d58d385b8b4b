import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { COINS, type CoinName } from "@/domain/coins";
import { requiredConfirmations } from "@/lib/chains/confirmations";
import { query } from "../db";

/**
 * Watched deposit addresses for the scan measurements: open payments (AWAITING_PAYMENT, due in a
 * day) of a live business, each with its charge in `coin` on one of `addresses`, inserted in
 * batches of 10 000 (`INSERT … SELECT` over the batch's addresses, as bench/seed.ts seeds). The
 * rows are those the checkout writes (payment with its selected coin, one timeline entry; the
 * charge at a static rate), the addresses random ones of the node's network: nobody pays them
 * unless the bench does.
 */
export async function seedWatched(
  db: Db,
  o: { businessId: number; coin: CoinName; addresses: string[]; units: bigint; rate: string },
): Promise<void> {
  const [{ id: customerId }] = await query<{ id: number }>(
    db,
    sql`insert into customers (business_id, email, created_at) values (${o.businessId}, null, now()) returning id`,
  );
  const info = COINS[o.coin];
  for (let i = 0; i < o.addresses.length; i += 10_000) {
    const part = o.addresses.slice(i, i + 10_000).join(",");
    await db.transaction(async (tx) => {
      const ids = await query<{ id: string; address: string }>(
        tx,
        sql`insert into payments (id, business_id, customer_id, name, currency, amount, end_amount, status, offered_coins,
              selected_payment_method, selected_coin, metadata, timeline, created_at, expires_at, updated_at)
            select gen_random_uuid(), ${o.businessId}, ${customerId}, 'Watched ' || a, 'USD', 20, 20, 'AWAITING_PAYMENT',
              array[${o.coin}]::text[], ${info.chargeType}, ${o.coin}, '{}'::jsonb,
              jsonb_build_array(jsonb_build_object('time', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'paymentStatus', 'AWAITING_PAYMENT')),
              now(), now() + interval '1 day', now()
            from unnest(string_to_array(${part}, ',')) a
            returning id, substr(name, 9) as address`,
      );
      await query(
        tx,
        sql`insert into charges (payment_id, coin, charge_type, network, address, wallet_name, quoted_units, exchange_rate,
              rate_source, required_confirmations, tolerance_percent, created_at, updated_at)
            select p.id::uuid, ${o.coin}, ${info.chargeType}, ${info.network}, p.address, 'bench', ${o.units.toString()}::numeric,
              ${o.rate}::numeric, 'static', ${requiredConfirmations(o.coin)}, 0, now(), now()
            from unnest(string_to_array(${ids.map((r) => r.id).join(",")}, ','), string_to_array(${ids.map((r) => r.address).join(",")}, ',')) p(id, address)`,
      );
    });
  }
}
