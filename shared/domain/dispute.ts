import { createHash } from 'node:crypto';
import type { DisputeEvidence, DisputeStage, DisputeStatus } from './dispute-vocabulary';
import type { Currency } from './money';

/**
 * A dispute as the API returns it (component `Dispute`, shared/schemas/dispute-resource-schema.ts): amounts in minor
 * units, timestamps ISO 8601 UTC; `connector_status` and `connector_reason*` are the processor's own words.
 */
export interface Dispute {
  /** `dp_…` */
  dispute_id: string;
  payment_id: string;
  amount: number;
  currency: Currency;
  dispute_stage: DisputeStage;
  dispute_status: DisputeStatus;
  connector: string;
  merchant_connector_id: string | null;
  connector_dispute_id: string;
  connector_status: string;
  connector_reason: string | null;
  connector_reason_code: string | null;
  challenge_required_by: string | null;
  evidence: DisputeEvidence;
  evidence_submitted_at: string | null;
  /** Minor units the processor holds back from the merchant for it. */
  amount_held: number;
  created_at: string;
  updated_at: string;
}

/** A dispute as a payment lists it (component `PaymentDispute`). */
export type PaymentDispute = Pick<Dispute, 'dispute_id' | 'amount' | 'dispute_stage' | 'dispute_status' | 'created_at'>;

/** The fields of a {@link Dispute}, in the order responses list them. */
export const DISPUTE_FIELDS: readonly (keyof Dispute)[] = [
  'dispute_id',
  'payment_id',
  'amount',
  'currency',
  'dispute_stage',
  'dispute_status',
  'connector',
  'merchant_connector_id',
  'connector_dispute_id',
  'connector_status',
  'connector_reason',
  'connector_reason_code',
  'challenge_required_by',
  'evidence',
  'evidence_submitted_at',
  'amount_held',
  'created_at',
  'updated_at',
];

/** The fields of a {@link PaymentDispute}. */
export const PAYMENT_DISPUTE_FIELDS: readonly (keyof PaymentDispute)[] = [
  'dispute_id',
  'amount',
  'dispute_stage',
  'dispute_status',
  'created_at',
];

/**
 * The id of the dispute a processor reports: `dp_` and 32 hex characters of a SHA-256 of (the account it is on:
 * the merchant connector account, or the stage's connector; the processor's dispute id). Derived, never random, so
 * recording a dispute is a conditional put that succeeds once however often (and in whatever order) its events
 * arrive: idempotent on `(merchant_connector_id, connector_dispute_id)`.
 */
export function disputeIdFor(accountKey: string, connectorDisputeId: string): string {
  return `dp_${createHash('sha256').update(`${accountKey}#${connectorDisputeId}`).digest('hex').slice(0, 32)}`;
}

/**
 * The evidence window a processor documents, when its dispute carries no deadline, in ms from the dispute's opening:
 * Paystack "16 hours" (https://paystack.com/docs/payments/dispute-management — respond within 16 hours);
 * Flutterwave 10 working hours for local cards and 30 for international ones (its chargeback guide; taken here as
 * 30 hours, the longer, so no merchant is told a deadline earlier than the processor's); the sandbox 7 days; Stripe
 * always gives `evidence_details.due_by`.
 */
export const DOCUMENTED_EVIDENCE_WINDOW_MS: Readonly<Record<string, number>> = {
  paystack: 16 * 3_600_000,
  flutterwave: 30 * 3_600_000,
  sandbox: 7 * 86_400_000,
  stripe: 7 * 86_400_000,
};

/** How long before `challenge_required_by` the `dispute.reminder` event is sent: 24 hours (a quarter of the window when shorter). */
export function reminderLeadMs(windowMs: number): number {
  return Math.min(86_400_000, Math.floor(windowMs / 4));
}
