import { describe, expect, it } from "vitest";
import { isoOfTimestamp } from "@/db/queries/payment-record-text";

// Every form a timestamptz(3) column's text takes, against the Date drizzle would make of it.
describe("a timestamptz's text as toISOString writes it", () => {
  it.each([
    "2026-11-24 12:34:56.789+00",
    "2026-11-24 12:34:56.78+00",
    "2026-11-24 12:34:56.7+00",
    "2026-11-24 12:34:56+00",
    "2026-01-02 00:00:00.001+00",
    "2026-11-24 18:04:56.789+05:30",
    "2026-11-24 07:34:56.5-05",
    "1999-12-31 23:59:59.999+00",
  ])("%s", (text) => {
    expect(isoOfTimestamp(text)).toBe(new Date(text).toISOString());
  });
});
