import type { IncomingMessage, ServerResponse } from "node:http";

/** Types of examples/webhook-receiver.mjs, for the test suite. */

export type WebhookPayment = Record<string, any> & { Id: string; Status: string };

export type ReceiverOptions = {
  secret: string;
  fulfil?: (payment: WebhookPayment) => unknown;
  release?: (payment: WebhookPayment) => unknown;
  log?: { info: (message: string) => void; error: (message: string) => void };
};

export type Receiver = {
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  stats: { accepted: number; duplicates: number; rejected: number; fulfilled: number; released: number };
  orders: Map<string, "fulfilled" | "released">;
  idle: () => Promise<void>;
};

export function createReceiver(options: ReceiverOptions): Receiver;
