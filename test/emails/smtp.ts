import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message as a real SMTP server received it over TCP: the envelope, the raw bytes and mailparser's reading. */
export type Received = { from: string; to: string[]; raw: string; mail: ParsedMail };

/**
 * A real SMTP server (the `smtp-server` package) on a local port (`port`, or a free one), no TLS
 * and no authentication. `refuse` names recipients it answers 550 at RCPT TO.
 */
export async function startSmtpServer(opts: { refuse?: (address: string) => boolean; port?: number } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    disableReverseLookup: true,
    onRcptTo(address, _session, callback) {
      if (opts.refuse?.(address.address)) {
        return callback(Object.assign(new Error("5.1.1 <" + address.address + ">: Recipient address rejected: User unknown"), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          mail: await simpleParser(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The messages received with this Message-ID header. */
    withId: (messageId: string) => received.filter((r) => r.mail.messageId?.replace(/^<|>$/g, "") === messageId.replace(/^<|>$/g, "")),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
