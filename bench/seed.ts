import type { Db } from "@/db/client";
import { query } from "./db";

/** Distinct customers with an email per business; a quarter of the payments have no email. */
export const EMAIL_CUSTOMERS = 20_000;
/** Seeded payments are 30 s apart, newest first: payment g was created `g × 30 s` before the anchor. */
export const SPACING_MS = 30_000;
const BATCH = 50_000;

export type Business = { businessId: number; apiKey: string };

/** A test-mode business and its API key, made by the same service function as the admin API. */
export async function createBenchBusiness(db: Db, name: string, webhookUrl?: string): Promise<Business> {
  const { createBusiness } = await import("@/lib/businesses/businesses");
  const b = await createBusiness(db, { name, mode: "test", ...(webhookUrl ? { webhookUrl } : {}) });
  return { businessId: b.businessId, apiKey: b.apiKey };
}

const ts = (e: string) => `to_char((${e}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const entry = (time: string, status: string) => `jsonb_build_object('time', ${ts(time)}, 'paymentStatus', '${status}')`;

export type SeedSpec = {
  businessId: number;
  /** Payments numbered `from..to` (1-based); numbering decides every column, so seeding can grow in steps. */
  from: number;
  to: number;
  anchor: Date;
  /** Explicit customer ids start above this (keeps businesses' customers apart). */
  customerBase: number;
  /** All AWAITING_PAYMENT and already past `expiresAt` (the expiry measurement). */
  expiring?: boolean;
};

/**
 * Inserts payments with `INSERT … SELECT generate_series` in batches, into the real tables and
 * shaped like the API's own rows: a customer per payment (shared by email, or one of its own),
 * the timeline and one payment_events row per entry, and for paid/failed payments the charge
 * with its transfer. Statuses: the newest hour AWAITING_PAYMENT (not yet due), then 50 %
 * COMPLETED, 35 % EXPIRED, 10 % CANCELLED, 5 % FAILED.
 */
export async function seedPayments(db: Db, s: SeedSpec): Promise<void> {
  const anchor = `'${s.anchor.toISOString()}'::timestamptz`;
  const cb = s.customerBase;
  if (!s.expiring) await query(
    db,
    `insert into customers (id, business_id, email, created_at)
     select ${cb} + k, ${s.businessId}, 'buyer' || k || '@example.com', ${anchor} - interval '400 days'
     from generate_series(1, ${EMAIL_CUSTOMERS}) k on conflict do nothing`,
  );
  for (let a = s.from; a <= s.to; a += BATCH) {
    const b = Math.min(s.to, a + BATCH - 1);
    await db.transaction(async (tx) => {
      await query(tx, seedBatchSql(s, anchor, a, b));
      await query(tx, eventsSql(anchor, s, a, b));
      if (!s.expiring) await query(tx, chargesSql(createdRange(anchor, s, a, b)));
    });
  }
  await query(db, `select setval('customers_id_seq', (select max(id) from customers))`);
}

function createdAt(anchor: string, s: SeedSpec, g: string) {
  // Expiring payments: created two hours ago, a millisecond apart, so all are due together.
  return s.expiring
    ? `(${anchor} - interval '2 hours' - ${g} * interval '1 millisecond')`
    : `(${anchor} - ${g} * interval '${SPACING_MS} milliseconds' - (${g} % 1000) * interval '1 millisecond')`;
}

function createdRange(anchor: string, s: SeedSpec, a: number, b: number) {
  return `p.business_id = ${s.businessId} and p.created_at between ${createdAt(anchor, s, String(b))} and ${createdAt(anchor, s, String(a))}`;
}

function seedBatchSql(s: SeedSpec, anchor: string, a: number, b: number): string {
  const status = s.expiring
    ? `'AWAITING_PAYMENT'`
    : `case when g * ${SPACING_MS} < 3600000 then 'AWAITING_PAYMENT'
            when (g * 7919) % 100 < 50 then 'COMPLETED' when (g * 7919) % 100 < 85 then 'EXPIRED'
            when (g * 7919) % 100 < 95 then 'CANCELLED' else 'FAILED' end`;
  const timeline = `case st
      when 'COMPLETED' then jsonb_build_array(${entry("c", "AWAITING_PAYMENT")}, ${entry("c + interval '60 s'", "PENDING")},
        ${entry("c + interval '600 s'", "PROCESSING")}, ${entry("c + interval '601 s'", "COMPLETED")})
      when 'EXPIRED' then jsonb_build_array(${entry("c", "AWAITING_PAYMENT")}, ${entry("c + interval '3600 s'", "EXPIRED")})
      when 'CANCELLED' then jsonb_build_array(${entry("c", "AWAITING_PAYMENT")}, ${entry("c + interval '120 s'", "CANCELLED")})
      when 'FAILED' then jsonb_build_array(${entry("c", "AWAITING_PAYMENT")}, ${entry("c + interval '60 s'", "PENDING")},
        ${entry("c + interval '300 s'", "FAILED")})
      else jsonb_build_array(${entry("c", "AWAITING_PAYMENT")}) end`;
  const paid = `st in ('COMPLETED', 'FAILED')`;
  // Expiring payments: every one with a customer of its own (no email).
  const anonymous = s.expiring ? "true" : "g % 4 = 0";
  const cid = `case when ${anonymous} then ${s.customerBase + EMAIL_CUSTOMERS} + g else ${s.customerBase} + 1 + g % ${EMAIL_CUSTOMERS} end`;
  return `
    with s as (
      select g, ${createdAt(anchor, s, "g")} as c, ${status} as st, round(5 + ((g * 37) % 50000) / 100.0, 2) as amt
      from generate_series(${a}::bigint, ${b}::bigint) g
    ), anon as (
      insert into customers (id, business_id, email, created_at)
      select ${s.customerBase + EMAIL_CUSTOMERS} + g, ${s.businessId}, null, c from s where ${anonymous}
    )
    insert into payments (id, business_id, customer_id, customer_email, name, description, note, currency,
      amount, end_amount, platform_fee, net_amount_usd, status, offered_coins, selected_payment_method, selected_coin,
      metadata, redirect_url, timeline, created_at, expires_at, updated_at)
    select gen_random_uuid(), ${s.businessId}, ${cid},
      case when ${anonymous} then null else 'buyer' || (1 + g % ${EMAIL_CUSTOMERS}) || '@example.com' end,
      'Order #' || g,
      (array['2x T-shirt, 1x mug', 'Annual subscription', 'Gift card', 'Hoodie (L)', 'Sticker pack'])[1 + g % 5],
      case when g % 10 = 0 then 'Called the customer about delivery' end,
      (array['USD', 'EUR', 'GBP'])[1 + g % 3],
      amt, amt,
      case when st = 'COMPLETED' then round(amt * 0.01, 2) end,
      case when st = 'COMPLETED' then round(amt * 0.99, 2) end,
      st,
      (select enabled_coins from businesses where id = ${s.businessId}),
      case when ${paid} then 'PLATFORM_CRYPTO' end,
      case when ${paid} then (array['BITCOIN', 'ETHEREUM', 'LITECOIN', 'TRX_TETHER'])[1 + g % 4] end,
      jsonb_build_object('orderId', g::text),
      'https://shop.example.com/orders/' || g || '/thanks',
      ${timeline},
      c, c + interval '3600 s',
      c + case st when 'COMPLETED' then interval '601 s' when 'EXPIRED' then interval '3600 s'
        when 'CANCELLED' then interval '120 s' when 'FAILED' then interval '300 s' else interval '0 s' end
    from s`;
}

/** One event per timeline entry, as the state machine writes them. */
function eventsSql(anchor: string, s: SeedSpec, a: number, b: number): string {
  return `
    insert into payment_events (payment_id, type, from_status, to_status, created_at)
    select p.id,
      case e.v->>'paymentStatus' when 'AWAITING_PAYMENT' then 'PAYMENT_CREATED' else 'PAYMENT_' || (e.v->>'paymentStatus') end,
      lag(e.v->>'paymentStatus') over (partition by p.id order by e.i),
      e.v->>'paymentStatus',
      (e.v->>'time')::timestamptz
    from payments p, jsonb_array_elements(p.timeline) with ordinality e(v, i)
    where ${createdRange(anchor, s, a, b)}`;
}

/** The charge (the quote at a static rate) and its transfer; a FAILED payment's transfer was dropped. */
function chargesSql(where: string): string {
  const coin = (m: Record<string, string | number>) =>
    `case p.selected_coin ${Object.entries(m).map(([k, v]) => `when '${k}' then ${typeof v === "number" ? v : `'${v}'`}`).join(" ")} end`;
  const rate = coin({ BITCOIN: 65000, ETHEREUM: 3000, LITECOIN: 80, TRX_TETHER: 1 });
  const decimals = coin({ BITCOIN: 8, ETHEREUM: 18, LITECOIN: 8, TRX_TETHER: 6 });
  const network = coin({ BITCOIN: "BTC", ETHEREUM: "ETHEREUM", LITECOIN: "LTC", TRX_TETHER: "TRON" });
  const confirmations = coin({ BITCOIN: 1, ETHEREUM: 12, LITECOIN: 2, TRX_TETHER: 19 });
  return `
    with c as (
      insert into charges (payment_id, coin, charge_type, network, address, derivation_scope, derivation_index,
        wallet_name, quoted_units, exchange_rate, rate_source, required_confirmations, tolerance_percent, created_at, updated_at)
      select p.id, p.selected_coin, 'PLATFORM_CRYPTO', ${network}, 'bench' || md5(p.id::text),
        'test:' || ${network}, 0, 'test-wallet', floor(p.amount / ${rate} * power(10::numeric, ${decimals})), ${rate},
        'static', ${confirmations}, 0, p.created_at + interval '30 s', p.created_at + interval '30 s'
      from payments p where ${where} and p.selected_coin is not null
      returning payment_id, address, quoted_units, required_confirmations, created_at
    )
    insert into transfers (payment_id, tx_id, amount, confirmations, block_number, from_address, to_address, dropped, seen_at, updated_at)
    select c.payment_id, md5(c.address), c.quoted_units, c.required_confirmations, '100000', 'bench-sender', c.address,
      p.status = 'FAILED', c.created_at + interval '30 s', c.created_at + interval '570 s'
    from c join payments p on p.id = c.payment_id`;
}
