import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import Home from "@/app/page";

/** The home page (`/`) is where a new operator lands after `npm start`: it leads to the dashboard and the API reference. */
describe("the home page", () => {
  it("links to the merchant dashboard, the API reference and the OpenAPI document", () => {
    const html = renderToString(Home());
    const links = [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map(([, href, text]) => [href, text]);
    expect(links).toEqual([
      ["/dashboard", "Merchant dashboard"],
      ["/docs", "API reference"],
      ["/v1/openapi.json", "OpenAPI document"],
    ]);
  });
});
