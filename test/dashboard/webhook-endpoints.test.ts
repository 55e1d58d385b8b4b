import { beforeAll, describe, expect, it } from "vitest";
import { developerOverview } from "@/lib/dashboard/developers";
import { addEndpoint, deleteEndpoint, editEndpoint, endpointPage, recoverMissed, revealEndpointSecret, rotateEndpoint } from "@/lib/dashboard/webhook-endpoints";
import { createPayment } from "../helpers";
import { deliveriesOf, drain, oneWebhookFileAtATime, receivers, verifyHit } from "../webhooks/support";
import { rejects, team } from "./support";

/** The dashboard's endpoint services: who may do what, another business's ids, and the effects. */
oneWebhookFileAtATime();
const receiver = receivers();

let t: Awaited<ReturnType<typeof team>>;
beforeAll(async () => {
  t = await team();
});

describe("dashboard webhook endpoints", () => {
  it("developers and owners add, change, rotate and delete endpoints; a viewer only sees them, without secrets", async () => {
    const r = await receiver();
    const added = await addEndpoint(t.db, t.developer, t.a.businessId, { url: r.url, description: "Fulfilment", eventTypes: ["PAYMENT_CREATED"] });
    expect(added).toMatchObject({ url: r.url, description: "Fulfilment", eventTypes: ["PAYMENT_CREATED"], secret: expect.stringMatching(/^whsec_/) });
    const seen = await developerOverview(t.db, t.viewer, t.a.businessId);
    expect(seen.endpoints.map((e) => e.endpointId)).toContain(added.endpointId);
    expect(JSON.stringify(seen)).not.toContain(added.secret);
    const page = await endpointPage(t.db, t.viewer, t.a.businessId, String(added.endpointId), {});
    expect(page.allowed).toEqual({ manageWebhooks: false, seeSecrets: false });

    await rejects(addEndpoint(t.db, t.viewer, t.a.businessId, { url: r.url }), 403);
    await rejects(editEndpoint(t.db, t.viewer, t.a.businessId, added.endpointId, { enabled: false }), 403);
    await rejects(revealEndpointSecret(t.db, t.viewer, t.a.businessId, added.endpointId), 403);
    await rejects(rotateEndpoint(t.db, t.viewer, t.a.businessId, added.endpointId, {}), 403);
    await rejects(deleteEndpoint(t.db, t.viewer, t.a.businessId, added.endpointId), 403);
    // Another business's owner: the business is a 404; their own business does not hold this endpoint.
    await rejects(revealEndpointSecret(t.db, t.ownerOfB, t.a.businessId, added.endpointId), 404);
    await rejects(revealEndpointSecret(t.db, t.ownerOfB, t.b.businessId, added.endpointId), 404);
    await rejects(endpointPage(t.db, t.owner, t.a.businessId, "nope", {}), 404);
    await rejects(addEndpoint(t.db, t.owner, t.a.businessId, { url: "ftp://x.example/" }), 400, ["url"]);

    const { secret } = await rotateEndpoint(t.db, t.owner, t.a.businessId, added.endpointId, { overlapSeconds: 0 });
    expect((await revealEndpointSecret(t.db, t.developer, t.a.businessId, added.endpointId)).secret).toBe(secret);
    const { id } = await createPayment(t.a);
    await drain();
    verifyHit(secret, r.hits[0]);
    const log = await endpointPage(t.db, t.owner, t.a.businessId, added.endpointId, {});
    expect(log.log.items.map((d) => [d.paymentId, d.eventType])).toEqual([[id, "PAYMENT_CREATED"]]);

    await deleteEndpoint(t.db, t.owner, t.a.businessId, added.endpointId);
    expect((await developerOverview(t.db, t.owner, t.a.businessId)).endpoints.map((e) => e.endpointId)).not.toContain(added.endpointId);
  });

  it("re-enabling with a recover-since time resends what the endpoint missed while disabled", async () => {
    const r = await receiver();
    const e = await addEndpoint(t.db, t.owner, t.a.businessId, { url: r.url, eventTypes: ["PAYMENT_CREATED"] });
    const since = new Date(Date.now() - 1000).toISOString();
    await editEndpoint(t.db, t.owner, t.a.businessId, e.endpointId, { enabled: false });
    const missed = await createPayment(t.a);
    await drain();
    expect(r.hits).toHaveLength(0);
    await rejects(recoverMissed(t.db, t.owner, t.a.businessId, e.endpointId, { since }), 409);
    await rejects(editEndpoint(t.db, t.owner, t.a.businessId, e.endpointId, { enabled: true, recoverSince: "yesterday" }), 400, ["since"]);
    const enabled = await editEndpoint(t.db, t.owner, t.a.businessId, e.endpointId, { enabled: true, recoverSince: since });
    expect(enabled).toMatchObject({ endpoint: { enabled: true }, recovered: { queued: 1 } });
    await drain();
    const [row] = (await deliveriesOf(missed.id)).filter((d) => d.endpointId === e.endpointId);
    expect(r.hits.map((h) => h.headers["webhook-id"])).toEqual([row.messageId]);
    verifyHit(e.secret, r.hits[0]);
    await deleteEndpoint(t.db, t.owner, t.a.businessId, e.endpointId);
  });
});
