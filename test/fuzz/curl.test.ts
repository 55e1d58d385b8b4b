import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { curlCommand } from "./curl";
import type { Sent } from "./fuzz-request";

/**
 * The reproduction lines are only worth printing if a shell turns them back into the request
 * exactly: each line is run by bash with a stand-in `curl` that prints its arguments.
 */
function argumentsAsBashSeesThem(command: string): Buffer[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }
BASE=http://base.test API_KEY=key.one ADMIN_TOKEN=adm_token BUSINESS_ID=7 PAYMENT_ID=p-1 KEY_ID=key_x OTHER_API_KEY=key.two
${command}`;
  const run = spawnSync("bash", ["-c", script]);
  expect(run.status, run.stderr.toString()).toBe(0);
  const out = run.stdout;
  const args: Buffer[] = [];
  for (let start = 0, end = out.indexOf(0); end !== -1; start = end + 1, end = out.indexOf(0, start)) args.push(out.subarray(start, end));
  return args;
}

const vars = { secret123: "$API_KEY", "42": "$BUSINESS_ID" };

describe("curlCommand", () => {
  it("quotes a JSON body, headers and query exactly, with variables for the base, key and ids", () => {
    const body = JSON.stringify({ name: "it's \"quoted\" $HOME `x` \\ 中 😀", note: "a\u2028b" });
    const sent: Sent = {
      method: "POST",
      pathAndQuery: "/v1/businesses/42/payments?searchString=%27%24x&a[]=1",
      headers: { "content-type": "application/json", "Idempotency-Key": "o'k$!", authorization: "Bearer secret123" },
      body,
      vars: {},
    };
    const args = argumentsAsBashSeesThem(curlCommand(sent, vars)).map((a) => a.toString("utf8"));
    expect(args).toEqual([
      "-sS", "-i", "--globoff", "-X", "POST",
      "http://base.test/v1/businesses/7/payments?searchString=%27%24x&a[]=1",
      "-H", "content-type: application/json",
      "-H", "Idempotency-Key: o'k$!",
      "-H", "authorization: Bearer key.one",
      "-H", "Accept:",
      "--data-binary", body,
    ]);
  });

  it("sends bytes that are not UTF-8, Latin-1 header bytes, and no default Content-Type", () => {
    const bytes = Uint8Array.from([0x7b, 0xff, 0xfe, 0x27, 0x5c, 0x7d]);
    const sent: Sent = { method: "PUT", pathAndQuery: "/x", headers: { "X-Test": "caf\u00e9", accept: "text/plain" }, body: bytes, vars: {} };
    const args = argumentsAsBashSeesThem(curlCommand(sent, vars));
    expect(args.map((a) => a.toString("latin1"))).toEqual([
      "-sS", "-i", "--globoff", "-X", "PUT", "http://base.test/x",
      "-H", "X-Test: caf\u00e9",
      "-H", "accept: text/plain",
      "-H", "Content-Type:",
      "--data-binary", Buffer.from(bytes).toString("latin1"),
    ]);
  });
});
