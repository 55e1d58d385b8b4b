import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { Inngest } from "inngest";
import { InngestTestEngine } from "@inngest/test";
import { getDb, type Tx } from "@/db/client";
import { payments } from "@/db/schema";
import type { OutgoingEvent } from "@/lib/background/driver";
import { loadConfig } from "@/lib/config";
import type { Notice } from "@/lib/events/bus";
import { createPayment, newBusiness } from "../helpers";
import { oneDeliveringFileAtATime } from "./support";

/*
 * Next.js bundles instrumentation, route handlers, server actions and the Inngest route apart,
 * and each bundle evaluates its own instance of our modules. `vi.resetModules()` followed by a
 * dynamic import gives the same here: a second instance of every module of ours (the
 * database handle and npm packages are the process's in both cases). The background driver is
 * started in one instance, as `instrumentation.ts` does, and must hear what the other publishes.
 * The production build itself is exercised by e2e/background-wiring.spec.ts.
 */

// A shared PostgreSQL: take turns with the other files that deliver webhooks.
oneDeliveringFileAtATime();

const inngestConfig = loadConfig({ NODE_ENV: "test", DATA_DIR: ":memory:", INNGEST_DEV: "1" });
const notice: Notice = { kind: "delivery", deliveryId: 1, messageId: "msg_1", paymentId: null };

/** Every module of ours evaluated anew, as in another bundle. */
async function anotherBundle() {
  vi.resetModules();
  return {
    bus: await import("@/lib/events/bus"),
    driver: await import("@/lib/background/driver"),
    transaction: await import("@/db/transaction"),
  };
}

/** Records what any instance's Inngest client sends (the `inngest` package is loaded once per process). */
function recordSends() {
  const sent: OutgoingEvent[] = [];
  vi.spyOn(Inngest.prototype, "send").mockImplementation((async (events: OutgoingEvent[]) => {
    sent.push(...events);
    return { ids: events.map((e) => e.id) };
  }) as never);
  return sent;
}

beforeAll(async () => {
  await getDb(); // the database opens (and migrates) once, within the hook's longer timeout
});

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.restoreAllMocks();
});

describe("the event bus is the process's", () => {
  it("a listener subscribed through one module instance hears a publish through another", async () => {
    const first = await anotherBundle();
    const second = await anotherBundle();
    expect(second.bus.publish).not.toBe(first.bus.publish); // two instances indeed

    const heard: Notice[] = [];
    const unsubscribe = first.bus.subscribe((_tx, n) => void heard.push(n));
    second.bus.publish({} as Tx, notice);
    expect(heard).toEqual([notice]);

    unsubscribe();
    second.bus.publish({} as Tx, notice);
    expect(heard).toHaveLength(1);
  });

  it("a listener of another instance registers after-commit work on the publisher's transaction", async () => {
    const first = await anotherBundle();
    const second = await anotherBundle();
    const order: string[] = [];
    let ownInstanceRefused: unknown;
    cleanups.push(
      first.bus.subscribe((tx, _n, afterCommit) => {
        // The listener's own db/transaction.ts did not begin this transaction: it refuses it.
        try {
          first.transaction.afterCommit(tx, () => {});
        } catch (e) {
          ownInstanceRefused = e;
        }
        afterCommit(() => order.push("after commit"));
      }),
    );
    await second.transaction.inTransaction(await getDb(), async (tx) => {
      second.bus.publish(tx, notice);
      await Promise.resolve();
      order.push("in transaction");
    });
    expect(order).toEqual(["in transaction", "after commit"]);
    expect(String(ownInstanceRefused)).toMatch(/inTransaction/);
  });
});

describe("background work is started once per process", () => {
  it("a second start from another instance keeps the first: each event is sent once", async () => {
    const sent = recordSends();
    const first = await anotherBundle();
    const second = await anotherBundle();
    cleanups.push(() => first.driver.stopBackground());
    expect(await first.driver.startBackground(getDb, inngestConfig)).toBe("inngest");
    expect(await second.driver.startBackground(getDb, loadConfig({ NODE_ENV: "test", DATA_DIR: ":memory:" }))).toBe("inngest");

    const b = await newBusiness();
    const { id } = await createPayment(b);
    await second.driver.whenBackgroundIdle(); // the instance that did not start it sees the sender
    expect(sent).toEqual([expect.objectContaining({ name: "payment/created", id: `payment-created-${id}` })]);

    second.driver.stopBackground(); // stops what the first instance started
    await createPayment(b);
    await first.driver.whenBackgroundIdle();
    expect(sent).toHaveLength(1);
  });

  it("an Inngest function run in another instance reaches the sender instrumentation started", async () => {
    const sent = recordSends();
    const started = await anotherBundle(); // instrumentation's bundle
    cleanups.push(() => started.driver.stopBackground());
    expect(await started.driver.startBackground(getDb, inngestConfig)).toBe("inngest");
    const b = await newBusiness();
    const { id } = await createPayment(b);
    await started.driver.whenBackgroundIdle();
    const db = await getDb();
    await db.update(payments).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(payments.id, id));

    vi.resetModules(); // the Inngest route's bundle
    const { sweep } = await import("@/inngest/functions/sweep");
    const { error } = await new InngestTestEngine({ function: sweep }).execute({
      events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }],
    });
    expect(error).toBeUndefined();
    await started.driver.whenBackgroundIdle();
    expect(sent.map((e) => e.id)).toEqual([`payment-created-${id}`, `payment-settled-${id}`]);
  });
});
