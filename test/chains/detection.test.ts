import { describe, expect, it } from "vitest";
import { COIN_NAMES } from "@/domain/coins";
import { requiredConfirmations } from "@/lib/chains/confirmations";
import { decideStatus, paidThreshold, type Decision, type Transfer } from "@/lib/payments/detection";
import { PAYMENT_STATUSES, type PaymentStatus } from "@/domain/statuses";
import { canTransition } from "@/domain/transitions";

const REQUIRED = 3;
let n = 0;
/** A transfer of `amount` with `conf` confirmations (REQUIRED = settled). */
const tx = (amount: bigint, conf = REQUIRED, dropped = false): Transfer => ({ txId: `tx${++n}`, amount, confirmations: conf, dropped });
const decide = (status: PaymentStatus, transfers: Transfer[], quoted = 1000n, tolerancePercent = "0") =>
  decideStatus({ status, quoted, tolerancePercent, requiredConfirmations: REQUIRED, transfers });

type Row = [string, PaymentStatus, Transfer[], Partial<Decision> & { next: PaymentStatus | null }, string?];

const rows: Row[] = [
  // nothing happened
  ["nothing seen", "AWAITING_PAYMENT", [], { next: null, seen: 0n, confirmed: 0n, due: 1000n, isUnderpaid: false, late: false }],
  ["nothing seen while underpaid stays", "UNDERPAID", [], { next: null }],
  // exact payment
  ["exact, unconfirmed", "AWAITING_PAYMENT", [tx(1000n, 0)], { next: "PENDING", seen: 1000n, confirmed: 0n, due: 0n, isUnderpaid: false }],
  ["exact, confirmed at once", "AWAITING_PAYMENT", [tx(1000n)], { next: "PROCESSING", seen: 1000n, confirmed: 1000n, due: 0n }],
  ["exact, one confirmation short", "PENDING", [tx(1000n, REQUIRED - 1)], { next: null, confirmed: 0n }],
  ["unconfirmed then confirmed", "PENDING", [tx(1000n, REQUIRED)], { next: "PROCESSING", confirmed: 1000n }],
  ["already processing stays", "PROCESSING", [tx(1000n)], { next: null }],
  // underpayment
  ["short, unconfirmed → pending", "AWAITING_PAYMENT", [tx(600n, 0)], { next: "PENDING", seen: 600n, due: 400n, isUnderpaid: true }],
  ["short, confirmed", "PENDING", [tx(600n)], { next: "UNDERPAID", confirmed: 600n, due: 400n, isUnderpaid: true }],
  ["short, confirmed at once", "AWAITING_PAYMENT", [tx(600n)], { next: "UNDERPAID" }],
  ["underpaid stays underpaid", "UNDERPAID", [tx(600n)], { next: null, isUnderpaid: true }],
  // top-up after underpayment
  ["top-up seen", "UNDERPAID", [tx(600n), tx(400n, 0)], { next: "PENDING", seen: 1000n, confirmed: 600n, due: 0n, isUnderpaid: false }],
  ["top-up confirmed", "PENDING", [tx(600n), tx(400n)], { next: "PROCESSING", confirmed: 1000n }],
  ["top-up confirmed straight from underpaid", "UNDERPAID", [tx(600n), tx(400n)], { next: "PROCESSING" }],
  ["top-up still short, unconfirmed", "UNDERPAID", [tx(600n), tx(100n, 1)], { next: "PENDING", due: 300n, isUnderpaid: true }],
  ["top-up still short, confirmed", "PENDING", [tx(600n), tx(100n)], { next: "UNDERPAID", confirmed: 700n }],
  // overpayment
  ["overpaid", "AWAITING_PAYMENT", [tx(1500n)], { next: "PROCESSING", seen: 1500n, confirmed: 1500n, due: 0n, isUnderpaid: false }],
  ["overpaid in two, one unconfirmed", "PENDING", [tx(1000n), tx(500n, 0)], { next: "PROCESSING", seen: 1500n, confirmed: 1000n }],
  ["extra transfer while processing", "PROCESSING", [tx(1000n), tx(5n, 0)], { next: null, seen: 1005n }],
  // dropped transfers
  ["dropped while pending → failed", "PENDING", [tx(1000n, 0, true)], { next: "FAILED", seen: 0n, due: 1000n }],
  ["dropped while underpaid → failed", "UNDERPAID", [tx(600n, REQUIRED, true)], { next: "FAILED" }],
  ["all dropped while processing → failed", "PROCESSING", [tx(1000n, REQUIRED, true)], { next: "FAILED" }],
  ["dropped before anyone noticed", "AWAITING_PAYMENT", [tx(1000n, 0, true)], { next: null, seen: 0n }],
  ["one of two dropped counts for nothing", "PENDING", [tx(600n), tx(400n, 0, true)], { next: "UNDERPAID", seen: 600n, confirmed: 600n }],
  ["replacement after a drop", "PENDING", [tx(1000n, 0, true), tx(1000n)], { next: "PROCESSING", seen: 1000n }],
  ["partial reorg while processing cannot go back", "PROCESSING", [tx(600n), tx(400n, 0, true)], { next: null, confirmed: 600n }],
  // late transfers on terminal payments
  ["late after EXPIRED", "EXPIRED", [tx(1000n)], { next: null, late: true, seen: 1000n, confirmed: 1000n }],
  ["late after COMPLETED", "COMPLETED", [tx(1000n), tx(50n, 0)], { next: null, late: true, seen: 1050n }],
  ["late after CANCELLED", "CANCELLED", [tx(1n, 0)], { next: null, late: true }],
  ["FAILED with only dropped transfers is not late", "FAILED", [tx(1000n, 0, true)], { next: null, late: false }],
  ["terminal without transfers", "EXPIRED", [], { next: null, late: false }],
  // zero-amount noise
  ["zero-amount transfer confirmed", "AWAITING_PAYMENT", [tx(0n)], { next: null, seen: 0n, isUnderpaid: false }],
];

