import { z } from "zod";

/**
 * LOG_LEVEL and LOG_FORMAT, checked with the rest of the environment so a wrong value stops the
 * start with the other problems. The logger (log/logger.mjs) reads them itself, before this
 * check can run in the production server, and uses the same defaults.
 */
const blankIsUnset = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim().toLowerCase() : v);

/** pino's levels, most to least severe; a level writes itself and everything above it. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const LOG_FORMATS = ["json", "pretty"] as const;

export const LOG_ENV = {
  LOG_LEVEL: z.preprocess(blankIsUnset, z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info")),
  // Unset: json when NODE_ENV=production, pretty otherwise.
  LOG_FORMAT: z.preprocess(blankIsUnset, z.enum(LOG_FORMATS, { error: `must be ${LOG_FORMATS.join(" or ")}` }).optional()),
};
