import type { PaymentStatus } from "@/domain/statuses";
import { canTransition, isTerminal } from "@/domain/transitions";

/** A transfer seen on a charge's address. */
export type Transfer = {
  txId: string;
  /** Base units (satoshi, wei, sun, …). */
  amount: bigint;
  confirmations: number;
  /** Dropped from the chain (double-spend, reorg, evicted from the mempool): counts for nothing. */
  dropped: boolean;
};

export type DetectionInput = {
  status: PaymentStatus;
  /** The charge's quoted amount in base units (> 0). */
  quoted: bigint;
  /** The business's underpayment tolerance, a decimal percentage from 0 to 100 ("0", "1", "0.5"). */
  tolerancePercent: string;
  requiredConfirmations: number;
  transfers: readonly Transfer[];
};

export type Decision = {
  /** The status to move to, or null for no change. Always a transition the D3 table allows. */
  next: PaymentStatus | null;
  /** Sum of all transfers not dropped, confirmed or not. */
  seen: bigint;
  /** Sum of the transfers with at least the required confirmations. */
  confirmed: bigint;
  /** What the customer still has to send: quoted − seen, never below 0. */
  due: bigint;
  /** Something arrived, but less than the quoted amount minus the tolerance. */
  isUnderpaid: boolean;
  /** Transfers (not dropped) exist but the payment is terminal: record them, change nothing. */
  late: boolean;
};

/** A decimal percentage as the exact fraction numerator / 10^scale. */
function parsePercent(text: string): { numerator: bigint; scale: number } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`tolerancePercent must be a decimal from 0 to 100; got ${JSON.stringify(text)}`);
  const fraction = match[2] ?? "";
  const numerator = BigInt(match[1] + fraction);
  const scale = fraction.length;
  if (numerator > 100n * 10n ** BigInt(scale)) throw new Error(`tolerancePercent must not exceed 100; got ${text}`);
  return { numerator, scale };
}

/**
 * The amount that counts as paid in full: quoted − floor(quoted × tolerance / 100), so the
 * tolerance never lets more than the stated percentage go missing.
 */
export function paidThreshold(quoted: bigint, tolerancePercent: string): bigint {
  const { numerator, scale } = parsePercent(tolerancePercent);
  return quoted - (quoted * numerator) / (100n * 10n ** BigInt(scale));
}

/**
 * Design D3, as one pure function over the transfers seen on the charge's address (exact
 * bigint arithmetic). The decided status, in order:
 * 1. no transfer counts (none seen, or every one dropped): a PENDING, UNDERPAID or PROCESSING
 *    payment whose transfers were all dropped → FAILED; otherwise no change;
 * 2. confirmed ≥ threshold → PROCESSING (overpayment included; seen/confirmed record it);
 * 3. seen ≥ threshold, or any transfer still short of its confirmations → PENDING;
 * 4. everything confirmed but short → UNDERPAID.
 * The decision is returned only when the D3 table allows it from the current status; equal
 * to the current status, or not allowed (e.g. PROCESSING back to PENDING) → no change.
 * Terminal payments never change; transfers on them are `late`.
 */
export function decideStatus(input: DetectionInput): Decision {
  const { status, quoted, tolerancePercent, requiredConfirmations, transfers } = input;
  if (quoted <= 0n) throw new Error(`quoted must be positive; got ${quoted}`);
  if (!Number.isInteger(requiredConfirmations) || requiredConfirmations < 0) {
    throw new Error(`requiredConfirmations must be a non-negative integer; got ${requiredConfirmations}`);
  }
  // At least one base unit must arrive, even with a 100% tolerance.
  const threshold = paidThreshold(quoted, tolerancePercent) || 1n;

  let seen = 0n;
  let confirmed = 0n;
  let unconfirmed = false;
  let live = 0;
  for (const t of transfers) {
    if (t.amount < 0n) throw new Error(`Transfer ${t.txId} has a negative amount`);
    if (t.dropped) continue;
    live += 1;
    seen += t.amount;
    if (t.confirmations >= requiredConfirmations) confirmed += t.amount;
    else unconfirmed = true;
  }

  const due = quoted > seen ? quoted - seen : 0n;
  const isUnderpaid = seen > 0n && seen < threshold;
  const terminal = isTerminal(status);
  const base = { seen, confirmed, due, isUnderpaid, late: terminal && live > 0 };
  if (terminal) return { ...base, next: null };

  let decided: PaymentStatus | null;
  if (live === 0) {
    const allDropped = transfers.length > 0;
    decided = allDropped && (status === "PENDING" || status === "UNDERPAID" || status === "PROCESSING") ? "FAILED" : null;
  } else if (confirmed >= threshold) {
    decided = "PROCESSING";
  } else if (seen >= threshold || unconfirmed) {
    decided = "PENDING";
  } else if (confirmed > 0n) {
    decided = "UNDERPAID";
  } else {
    decided = null; // only zero-amount transfers
  }

  const next = decided !== null && decided !== status && canTransition(status, decided) ? decided : null;
  return { ...base, next };
}
