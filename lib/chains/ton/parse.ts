import { Cell, loadTransaction, type Slice, type Transaction } from "@ton/core";

/**
 * What a TON transaction did for the account it ran on, decoded from its BOC (the API's `data`)
 * with @ton/core, on the TL-B of block.tlb: the incoming internal message's value and sender,
 * what the credit phase added, whether the money went back (a bounce phase), the text comment,
 * and a jetton's `transfer_notification` (to the owner) or `internal_transfer` (to its jetton
 * wallet) with their amount, sender and forward payload.
 */
export type ParsedTx = {
  /** The transaction's hash, hex: the transfer's id. */
  hash: string;
  lt: bigint;
  /** The incoming message's sender (raw), null for an external message. */
  source: string | null;
  /** Nanotons the transaction kept on the account: 0 when bounced back, from a bounced message, or external. */
  kept: bigint;
  /** The incoming message had no body: a plain transfer without a comment. */
  emptyBody: boolean;
  /** The text comment of the incoming message (op 0), normalised by the caller. */
  comment: string | null;
  /** A jetton message the transaction received: its amount in base units, its original sender, its forward payload's comment. */
  /** Whether its computation ran and succeeded, not aborted: a jetton wallet whose transaction failed moved no jetton. */
  ok: boolean;
  jetton: { op: "transfer_notification" | "internal_transfer"; amount: bigint; sender: string | null; comment: string | null; forwardTon: bigint } | null;
};

export const OP_TEXT = 0;
export const OP_TRANSFER_NOTIFICATION = 0x7362d09c;
export const OP_INTERNAL_TRANSFER = 0x178d4519;

/** A snake-encoded text after op 0, or null when the slice holds something else. */
function textOf(s: Slice): string | null {
  if (s.remainingBits < 32) return null;
  if (s.loadUint(32) !== OP_TEXT) return null;
  try {
    return s.loadStringTail();
  } catch {
    return null;
  }
}

/** The forward payload (`Either Cell ^Cell`) as a text comment, or null. */
function forwardComment(s: Slice): string | null {
  if (s.remainingBits < 1) return null;
  const inRef = s.loadBit();
  if (inRef) return s.remainingRefs ? textOf(s.loadRef().beginParse()) : null;
  return textOf(s);
}

function jettonOf(body: Cell): ParsedTx["jetton"] {
  const s = body.beginParse(true);
  if (s.remainingBits < 32) return null;
  const op = s.loadUint(32);
  try {
    if (op === OP_TRANSFER_NOTIFICATION) {
      s.loadUintBig(64);
      const amount = s.loadCoins();
      const sender = s.loadMaybeAddress();
      return { op: "transfer_notification", amount, sender: sender?.toRawString() ?? null, comment: forwardComment(s), forwardTon: 0n };
    }
    if (op === OP_INTERNAL_TRANSFER) {
      s.loadUintBig(64);
      const amount = s.loadCoins();
      const sender = s.loadMaybeAddress();
      s.loadMaybeAddress(); // response_address
      const forwardTon = s.loadCoins();
      return { op: "internal_transfer", amount, sender: sender?.toRawString() ?? null, comment: forwardComment(s), forwardTon };
    }
  } catch {
    return null;
  }
  return null;
}

/** Nanotons the transaction kept: the credit phase's credit, unless a bounce phase sent the value back or the message was itself a bounce. */
function keptOf(tx: Transaction): bigint {
  const d = tx.description;
  const info = tx.inMessage?.info;
  if (d.type !== "generic" || info?.type !== "internal" || info.bounced) return 0n;
  if (d.bouncePhase) return 0n;
  return d.creditPhase?.credit.coins ?? 0n;
}

/** Decodes a transaction's BOC (base64) as the API serves it. */
export function parseTransaction(boc: string): ParsedTx {
  const cell = Cell.fromBase64(boc);
  const tx = loadTransaction(cell.beginParse());
  const msg = tx.inMessage;
  const internal = msg?.info.type === "internal" ? msg.info : null;
  const body = msg?.body ?? Cell.EMPTY;
  return {
    hash: cell.hash().toString("hex"),
    lt: tx.lt,
    source: internal ? internal.src.toRawString() : null,
    kept: keptOf(tx),
    emptyBody: body.bits.length === 0 && body.refs.length === 0,
    comment: internal && !internal.bounced ? textOf(body.beginParse(true)) : null,
    jetton: internal && !internal.bounced ? jettonOf(body) : null,
    ok: tx.description.type === "generic" && !tx.description.aborted && tx.description.computePhase.type === "vm" && tx.description.computePhase.success,
  };
}
