import { beforeAll, describe, expect, it } from "vitest";
import { accentColorProblem, contrastWithWhite } from "@/domain/brand";
import { getDb } from "@/db/client";
import { checkoutView } from "@/lib/checkout/view";
import { saveSettings, settingsOf } from "@/lib/dashboard/settings";
import { adminToken, createPayment, expectProblem, json, newBusiness, request } from "../helpers";
import { rejects, team } from "../dashboard/support";

/** The accent colour's contrast rule and the display name's fallback, as the checkout shows them. */

const patch = (businessId: number, body: unknown) => request("PATCH", `/admin/v1/businesses/${businessId}`, { key: adminToken(), body });

describe("the accent colour's contrast with white text (WCAG 2)", () => {
  it("computes WCAG's contrast ratio", () => {
    expect(contrastWithWhite("#000000")).toBeCloseTo(21, 5);
    expect(contrastWithWhite("#FFFFFF")).toBeCloseTo(1, 5);
    // #767676 is the lightest grey that meets 4.5:1 on white; #777777 just misses it.
    expect(contrastWithWhite("#767676")).toBeCloseTo(4.54, 2);
    expect(contrastWithWhite("#777777")).toBeCloseTo(4.48, 2);
    expect(contrastWithWhite("#1d4ed8")).toBeCloseTo(6.7, 1);
  });

  it("accepts colours of at least 4.5:1 and refuses lighter ones, saying so", () => {
    expect(accentColorProblem("#767676")).toBeNull();
    expect(accentColorProblem("#1D4ED8")).toBeNull();
    expect(accentColorProblem("#777777")).toBe("contrast with white text is 4.47:1, below the 4.5:1 WCAG AA minimum: choose a darker colour");
    expect(accentColorProblem("#ffcc00")).toMatch(/^contrast with white text is 1\.\d\d:1, below the 4\.5:1 WCAG AA minimum/);
    for (const bad of ["blue", "#fff", "1d4ed8", "#1d4ed8ff", "#gggggg"]) expect(accentColorProblem(bad), bad).toMatch(/#RRGGBB/);
  });

  it("is a field error of the admin API and of the dashboard; a good one is kept in lower case, null removes it", async () => {
    const { businessId } = await newBusiness();
    const light = await expectProblem(await patch(businessId, { accentColor: "#FFCC00" }), 400, ["accentColor"]);
    expect(light.errors.accentColor[0]).toMatch(/below the 4\.5:1 WCAG AA minimum/);
    await expectProblem(await patch(businessId, { accentColor: "red" }), 400, ["accentColor"]);
    expect((await json(await patch(businessId, { accentColor: "#1D4ED8" }))).data.accentColor).toBe("#1d4ed8");
    expect((await json(await patch(businessId, { accentColor: null }))).data.accentColor).toBeNull();
    await expectProblem(await request("POST", "/admin/v1/businesses", { key: adminToken(), body: { name: "Pale", accentColor: "#eeeeee" } }), 400, ["accentColor"]);

    const t = await team();
    const e = await rejects(saveSettings(t.db, t.owner, t.a.businessId, { accentColor: "#a0a0ff" }), 400, ["accentColor"]);
    expect(e.fieldErrors!.accentColor[0]).toMatch(/4\.5:1/);
    expect(await saveSettings(t.db, t.owner, t.a.businessId, { accentColor: "#0F766E" })).toMatchObject({ accentColor: "#0f766e" });
  });
});

describe("the display name", () => {
  let b: Awaited<ReturnType<typeof newBusiness>>;
  let paymentId: string;
  beforeAll(async () => {
    b = await newBusiness({ name: "ACME Holdings Ltd" });
    paymentId = (await createPayment(b, { currency: "USD", amount: 12, name: "Coffee beans" })).id;
  });
  const merchant = async () => (await checkoutView(await getDb(), paymentId))!.merchant;

  it("falls back to the business's name until one is set, and again once it is cleared", async () => {
    expect(await merchant()).toEqual({ displayName: "ACME Holdings Ltd", logoUrl: null, accentColor: null });
    expect((await json(await patch(b.businessId, { displayName: "  Corner Coffee  " }))).data).toMatchObject({ name: "ACME Holdings Ltd", displayName: "Corner Coffee" });
    expect((await merchant()).displayName).toBe("Corner Coffee");
    await patch(b.businessId, { displayName: "" });
    expect((await merchant()).displayName).toBe("ACME Holdings Ltd");
    await patch(b.businessId, { displayName: "Corner Coffee" });
    await patch(b.businessId, { displayName: null });
    expect((await merchant()).displayName).toBe("ACME Holdings Ltd");
    await expectProblem(await patch(b.businessId, { displayName: "x".repeat(201) }), 400, ["displayName"]);
  });

  it("is what the checkout's polling route answers, with the logo's address and the accent colour, and nothing else of the business", async () => {
    await patch(b.businessId, { displayName: "Corner Coffee", accentColor: "#0f766e" });
    const view = await checkoutView(await getDb(), paymentId);
    expect(view!.merchant).toEqual({ displayName: "Corner Coffee", logoUrl: null, accentColor: "#0f766e" });
    expect(view!.name).toBe("Coffee beans");
    expect(JSON.stringify(view)).not.toContain(b.webhookSecret);
  });

  it("is set from the dashboard's Settings, where an empty field shows the business name", async () => {
    const t = await team({ name: "Owner's business" });
    expect(await saveSettings(t.db, t.owner, t.a.businessId, { displayName: "Shown Name" })).toMatchObject({ displayName: "Shown Name" });
    expect(await settingsOf(t.db, t.owner, t.a.businessId)).toMatchObject({ name: "Owner's business", displayName: "Shown Name", logoUrl: null });
    expect(await saveSettings(t.db, t.owner, t.a.businessId, { displayName: "" })).toMatchObject({ displayName: null });
  });
});
