import { beforeAll, describe, expect, it } from "vitest";
import { MAX_LOGO_BYTES } from "@/domain/brand";
import { saveLogo } from "@/lib/dashboard/settings";
import * as logoRoute from "@/app/logos/[sha256]/route";
import { adminToken, expectProblem, json, newBusiness, request } from "../helpers";
import { rejects, team } from "../dashboard/support";
import { jpeg, png, webp } from "./images";

/**
 * The checkout logo: taken only when its content is a PNG, JPEG or WebP of at most 256 KB (the
 * name and declared type never count), through the admin API and the dashboard alike, and served
 * from /logos/<sha256> as the type found, unable to load or run anything.
 */

const HTML = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
/** A real PNG of more than 256 KB: 300×300 pixels of noise deflate to about 350 KB. */
const bigPng = () => png(300, 300, (x, y) => [(x * 7919 + y * 104729) % 251, (x * y * 31) % 253, (x + y * 13) % 255, 255]);

/** A browser's File of these bytes, named and typed as given (neither counts). */
const file = (bytes: Buffer, name: string, type?: string) => new File([new Uint8Array(bytes)], name, { type });
const patch = (businessId: number, body: unknown) => request("PATCH", `/admin/v1/businesses/${businessId}`, { key: adminToken(), body });
const getLogo = (url: string, headers: Record<string, string> = {}) => {
  const sha256 = new URL(url, "http://pay.test").pathname.split("/").at(-1)!;
  return logoRoute.GET(new Request(`http://pay.test/logos/${sha256}`, { headers }), { params: Promise.resolve({ sha256 }) });
};

describe("logo upload through the admin API", () => {
  let businessId: number;
  beforeAll(async () => {
    businessId = (await newBusiness()).businessId;
  });

  it("refuses an HTML file, an SVG, an oversized image and an empty one, with a field error naming logo", async () => {
    const html = await expectProblem(await patch(businessId, { logo: HTML.toString("base64") }), 400, ["logo"]);
    expect(html.errors.logo[0]).toMatch(/PNG, JPEG or WebP/);
    const svg = await expectProblem(await patch(businessId, { logo: SVG.toString("base64") }), 400, ["logo"]);
    expect(svg.errors.logo[0]).toMatch(/SVG is not accepted/);
    const big = bigPng();
    expect(big.length).toBeGreaterThan(MAX_LOGO_BYTES);
    await expectProblem(await patch(businessId, { logo: big.toString("base64") }), 400, ["logo"]);
    await expectProblem(await patch(businessId, { logo: "" }), 400, ["logo"]);
    await expectProblem(await patch(businessId, { logo: "not base64!" }), 400, ["logo"]);
    expect((await json(await request("GET", `/admin/v1/businesses/${businessId}`, { key: adminToken() }))).data.logoUrl).toBeNull();
  });

  it("takes a real PNG, JPEG and WebP, answers where each is served, and removes the logo with null", async () => {
    for (const [bytes, type] of [[png(2, 2, () => [200, 30, 30, 255]), "image/png"], [jpeg(), "image/jpeg"], [webp([20, 120, 220]), "image/webp"]] as const) {
      const res = await patch(businessId, { logo: bytes.toString("base64") });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.data.logoUrl).toMatch(/^http:\/\/pay\.test\/logos\/[0-9a-f]{64}$/);
      const served = await getLogo(body.data.logoUrl);
      expect(served.headers.get("content-type")).toBe(type);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    }
    const removed = await json(await patch(businessId, { logo: null }));
    expect(removed.data.logoUrl).toBeNull();
  });

  it("takes a logo on create, as base64 in a body larger than the other routes allow", async () => {
    const logo = png(120, 120, (x, y) => [(x * 13) % 256, (y * 17) % 256, 90, 255]);
    const res = await request("POST", "/admin/v1/businesses", { key: adminToken(), body: { name: "Logo shop", logo: logo.toString("base64") } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data.logoUrl).toMatch(/\/logos\/[0-9a-f]{64}$/);
  });
});

describe("logo upload through the dashboard's Settings", () => {
  let t: Awaited<ReturnType<typeof team>>;
  beforeAll(async () => {
    t = await team();
  });
  const upload = (file: unknown, userId = t.owner) => saveLogo(t.db, userId, t.a.businessId, file);

  it("refuses a renamed HTML file (.png name, image/png type, HTML content), an oversized image and an SVG", async () => {
    const renamed = await rejects(upload(file(HTML, "logo.png", "image/png")), 400, ["logo"]);
    expect(renamed.fieldErrors!.logo[0]).toMatch(/must be a PNG, JPEG or WebP image; .*name and declared type do not count/);
    const big = await rejects(upload(file(bigPng(), "big.png", "image/png")), 400, ["logo"]);
    expect(big.fieldErrors!.logo[0]).toMatch(/at most 256 KB \(262144 bytes\); this file is \d+ bytes/);
    const svg = await rejects(upload(file(SVG, "logo.png", "image/png")), 400, ["logo"]);
    expect(svg.fieldErrors!.logo[0]).toMatch(/SVG/);
    await rejects(upload(undefined), 400, ["logo"]);
    expect((await json(await request("GET", `/admin/v1/businesses/${t.a.businessId}`, { key: adminToken() }))).data.logoUrl).toBeNull();
  });

  it("takes real image bytes whatever the file is called or claims to be; owners only", async () => {
    await rejects(upload(file(jpeg(), "photo.jpg"), t.developer), 403);
    await rejects(upload(file(jpeg(), "photo.jpg"), t.ownerOfB), 404);
    expect(await upload(file(webp([1, 2, 3]), "logo.txt", "text/plain"))).toEqual({ hasLogo: true });
    const saved = (await json(await request("GET", `/admin/v1/businesses/${t.a.businessId}`, { key: adminToken() }))).data;
    expect((await getLogo(saved.logoUrl)).headers.get("content-type")).toBe("image/webp");
    expect(await upload(null)).toEqual({ hasLogo: false });
  });
});

describe("the served logo", () => {
  it("has the detected type, nosniff, a policy allowing nothing, inline disposition, an ETag and a year's caching", async () => {
    const { businessId } = await newBusiness();
    const bytes = png(4, 4, (x, y) => [x * 60, y * 60, 128, 255]);
    const url = (await json(await patch(businessId, { logo: bytes.toString("base64") }))).data.logoUrl as string;
    const res = await getLogo(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'(;|$)/);
    expect(res.headers.get("content-disposition")).toBe("inline");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    const etag = res.headers.get("etag")!;
    expect(etag).toBe(`"${url.split("/").at(-1)}"`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");

    const again = await getLogo(url, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await getLogo(url, { "if-none-match": '"other"' })).status).toBe(200);
  });

  it("is gone once replaced, unless another business shows the same bytes; unknown or malformed names are 404", async () => {
    const bytes = png(3, 3, () => [10, 200, 10, 255]);
    const [one, two] = [await newBusiness(), await newBusiness()];
    const url = (await json(await patch(one.businessId, { logo: bytes.toString("base64") }))).data.logoUrl as string;
    expect((await json(await patch(two.businessId, { logo: bytes.toString("base64") }))).data.logoUrl).toBe(url);
    await patch(one.businessId, { logo: jpeg().toString("base64") });
    expect((await getLogo(url)).status).toBe(200); // business two still shows it
    await patch(two.businessId, { logo: null });
    const gone = await getLogo(url);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("cache-control")).toBe("no-store");
    expect((await getLogo("/logos/not-a-hash")).status).toBe(404);
  });
});
