import { describe, expect, it } from "vitest";
import { Address } from "@ton/core";
import { canServeNow } from "@/lib/payments/address-source";
import { friendlyTonAddress, newTonComment, normalizeTonComment, parseTonAddress, tonTransferUri } from "@/lib/wallets/ton";

const RAW = `0:${"83".repeat(32)}`;
const a = Address.parseRaw(RAW);

/** TON addresses in every form a merchant may give, the network check, comments and the transfer link. */
describe("TON wallet addresses, comments and links", () => {
  it("reads the four user-friendly forms and the raw form as one raw address, with the testnet flag of the form", () => {
    for (const [text, testnet] of [
      [a.toString({ bounceable: true }), false],
      [a.toString({ bounceable: false }), false],
      [a.toString({ bounceable: true, testOnly: true }), true],
      [a.toString({ bounceable: false, testOnly: true, urlSafe: false }), true],
      [RAW, null],
      [`  ${RAW.toUpperCase().replace("0X", "0x")}  `, null],
    ] as const) {
      expect(parseTonAddress(text)).toEqual({ raw: RAW, testnet });
    }
    expect(a.toString({ bounceable: false })).toMatch(/^UQ/);
    expect(a.toString({ bounceable: false, testOnly: true })).toMatch(/^0Q/);
    // A changed character breaks the form's CRC; the masterchain is no wallet's; garbage is refused.
    const good = a.toString();
    expect(typeof parseTonAddress(good.slice(0, -1) + (good.endsWith("A") ? "B" : "A"))).toBe("string");
    expect(typeof parseTonAddress(`-1:${"83".repeat(32)}`)).toBe("string");
    expect(typeof parseTonAddress(Address.parseRaw(`-1:${"83".repeat(32)}`).toString())).toBe("string");
    expect(typeof parseTonAddress("0x52908400098527886E0F7030069857D2E4169EE7")).toBe("string");
    expect(friendlyTonAddress(RAW, true)).toBe(a.toString({ bounceable: false, testOnly: true }));
  });

  it("offers TON to a business only on the network its address's form names (a raw one, or a private network, takes either)", () => {
    const on = (network: "main" | "test" | "regtest") => new Map([["TON" as const, { chain: "TON" as const, network, chainId: null }]]);
    const business = (testnet: boolean | null) => ({ mode: "live" as const, extendedPublicKeys: {}, tonWallet: { address: RAW, testnet } });
    expect(canServeNow(business(false), "TON", on("main"))).toBe(true);
    expect(canServeNow(business(false), "TON", on("test"))).toBe(false);
    expect(canServeNow(business(true), "TON", on("main"))).toBe(false);
    expect(canServeNow(business(true), "TON", on("test"))).toBe(true);
    expect(canServeNow(business(null), "TON", on("main"))).toBe(true);
    expect(canServeNow(business(true), "TON", on("regtest"))).toBe(true);
    expect(canServeNow({ ...business(false), tonWallet: null }, "TON", on("main"))).toBe(false);
    expect(canServeNow(business(false), "TON", new Map())).toBe(false);
  });

  it("makes short comments of an alphabet without look-alike characters, matched whatever the case and spaces", () => {
    const seen = new Set(Array.from({ length: 1000 }, () => newTonComment()));
    expect(seen.size).toBe(1000);
    for (const c of seen) expect(c).toMatch(/^[2-9A-HJKMNP-Z]{10}$/);
    expect(normalizeTonComment("  ab3k9  ")).toBe("AB3K9");
  });

  it("writes the ton://transfer link: nanotons and the comment; a jetton's master and base units", () => {
    const to = a.toString({ bounceable: false });
    expect(tonTransferUri({ address: to, units: 1_250_000_000n, comment: "AB3K9ZZQ2M" })).toBe(`ton://transfer/${to}?amount=1250000000&text=AB3K9ZZQ2M`);
    expect(tonTransferUri({ address: to, units: 12_500_000n, comment: "a b", jettonMaster: "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs" })).toBe(
      `ton://transfer/${to}?jetton=EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs&amount=12500000&text=a%20b`,
    );
  });
});