describe("decideStatus", () => {
  it.each(rows)("%s", (_name, status, transfers, expected) => {
    const decision = decide(status, transfers);
    expect(decision).toMatchObject(expected);
    if (decision.next) expect(canTransition(status, decision.next)).toBe(true);
  });

  describe("tolerance (1%, quoted 1000 → threshold 990)", () => {
    it.each([
      ["exactly at the threshold, confirmed", [tx(990n)], "AWAITING_PAYMENT", "PROCESSING", false],
      ["one unit below, confirmed", [tx(989n)], "AWAITING_PAYMENT", "UNDERPAID", true],
      ["exactly at the threshold, unconfirmed", [tx(990n, 0)], "AWAITING_PAYMENT", "PENDING", false],
      ["one unit below, unconfirmed", [tx(989n, 0)], "AWAITING_PAYMENT", "PENDING", true],
      ["at the threshold after underpayment", [tx(900n), tx(90n)], "UNDERPAID", "PROCESSING", false],
    ] as const)("%s", (_name, transfers, status, next, isUnderpaid) => {
      const d = decide(status, [...transfers], 1000n, "1");
      expect(d.next).toBe(next);
      expect(d.isUnderpaid).toBe(isUnderpaid);
    });

    it("floors the tolerated amount so it never exceeds the percentage", () => {
      expect(paidThreshold(1000n, "1")).toBe(990n);
      expect(paidThreshold(999n, "1")).toBe(990n); // floor(9.99) = 9
      expect(paidThreshold(150000n, "0.5")).toBe(149250n);
      expect(paidThreshold(1000n, "0")).toBe(1000n);
      expect(paidThreshold(1000n, "100")).toBe(0n);
      expect(paidThreshold(10n ** 30n, "0.001")).toBe(10n ** 30n - 10n ** 25n);
    });

    it("even at 100% tolerance a payment needs at least one base unit", () => {
      expect(decide("AWAITING_PAYMENT", [tx(0n)], 1000n, "100").next).toBeNull();
      expect(decide("AWAITING_PAYMENT", [tx(1n)], 1000n, "100").next).toBe("PROCESSING");
    });
  });

  it("is exact for amounts above 2^64", () => {
    const quoted = 2n ** 64n + 12345678901234567890n;
    expect(decide("AWAITING_PAYMENT", [tx(quoted - 1n)], quoted).next).toBe("UNDERPAID");
    expect(decide("AWAITING_PAYMENT", [tx(quoted - 1n)], quoted).due).toBe(1n);
    expect(decide("UNDERPAID", [tx(quoted - 1n), tx(1n)], quoted).next).toBe("PROCESSING");
    const big = 10n ** 40n;
    const d = decide("PENDING", [tx(big / 2n), tx(big / 2n), tx(1n, 0)], big, "0.0001");
    expect(d).toMatchObject({ next: "PROCESSING", seen: big + 1n, confirmed: big, due: 0n });
    // 1% of 10^40 below: underpaid by exactly one unit past the tolerance
    expect(decide("AWAITING_PAYMENT", [tx(big - big / 100n - 1n)], big, "1").next).toBe("UNDERPAID");
    expect(decide("AWAITING_PAYMENT", [tx(big - big / 100n)], big, "1").next).toBe("PROCESSING");
  });

  it("never returns a transition the D3 table forbids, nor the current status", () => {
    const sets: Transfer[][] = [
      [],
      [tx(1000n)],
      [tx(1000n, 0)],
      [tx(500n)],
      [tx(500n, 0)],
      [tx(1000n, 0, true)],
      [tx(500n), tx(500n, 0, true)],
      [tx(2000n)],
    ];
    for (const status of PAYMENT_STATUSES) {
      for (const transfers of sets) {
        const d = decide(status, transfers);
        if (d.next !== null) {
          expect(d.next).not.toBe(status);
          expect(canTransition(status, d.next), `${status} → ${d.next}`).toBe(true);
        }
      }
    }
  });

  it("rejects nonsensical input", () => {
    expect(() => decide("PENDING", [], 0n)).toThrow(/quoted/);
    expect(() => decide("PENDING", [], 1000n, "-1")).toThrow(/tolerancePercent/);
    expect(() => decide("PENDING", [], 1000n, "101")).toThrow(/exceed 100/);
    expect(() => decide("PENDING", [], 1000n, "abc")).toThrow(/tolerancePercent/);
    expect(() => decide("PENDING", [tx(-1n)])).toThrow(/negative/);
    expect(() =>
      decideStatus({ status: "PENDING", quoted: 1n, tolerancePercent: "0", requiredConfirmations: -1, transfers: [] }),
    ).toThrow(/requiredConfirmations/);
  });
});

describe("requiredConfirmations", () => {
  it.each([
    ["BITCOIN", 1],
    ["BITCOIN_CASH", 1],
    ["LITECOIN", 2],
    ["ETHEREUM", 12],
    ["ETH_USD_COIN", 12],
    ["CONTRACT_ERC20_USDT", 12],
    ["TRON", 19],
    ["TRX_TETHER", 19],
    ["CONTRACT_TRC20_USDC", 19],
    ["SOLANA", 32],
    ["SOL_USD_COIN", 32],
    ["MONERO", 10],
    ["TON", 1],
  ] as const)("%s needs %i", (coin, count) => {
    expect(requiredConfirmations(coin)).toBe(count);
  });

  it("has a policy for every coin of the catalogue", () => {
    for (const coin of COIN_NAMES) expect(requiredConfirmations(coin)).toBeGreaterThan(0);
  });
});
