/**
 * The built-in sandbox processor's own ledger: the decisions taken on its hosted pages and its disputes. The
 * sandbox adapter (shared/connectors/sandbox) reads and writes it through {@link SandboxLedger}; the table's
 * repositories (shared/storage/sandbox-decisions-repository.ts, shared/storage/sandbox-disputes-repository.ts)
 * implement it, and the connector registry (shared/processor-call/connector-registry.ts) hands them to the adapter,
 * so the adapter imports no storage.
 */
import type { Currency } from './money';
import type { CaptureMethod } from './payment';

/** What the sandbox recorded: the payer approved or declined on the page, or the payment was voided first. */
export type SandboxDecisionKind = 'approved' | 'declined' | 'voided';

/** A recorded decision, with what an approval settled (for the sandbox's later answers). */
export interface SandboxDecision {
  decision: SandboxDecisionKind;
  /** Minor units approved (0 for a decline or a void). */
  amount: number;
  captureMethod: CaptureMethod;
  /** ISO 8601 UTC. */
  decidedAt: string;
}

/** A sandbox dispute as the sandbox keeps it. */
export interface SandboxDispute {
  paymentId: string;
  disputeId: string;
  transactionId: string;
  amount: number;
  currency: Currency;
  /** Stripe's statuses. */
  status: string;
  reason: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  dueBy: string;
  evidence: Record<string, string>;
  /** A decision taken on submitted evidence, shown from `decidedAt` on. */
  decided: { status: 'won' | 'lost'; at: string } | null;
  /** When it last changed (or, for a decision, will): the listing's sort key. */
  changedAt: string;
}

/** What the sandbox adapter needs of its ledger. */
export interface SandboxLedger {
  /** Records a decision on a payment once; @returns the decision that stands (an earlier one wins). */
  decide(paymentId: string, decision: Omit<SandboxDecision, 'decidedAt'>): Promise<SandboxDecision>;
  /** The decision recorded on a payment, if any. */
  decision(paymentId: string): Promise<SandboxDecision | undefined>;
  /** Writes a dispute (a new one only once: `create`); @returns false when `create` found one. */
  putDispute(dispute: SandboxDispute, create: boolean): Promise<boolean>;
  /** The dispute of a payment, if any. */
  dispute(paymentId: string): Promise<SandboxDispute | undefined>;
  /** Disputes whose `changedAt` is after `since` and not after `until` (ISO 8601 UTC). */
  disputesChanged(since: string, until: string): Promise<SandboxDispute[]>;
}
