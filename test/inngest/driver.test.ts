import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { paymentStates } from "@/db/queries/payments-read";
import { listDeliveries } from "@/db/queries/webhooks";
import { inTransaction } from "@/db/transaction";
import {
  backgroundDriverOf,
  createEventSender,
  isSettled,
  startBackground,
  stopBackground,
  whenBackgroundIdle,
  type OutgoingEvent,
} from "@/lib/background/driver";
import { inngest } from "@/lib/background/inngest-client";
import { cancelPayment } from "@/lib/checkout/cancel";
import { loadForUpdate } from "@/lib/payments/lock";
import { ConfigError, loadConfig } from "@/lib/config";
import { subscribe } from "@/lib/events/bus";
import { transition } from "@/lib/payments/state-machine";
import { PAYMENT_STATUSES } from "@/domain/statuses";
import { createPayment, newBusiness } from "../helpers";
import { oneDeliveringFileAtATime } from "./support";

// A shared PostgreSQL: take turns with the other files that deliver webhooks.
oneDeliveringFileAtATime();

const base = { NODE_ENV: "test", DATA_DIR: ":memory:" } as const;
const driverFor = (env: Record<string, string>) => backgroundDriverOf(loadConfig({ ...base, ...env }));

afterEach(() => {
  stopBackground();
  vi.restoreAllMocks();
});

describe("choosing the background driver", () => {
  it("without Inngest settings: the embedded runner", () => {
    expect(driverFor({})).toBe("embedded");
    expect(driverFor({ INNGEST_DEV: "" })).toBe("embedded");
    expect(driverFor({ INNGEST_DEV: "0" })).toBe("embedded");
    expect(driverFor({ INNGEST_DEV: "false" })).toBe("embedded");
    expect(driverFor({ INNGEST_SIGNING_KEY: "signkey-test-abc", INNGEST_BASE_URL: "http://inngest:8288" })).toBe("embedded");
    expect(loadConfig({ ...base }).inngest).toEqual({
      enabled: false,
      eventKey: undefined,
      signingKey: undefined,
      dev: false,
      baseUrl: undefined,
    });
  });

  it("INNGEST_DEV (1, true or a Dev Server URL) or an event key: Inngest", () => {
    expect(driverFor({ INNGEST_DEV: "1" })).toBe("inngest");
    expect(driverFor({ INNGEST_DEV: "true" })).toBe("inngest");
    expect(driverFor({ INNGEST_DEV: "http://localhost:8288" })).toBe("inngest");
    expect(driverFor({ INNGEST_EVENT_KEY: "evt", INNGEST_SIGNING_KEY: "signkey-prod-00ff" })).toBe("inngest");
    expect(loadConfig({ ...base, INNGEST_EVENT_KEY: "evt", INNGEST_SIGNING_KEY: "k", INNGEST_BASE_URL: "http://inngest:8288" }).inngest).toEqual({
      enabled: true,
      eventKey: "evt",
      signingKey: "k",
      dev: false,
      baseUrl: "http://inngest:8288",
    });
  });

  it("refuses settings Inngest could not work with", () => {
    expect(() => loadConfig({ ...base, INNGEST_EVENT_KEY: "evt" })).toThrow(/INNGEST_SIGNING_KEY/);
    expect(() => loadConfig({ ...base, INNGEST_DEV: "maybe" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, INNGEST_BASE_URL: "inngest:8288" })).toThrow(/INNGEST_BASE_URL/);
    expect(driverFor({ INNGEST_EVENT_KEY: "evt", INNGEST_DEV: "1" })).toBe("inngest"); // the Dev Server needs no signing key
  });

  it("payment/settled only for statuses that never lead back to AWAITING_PAYMENT or UNDERPAID", () => {
    const settled = PAYMENT_STATUSES.filter(isSettled);
    expect(settled.sort()).toEqual(["CANCELLED", "COMPLETED", "EXPIRED", "FAILED", "PROCESSING"]);
  });
});

