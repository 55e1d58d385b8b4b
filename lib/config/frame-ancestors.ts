import { z } from "zod";

/** An http(s) origin as a browser writes it (`https://shop.example.com`), or null when `entry` is anything more or less. */
export function parseOrigin(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return null;
  }
  const bare = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password && !entry.endsWith("#") && !entry.endsWith("?");
  return /^https?:$/.test(url.protocol) && bare ? url.origin : null;
}

/**
 * CHECKOUT_FRAME_ANCESTORS: the origins that may show the checkout (`/pay/{id}`) in a frame — a
 * merchant's shop embedding it — separated by commas or spaces. Unset, no page may be framed
 * anywhere; the dashboard and every other page never may (their `frame-ancestors 'none'`).
 */
export const FRAME_ANCESTORS_ENV = {
  CHECKOUT_FRAME_ANCESTORS: z
    .string()
    .optional()
    .transform((text, ctx): string[] => {
      const entries = (text ?? "").split(/[\s,]+/).filter(Boolean);
      const bad = entries.filter((e) => !parseOrigin(e));
      if (bad.length) {
        ctx.addIssue({ code: "custom", message: `${bad.join(", ")}: not an http(s) origin such as https://shop.example.com (no path)` });
        return z.NEVER;
      }
      return [...new Set(entries.map((e) => parseOrigin(e)!))];
    }),
};
