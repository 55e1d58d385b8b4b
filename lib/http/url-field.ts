import { z } from "zod";

/** An absolute http(s) URL of at most 2048 characters (D11a), as request bodies accept it. */
export const urlField = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL")
  .meta({ format: "uri" });
