/**
 * Stripe's statuses → ours: PaymentIntent, Refund and Dispute. The one place each mapping lives; an unknown (newer)
 * status has a documented fallback in each mapping function.
 *
 * Sources: https://docs.stripe.com/api/payment_intents/object#payment_intent_object-status,
 * https://docs.stripe.com/api/refunds/object (`status`: pending, requires_action, succeeded, failed, canceled),
 * the installed `stripe` package's `Dispute.Status` (stripe-node 23.1.0, `node_modules/stripe/cjs/resources/Disputes.d.ts`)
 * and https://docs.stripe.com/changelog/basil/2025-08-27/add-preventions-to-dispute (`prevented`); cross-checked with
 * Hyperswitch's `StripePaymentStatus` → `AttemptStatus` and `RefundStatus` conversions
 * (juspay/hyperswitch `crates/hyperswitch_connectors/src/connectors/stripe/transformers.rs`).
 */

import type { DisputeStage, DisputeStatus } from '../../domain/dispute-vocabulary';
import type { RefundStatus } from '../../domain/refund';
import { logger } from '../../observability/logger';
import type { PaymentResult } from '../connector';
import type { StripeDisputeStatus, StripePaymentIntentStatus, StripeRefundStatus } from './wire-types';

/**
 * Stripe PaymentIntent status → our payment status. The one place this mapping lives.
 * - `requires_payment_method`: after a confirm, the attempt failed (decline,
 *   failed 3DS) and the intent waits for another method → `Failed` with
 *   `last_payment_error` (Hyperswitch maps it to `Failure` as well).
 * - `requires_confirmation`: not expected after `confirm=true`; nothing moved, the
 *   outcome is not final → `Processing` (a later sync or webhook settles it).
 * - `requires_action`: 3DS or another customer step → `RequiresAction` (with the redirect).
 * - `processing` → `Processing`; `requires_capture` (manual capture, authorized) →
 *   `RequiresCapture`; `succeeded` → `Succeeded`; `canceled` → `Cancelled`.
 */
export const STRIPE_PAYMENT_STATUS: Readonly<Record<StripePaymentIntentStatus, PaymentResult['status']>> = {
  requires_payment_method: 'Failed',
  requires_confirmation: 'Processing',
  requires_action: 'RequiresAction',
  processing: 'Processing',
  requires_capture: 'RequiresCapture',
  succeeded: 'Succeeded',
  canceled: 'Cancelled',
};

/**
 * Stripe Refund status → our refund status. `requires_action` (Stripe needs the
 * customer's details for some non-card refunds) is still in flight → `Pending`;
 * `canceled` means no money went back → `Failed`.
 */
export const STRIPE_REFUND_STATUS: Readonly<Record<StripeRefundStatus, RefundStatus>> = {
  pending: 'Pending',
  requires_action: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  canceled: 'Failed',
};

/**
 * Our status for a Stripe PaymentIntent status; an unknown (newer) status maps to
 * `Processing`: the outcome is not known, and a sync or webhook settles it later.
 */
export function mapPaymentStatus(status: string): PaymentResult['status'] {
  return Object.hasOwn(STRIPE_PAYMENT_STATUS, status) ? STRIPE_PAYMENT_STATUS[status as StripePaymentIntentStatus] : 'Processing';
}

/** Our status for a Stripe Refund status; null or an unknown status maps to `Pending`. */
export function mapRefundStatus(status: string | null | undefined): RefundStatus {
  return status && Object.hasOwn(STRIPE_REFUND_STATUS, status) ? STRIPE_REFUND_STATUS[status as StripeRefundStatus] : 'Pending';
}

/**
 * Stripe Dispute status → our stage and status. The one place this mapping lives.
 * - `warning_*`: an inquiry (retrieval request) before any chargeback; no money moved yet → `pre_dispute`.
 *   `warning_needs_response` → `dispute_opened`, `warning_under_review` (evidence sent) → `dispute_challenged`,
 *   `warning_closed` (the inquiry ended without a chargeback) → `dispute_cancelled`.
 * - `needs_response` → `dispute`/`dispute_opened`; `under_review` → `dispute`/`dispute_challenged`.
 * - `appeal_needs_response`, `appeal_under_review`: the second round (a pre-arbitration or appeal after a first
 *   decision) → `pre_arbitration`, opened / challenged.
 * - `won` → `dispute_won`, `lost` → `dispute_lost` (also what `POST /v1/disputes/:id/close`, accepting it, leads
 *   to: "The status of the dispute will change from needs_response to lost", stripe-node `DisputeResource.close`).
 *   The stage of a final status is `dispute`: Stripe does not say in which round it was decided.
 * - `prevented`: stopped before a formal chargeback (Visa RDR / dispute prevention; the payment is refunded by the
 *   prevention, not by the dispute) → `pre_dispute`/`dispute_cancelled`: no chargeback, no dispute money withdrawn.
 * Any other value: see {@link mapDisputeStatus}.
 */
export const STRIPE_DISPUTE_STATUS: Readonly<Record<StripeDisputeStatus, { stage: DisputeStage; status: DisputeStatus }>> = {
  warning_needs_response: { stage: 'pre_dispute', status: 'dispute_opened' },
  warning_under_review: { stage: 'pre_dispute', status: 'dispute_challenged' },
  warning_closed: { stage: 'pre_dispute', status: 'dispute_cancelled' },
  needs_response: { stage: 'dispute', status: 'dispute_opened' },
  under_review: { stage: 'dispute', status: 'dispute_challenged' },
  appeal_needs_response: { stage: 'pre_arbitration', status: 'dispute_opened' },
  appeal_under_review: { stage: 'pre_arbitration', status: 'dispute_challenged' },
  won: { stage: 'dispute', status: 'dispute_won' },
  lost: { stage: 'dispute', status: 'dispute_lost' },
  prevented: { stage: 'pre_dispute', status: 'dispute_cancelled' },
};

/**
 * Our stage and status for a Stripe Dispute status through {@link STRIPE_DISPUTE_STATUS}. An unknown (newer) value
 * maps to `dispute`/`dispute_opened` (the nearest open status: the merchant may still have to act) and logs a
 * warning naming it; the raw value stays in `connectorStatus`.
 */
export function mapDisputeStatus(status: string, disputeId?: string): { stage: DisputeStage; status: DisputeStatus } {
  if (Object.hasOwn(STRIPE_DISPUTE_STATUS, status)) return STRIPE_DISPUTE_STATUS[status as StripeDisputeStatus];
  logger.warn('unknown Stripe dispute status; mapped to dispute_opened', {
    connector: 'stripe',
    connectorStatus: String(status).slice(0, 64),
    connectorDisputeId: disputeId,
  });
  return { stage: 'dispute', status: 'dispute_opened' };
}
