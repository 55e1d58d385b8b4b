import { z } from "zod";
import { PAYMENT_NETWORKS, type PaymentNetwork } from "@/domain/assets";

/**
 * Customer e-mails (lib/emails): SMTP_URL is the server they are handed to (`smtp://` or
 * `smtps://`, user and password in the URL, nodemailer's options as query parameters), MAIL_FROM
 * the sender. Without SMTP_URL nothing is sent: the messages are kept in the outbox as "not sent"
 * and shown on the payment's dashboard page. EXPLORER_TX_URL_<NETWORK> (BITCOIN, ETHEREUM, …) is a
 * block explorer's transaction page with `{txid}` where the hash goes; the receipt links the
 * transaction there, and shows only the hash for a network without one.
 */
const blankIsUnset = (v: unknown) => (v === "" ? undefined : v);

const explorerUrl = z.preprocess(
  blankIsUnset,
  z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL with {txid}, such as https://mempool.space/tx/{txid}" })
    .refine((v) => v.includes("{txid}"), "must contain {txid} where the transaction hash goes")
    .optional(),
);

export const MAIL_ENV = {
  SMTP_URL: z.preprocess(
    blankIsUnset,
    z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587" }).optional(),
  ),
  MAIL_FROM: z.preprocess(
    blankIsUnset,
    z
      .string()
      .trim()
      .max(320)
      .regex(/^(?:[^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, "must be an address such as receipts@shop.example.com or \"Shop <receipts@shop.example.com>\"")
      .optional(),
  ),
  ...(Object.fromEntries(PAYMENT_NETWORKS.map((n) => [`EXPLORER_TX_URL_${n}`, explorerUrl])) as Record<`EXPLORER_TX_URL_${PaymentNetwork}`, typeof explorerUrl>),
};

export type MailConfig = {
  /** Undefined: no e-mail leaves the service (the outbox keeps them as not sent). */
  smtpUrl: string | undefined;
  from: string;
  explorerTxUrls: Partial<Record<PaymentNetwork, string>>;
};

type MailEnv = { SMTP_URL?: string; MAIL_FROM?: string } & Partial<Record<`EXPLORER_TX_URL_${PaymentNetwork}`, string>>;

export function mailConfigOf(e: MailEnv, publicBaseUrl: string): MailConfig {
  const host = new URL(publicBaseUrl).hostname;
  return {
    smtpUrl: e.SMTP_URL,
    from: e.MAIL_FROM ?? `no-reply@${host.includes(".") ? host : `${host}.localdomain`}`,
    explorerTxUrls: Object.fromEntries(
      PAYMENT_NETWORKS.flatMap((n) => {
        const url = e[`EXPLORER_TX_URL_${n}`];
        return url ? [[n, url]] : [];
      }),
    ),
  };
}
