// The id of each request the production server handles (X-Request-Id both ways): a proxy's or
// client's own id is kept when it is a plain token, so one id follows the request across hops;
// anything else (too long, odd characters, two headers joined) gets a fresh one, as a log
// field must not carry what a client chose to inject.

import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";
const SANE = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: the incoming header when sane, else a new UUID. */
export function requestIdOf(header) {
  return typeof header === "string" && SANE.test(header) ? header : randomUUID();
}
