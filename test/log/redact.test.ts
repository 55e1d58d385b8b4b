import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { CENSOR, redactor, secretsOf } from "@/log/redact.mjs";
import { newWebhookSecret } from "@/lib/webhooks/sign";

/** What the logger redacts (log/redact.mjs): by field name at any depth, by shape inside strings, and the environment's secrets by value. */

const { text, value } = redactor([]);

describe("credentials by shape, inside any string", () => {
  it("takes the userinfo out of URLs, and keeps the rest", () => {
    expect(text("calling http://rpcuser:rpc-pass-42@127.0.0.1:8332/wallet")).toBe(`calling http://${CENSOR}@127.0.0.1:8332/wallet`);
    expect(text("smtps://mailer%40shop:p%40ss@mail.example.com:465")).toBe(`smtps://${CENSOR}@mail.example.com:465`);
    expect(text("postgres://app:hunter2hunter2@db:5432/pay and more")).toBe(`postgres://${CENSOR}@db:5432/pay and more`);
    expect(text("https://pay.example.com/pay/123?lang=de")).toBe("https://pay.example.com/pay/123?lang=de");
  });

  it("takes key-like query values and a provider key in an RPC path", () => {
    expect(text("https://api.example/v1/prices?api_key=abc123&vs=usd")).toBe(`https://api.example/v1/prices?api_key=${CENSOR}&vs=usd`);
    expect(text("GET /x?x_cg_pro_api_key=CG-123&token=t0k&page=2")).toBe(`GET /x?x_cg_pro_api_key=${CENSOR}&token=${CENSOR}&page=2`);
    expect(text("https://eth-mainnet.g.alchemy.com/v2/Zx8yQ3lK9mN2pR5sT7uV1wX4")).toBe(`https://eth-mainnet.g.alchemy.com/v2/${CENSOR}`);
    expect(text("/v1/businesses/12/payments")).toBe("/v1/businesses/12/payments");
  });

  it("takes bearer and basic credentials, API keys (JWTs), webhook secrets and sk_ keys", async () => {
    const apiKey = await new SignJWT({ bids: [1] }).setProtectedHeader({ alg: "HS256" }).setJti("key_x").sign(new TextEncoder().encode("k".repeat(32)));
    const whsec = newWebhookSecret();
    const said = text(`Authorization: Bearer ${apiKey}; key ${apiKey}; secret ${whsec}; stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc; Basic dXNlcjpwYXNz`);
    expect(said).not.toContain(apiKey);
    expect(said).not.toContain(whsec.slice(6));
    expect(said).not.toContain("4eC39HqLyjWDarjtT1zdp7dc");
    expect(said).not.toContain("dXNlcjpwYXNz");
    expect(said).toBe(`Authorization: Bearer ${CENSOR}; key ${CENSOR}; secret ${CENSOR}; stripe ${CENSOR}; Basic ${CENSOR}`);
  });
});

describe("fields by name, at any depth", () => {
  it("censors secret-named fields whatever they hold, and walks arrays, objects and errors", () => {
    const cause = new Error("connect to http://u:causepass@node failed");
    const err = new Error("RPC failed at https://user:errpass@rpc.example/", { cause });
    const out = value({
      email: "owner@example.com",
      password: "correct horse",
      body: { newPassword: "n3w", currentPassword: "0ld", totpURI: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP" },
      wallet: { privateViewKey: "f".repeat(64), viewKey: "e".repeat(64), address: "4Adr" },
      headers: { authorization: "Bearer x", cookie: "better-auth.session_token=abc", accept: "*/*" },
      endpoint: { webhookSecret: "whsec_x", url: "https://merchant.example/hook" },
      list: [{ apiKey: "k" }, "plain"],
      METRICS_TOKEN: "m",
      err,
    }) as Record<string, any>;
    expect(out.email).toBe("owner@example.com");
    expect(out.password).toBe(CENSOR);
    expect(out.body).toEqual({ newPassword: CENSOR, currentPassword: CENSOR, totpURI: CENSOR });
    expect(out.wallet).toEqual({ privateViewKey: CENSOR, viewKey: CENSOR, address: "4Adr" });
    expect(out.headers).toEqual({ authorization: CENSOR, cookie: CENSOR, accept: "*/*" });
    expect(out.endpoint).toEqual({ webhookSecret: CENSOR, url: "https://merchant.example/hook" });
    expect(out.list).toEqual([{ apiKey: CENSOR }, "plain"]);
    expect(out.METRICS_TOKEN).toBe(CENSOR);
    // pino's error serializer joins the causes' messages to the message.
    expect(out.err).toMatchObject({ type: "Error", message: `RPC failed at https://${CENSOR}@rpc.example/: connect to http://${CENSOR}@node failed` });
    const serialized = JSON.stringify(out);
    for (const secret of ["errpass", "causepass", "correct horse", "JBSWY3DPEHPK3PXP", "session_token=abc"]) expect(serialized).not.toContain(secret);
    expect(out.err.stack).toContain("RPC failed at");
  });

  it("leaves what is not a secret as it is", () => {
    const when = new Date();
    expect(value({ n: 1, ok: true, none: null, when, tokens: 3, chain: "TRON" })).toEqual({ n: 1, ok: true, none: null, when, tokens: 3, chain: "TRON" });
  });
});

describe("the environment's secrets by value", () => {
  const env = {
    METRICS_TOKEN: "metrics-token-0123456789",
    ADMIN_TOKEN: "adm_admin_token_0123456789",
    BETTER_AUTH_SECRET: "better-auth-secret-value-0123456789",
    SMTP_URL: "smtp://mailer:smtp-password-42@mail.example.com:587",
    LITECOIN_RPC_URL: "http://rpcuser:rpc-password-42@127.0.0.1:9332/",
    ETHEREUM_RPC_URL: "https://eth.example.com/v2/provider-key-in-the-path-0123",
    TRON_RPC_URL: "https://api.trongrid.io/?apikey=trongrid-query-key",
    PUBLIC_BASE_URL: "https://pay.example.com",
    PORT: "3000",
    LOG_LEVEL: "debug",
  };

  it("finds whole secret values and the secret parts of URLs, nothing else", () => {
    expect(secretsOf(env).sort()).toEqual(
      [
        "metrics-token-0123456789",
        "adm_admin_token_0123456789",
        "better-auth-secret-value-0123456789",
        "smtp-password-42",
        "rpc-password-42",
        "provider-key-in-the-path-0123",
        "trongrid-query-key",
      ].sort(),
    );
  });

  it("takes more later: the secrets an embedded start generates", () => {
    const r = redactor(secretsOf(env));
    r.add(["adm_generated_0123456789", undefined, "short"]);
    expect(r.text("adm_generated_0123456789 short metrics-token-0123456789")).toBe(`${CENSOR} short ${CENSOR}`);
  });

  it("replaces them wherever they appear, whatever the text around them", () => {
    const { text: scrub } = redactor(secretsOf(env));
    const said = scrub("token metrics-token-0123456789 from adm_admin_token_0123456789, key:provider-key-in-the-path-0123 pass=smtp-password-42 better-auth-secret-value-0123456789");
    for (const secret of secretsOf(env)) expect(said).not.toContain(secret);
    expect(said).toBe(`token ${CENSOR} from ${CENSOR}, key:${CENSOR} pass=${CENSOR} ${CENSOR}`);
  });
});