describe("starting background work", () => {
  it("not configured: starts the embedded runner and never calls inngest.send", async () => {
    const send = vi.spyOn(inngest, "send").mockResolvedValue({ ids: [] } as never);
    expect(await startBackground(getDb, loadConfig({ ...base }))).toBe("embedded");
    const b = await newBusiness({ webhookUrl: "http://127.0.0.1:9/hook" });
    const { id } = await createPayment(b);
    await cancelPayment(await getDb(), id);
    await whenBackgroundIdle();
    await new Promise((r) => setTimeout(r, 50));
    expect(send).not.toHaveBeenCalled();
  });

  it("INNGEST_DEV=1: sends committed work to Inngest (inngest.send stubbed, no live send)", async () => {
    const sent: OutgoingEvent[] = [];
    vi.spyOn(inngest, "send").mockImplementation((async (events: OutgoingEvent[]) => {
      sent.push(...events);
      return { ids: events.map((e) => e.id) };
    }) as never);
    expect(await startBackground(getDb, loadConfig({ ...base, INNGEST_DEV: "1" }))).toBe("inngest");
    const db = await getDb();
    const b = await newBusiness({ webhookUrl: "http://127.0.0.1:9/hook" });
    // The state machine publishes payment/created and the outbox its PAYMENT_CREATED delivery,
    // inside the create transaction; both go out after commit.
    const { id } = await createPayment(b);
    await whenBackgroundIdle();
    const [delivery] = (await listDeliveries(db, b.businessId, { paymentId: id, limit: 10, offset: 0 })).rows;
    const { expiresAt } = (await paymentStates(db, [id])).get(id)!;
    expect(sent).toEqual(
      expect.arrayContaining([
        { name: "webhook/delivery.created", id: `delivery-${delivery.id}-${delivery.messageId}`, data: { deliveryId: delivery.id } },
        { name: "payment/created", id: `payment-created-${id}`, data: { paymentId: id, expiresAt: expiresAt.toISOString() } },
      ]),
    );
    expect(sent).toHaveLength(2);

    // A cancel settles the payment for good: its delivery and payment/settled.
    await cancelPayment(db, id);
    await whenBackgroundIdle();
    const cancelled = (await listDeliveries(db, b.businessId, { paymentId: id, limit: 10, offset: 0 })).rows.find(
      (r) => r.eventType === "PAYMENT_CANCELLED",
    )!;
    expect(sent.slice(2)).toEqual(
      expect.arrayContaining([
        { name: "webhook/delivery.created", id: `delivery-${cancelled.id}-${cancelled.messageId}`, data: { deliveryId: cancelled.id } },
        { name: "payment/settled", id: `payment-settled-${id}`, data: { paymentId: id } },
      ]),
    );
    expect(sent).toHaveLength(4);
  });
});

describe("sending after commit", () => {
  /** A sender on the bus whose `send` checks, from outside the transaction, that what it sends is committed. */
  async function recordingSender(send?: (events: OutgoingEvent[]) => Promise<void>) {
    const db = await getDb();
    const sent: OutgoingEvent[] = [];
    const warnings: string[] = [];
    const sender = createEventSender({
      retryDelaysMs: [10, 10],
      log: { warn: (m: string) => warnings.push(m) },
      send:
        send ??
        (async (events) => {
          for (const e of events) {
            const paymentId = e.name === "webhook/delivery.created" ? undefined : e.data.paymentId;
            if (paymentId) expect((await paymentStates(db, [paymentId])).get(paymentId)?.status).toBe("CANCELLED");
          }
          sent.push(...events);
        }),
    });
    const unsubscribe = subscribe(sender.listener);
    return { sender, sent, warnings, unsubscribe };
  }

  async function cancelInTransaction(id: string, rollBack: boolean) {
    const db = await getDb();
    await inTransaction(db, async (tx) => {
      const { payment } = await loadForUpdate(tx, id);
      await transition(tx, payment, "CANCELLED"); // publishes the event and the PAYMENT_CANCELLED delivery
      await new Promise((r) => setTimeout(r, 50)); // nothing may be sent before the commit
      if (rollBack) throw new Error("roll back");
    }).catch((e: Error) => {
      if (e.message !== "roll back") throw e;
    });
  }

  it("a change made inside a transaction is sent once, in one batch, after it has committed", async () => {
    const b = await newBusiness({ webhookUrl: "http://127.0.0.1:9/hook" });
    const { id } = await createPayment(b);
    const { sender, sent, warnings, unsubscribe } = await recordingSender();
    await cancelInTransaction(id, false);
    await sender.idle();
    unsubscribe();
    const { rows } = await listDeliveries(await getDb(), b.businessId, { paymentId: id, limit: 10, offset: 0 });
    const cancelled = rows.find((r) => r.eventType === "PAYMENT_CANCELLED")!;
    expect(sent.map((e) => e.name).sort()).toEqual(["payment/settled", "webhook/delivery.created"]);
    expect(sent).toContainEqual({ name: "webhook/delivery.created", id: `delivery-${cancelled.id}-${cancelled.messageId}`, data: { deliveryId: cancelled.id } });
    expect(sent).toContainEqual({ name: "payment/settled", id: `payment-settled-${id}`, data: { paymentId: id } });
    expect(warnings).toEqual([]); // a send before the commit would have failed its check and warned
  });

  it("a change rolled back is never sent", async () => {
    const b = await newBusiness({ webhookUrl: "http://127.0.0.1:9/hook" });
    const { id } = await createPayment(b);
    const { sender, sent, warnings, unsubscribe } = await recordingSender();
    await cancelInTransaction(id, true);
    await sender.idle();
    unsubscribe();
    expect(sent).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("a failed send is retried, then given up with a warning", async () => {
    const b = await newBusiness();
    let calls = 0;
    const { sender, warnings, unsubscribe } = await recordingSender(async () => {
      if (++calls < 10) throw new Error("Inngest is down");
    });
    await createPayment(b); // payment/created (no webhook URL: no delivery)
    await sender.idle();
    unsubscribe();
    expect(calls).toBe(3); // the first try and two retries
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/gave up sending payment-created-.*Inngest is down/);
  });

  it("after-commit work needs a transaction begun with inTransaction", async () => {
    const { unsubscribe } = await recordingSender();
    const b = await newBusiness();
    const { id } = await createPayment(b);
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        const { payment } = await loadForUpdate(tx, id);
        await transition(tx, payment, "CANCELLED");
      }),
    ).rejects.toThrow(/inTransaction/);
    unsubscribe();
  });
});
