import { freePortSync } from "./free-port-sync";

/**
 * Where the e2e server sends customer e-mails: an SMTP server on 127.0.0.1 at a port chosen here,
 * once, when the config is first evaluated, and kept in E2E_SMTP_PORT so the workers (which
 * evaluate the config again) agree on it, as for the market mock (e2e/market-mock-env.ts).
 * e2e/customer-emails.spec.ts listens there with the `smtp-server` package while it runs; at
 * other times nothing does, and the server's attempts are refused and retried, as against a
 * mail server that is down. Kept free of the service's modules: the config imports it.
 */
const PORT_ENV = "E2E_SMTP_PORT";

if (process.env[PORT_ENV] === undefined) process.env[PORT_ENV] = String(freePortSync());

export function e2eSmtpPort(): number {
  return Number(process.env[PORT_ENV]);
}

/** The server's mail settings: SMTP on the spec's port, a sender, and Bitcoin's block explorer. */
export function smtpServerEnv(): Record<string, string> {
  return {
    SMTP_URL: `smtp://127.0.0.1:${e2eSmtpPort()}`,
    MAIL_FROM: "E2E Payments <receipts@pay.e2e.test>",
    EXPLORER_TX_URL_BITCOIN: "https://mempool.space/tx/{txid}",
  };
}
