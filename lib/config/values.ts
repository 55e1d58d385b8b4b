import { z } from "zod";

/** Readings of environment values the configuration shares. */

/** A duration: a whole number of seconds, or with a unit s, m, h or d. */
export const DURATION = /^(\d+)\s*([smhd]?)$/;
const UNIT_MS: Record<string, number> = { "": 1_000, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
export function durationMs(text: string): number {
  const [, n, unit] = DURATION.exec(text)!;
  return Number(n) * UNIT_MS[unit];
}

/** An unset variable and an empty one mean the same (`INNGEST_DEV=` in a .env file). */
export function optionalString<T extends z.ZodType<string>>(schema: T) {
  return z.preprocess((v) => (v === "" ? undefined : v), schema.optional());
}

/** The Inngest SDK's reading of INNGEST_DEV: 1/true → dev, 0/false → not; a URL also means dev. */
export function devFlag(v: string): boolean | undefined {
  const t = v.trim().toLowerCase();
  if (t === "1" || t === "true") return true;
  if (t === "0" || t === "false") return false;
  return undefined;
}

export function isHttpUrl(v: string): boolean {
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}
