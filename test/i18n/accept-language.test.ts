import { describe, expect, it } from "vitest";
import { negotiateLocale } from "@/lib/http/accept-language";

describe("choosing the checkout's language from Accept-Language", () => {
  it("gives each offered language to a browser that asks for it, by region and script too", () => {
    expect(negotiateLocale("de-DE,de;q=0.9,en;q=0.8")).toBe("de");
    expect(negotiateLocale("de-AT")).toBe("de");
    expect(negotiateLocale("pt")).toBe("pt-BR");
    expect(negotiateLocale("pt-BR,pt;q=0.9")).toBe("pt-BR");
    expect(negotiateLocale("zh-CN,zh;q=0.9")).toBe("zh-CN");
    expect(negotiateLocale("zh-Hans")).toBe("zh-CN");
    expect(negotiateLocale("ar-EG,ar;q=0.9")).toBe("ar");
    expect(negotiateLocale("ja-JP")).toBe("ja");
    expect(negotiateLocale("es-MX,es;q=0.9")).toBe("es");
  });

  it("follows the header's quality order, not its written order", () => {
    expect(negotiateLocale("en;q=0.5,fr;q=0.9")).toBe("fr");
    expect(negotiateLocale("nl,fr;q=0.8,de;q=0.7")).toBe("fr");
  });

  it("falls back to English for no header, unknown languages, a wildcard or a malformed header", () => {
    expect(negotiateLocale(null)).toBe("en");
    expect(negotiateLocale("")).toBe("en");
    expect(negotiateLocale("nl-NL,sv;q=0.5")).toBe("en");
    expect(negotiateLocale("*")).toBe("en");
    expect(negotiateLocale(";;;q=abc,,")).toBe("en");
    expect(negotiateLocale("x".repeat(5000))).toBe("en");
  });
});
