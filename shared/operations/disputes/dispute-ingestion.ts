/**
 * Disputes arriving from processors: a processor's webhook (Paystack `charge.dispute.*`, Stripe
 * `charge.dispute.*`), the scheduled worker's polling (Flutterwave), or the sandbox. Each is recorded once per
 * (account, processor dispute id) — its id is derived from them — and moved forward only: a replayed event changes
 * nothing, a reordered one never undoes a final status (shared/domain/dispute-vocabulary.ts `canMoveDispute`).
 *
 * Money: a chargeback (stage `dispute` or later) withholds its amount from the payment's refundable money
 * (`amount_disputed`) in the same transaction that records it, conditional on the payment's version as read, so a
 * refund reserved at the same moment makes this read again: `amount_refunded + amount_disputed` never exceeds
 * `amount_captured`. A dispute over money already refunded withholds only what was left (the merchant answers it
 * with the refund as evidence). Won or withdrawn: the money comes back; lost, accepted or expired: it stays out.
 * An inquiry (`pre_dispute`) withholds nothing until it becomes a chargeback.
 */
import type { Connector, ConnectorDispute, WebhookEvent } from '../../connectors/connector';
import { type Dispute, DOCUMENTED_EVIDENCE_WINDOW_MS, disputeIdFor, type PaymentDispute, reminderLeadMs } from '../../domain/dispute';
import {
  canMoveDispute,
  type DisputeStatus,
  disputeStatusRank,
  isFinalDisputeStatus,
  RESTORING_DISPUTE_STATUSES,
} from '../../domain/dispute-vocabulary';
import type { EventType } from '../../domain/events';
import { isIdOf } from '../../domain/ids';
import { DISPUTE_LOG_MESSAGES } from '../../observability/dispute-log';
import { logger } from '../../observability/logger';
import { registerBillingMerchant } from '../../storage/billing-directory-repository';
import { DisputeChangedError, type DisputeClaim, getStoredDispute, writeDisputeChange } from '../../storage/disputes-repository';
import { findPaymentOwner, getPayment, type StoredPayment } from '../../storage/payments-repository';

/** The account a webhook came in on (a merchant connector account's own URL), or null for the stage's own. */
export interface DisputeWebhookAccount {
  merchantId: string;
  merchantConnectorId: string;
}

/** How often a challenged dispute is read back from its processor: daily. */
export const CHALLENGED_RECHECK_MS = 86_400_000;

/** Conditional writes tried before giving up to concurrent changes (the processor redelivers; the worker looks again). */
const ATTEMPTS = 4;

/** The key a dispute's id is derived from: the merchant connector account, or the stage's own account of the connector. */
export const disputeAccountKey = (connector: string, merchantConnectorId: string | null): string =>
  merchantConnectorId ?? `platform:${connector}`;

/** The event a dispute's move to `status` announces. */
export function disputeEventOf(status: DisputeStatus): EventType {
  switch (status) {
    case 'dispute_challenged':
      return 'dispute.challenged';
    case 'dispute_won':
      return 'dispute.won';
    case 'dispute_lost':
      return 'dispute.lost';
    case 'dispute_accepted':
      return 'dispute.accepted';
    case 'dispute_expired':
      return 'dispute.expired';
    default:
      return 'dispute.updated';
  }
}

/**
 * When a dispute's work is next due (ISO 8601 UTC), or null: an answer in flight is looked at when its lease ends;
 * an open dispute not yet answered gets its reminder `reminderLeadMs` before its deadline, then expires at it; a
 * challenged one is read back from its processor every {@link CHALLENGED_RECHECK_MS}.
 */
export function disputeDueAt(d: Dispute, claim: DisputeClaim | null, reminded: boolean): string | null {
  if (claim) return claim.lease_expires_at;
  // Challenged: the issuer decides; the processor is asked again daily (a decision its webhook did not bring).
  if (d.dispute_status === 'dispute_challenged') return new Date(Date.parse(d.updated_at) + CHALLENGED_RECHECK_MS).toISOString();
  if (d.dispute_status !== 'dispute_opened' || !d.challenge_required_by) return null;
  const deadline = new Date(d.challenge_required_by).getTime();
  if (reminded) return d.challenge_required_by;
  const opened = new Date(d.created_at).getTime();
  return new Date(deadline - reminderLeadMs(Math.max(0, deadline - opened))).toISOString();
}

/** What a dispute withholds of its payment (see the module comment). */
function heldAmount(after: Dispute, before: Dispute | undefined, payment: StoredPayment['payment']): number {
  if (RESTORING_DISPUTE_STATUSES.includes(after.dispute_status)) return 0;
  const already = before?.amount_held ?? 0;
  if (after.dispute_stage === 'pre_dispute' && already === 0) return 0;
  if (already > 0) return already;
  const available = payment.amount_captured - payment.amount_refunded - payment.amount_disputed;
  return Math.max(0, Math.min(after.amount, available));
}

/** The dispute fields a processor's view sets. */
function fromConnector(cd: ConnectorDispute, windowStart: string, connector: string): Partial<Dispute> {
  const deadline =
    cd.challengeRequiredBy ??
    new Date(new Date(windowStart).getTime() + (DOCUMENTED_EVIDENCE_WINDOW_MS[connector] ?? 7 * 86_400_000)).toISOString();
  return {
    dispute_stage: cd.stage,
    connector_status: cd.connectorStatus,
    connector_reason: cd.connectorReason,
    connector_reason_code: cd.connectorReasonCode,
    challenge_required_by: deadline,
  };
}

/** What {@link recordDispute} did. */
export interface DisputeRecording {
  applied: boolean;
  reason?: string;
  dispute?: Dispute;
}

/** Input of {@link recordDispute}. */
export interface DisputeReport {
  merchantId: string;
  connector: string;
  merchantConnectorId: string | null;
  /** Our payment id (already resolved). */
  paymentId: string;
  dispute: ConnectorDispute;
  /**
   * A reminder: `processor` (Paystack sends several: each one announced while the dispute waits for an answer) or
   * `scheduled` (ours, once, before the deadline).
   */
  reminder?: 'processor' | 'scheduled';
  /** The status to record instead of the processor's (an accept that the processor shows as lost). */
  statusOverride?: DisputeStatus;
  /** The answer claim to keep (null: clear it) and evidence to record, when the change is our own answer's. */
  answer?: { claim: DisputeClaim | null; evidence?: Dispute['evidence']; submittedAt?: string | null };
  /** ISO 8601 UTC (default now). */
  now?: string;
}

/**
 * Records a processor's view of a dispute (new, or moved forward), with the payment's money and the event, in one
 * transaction, retried on a concurrent change (see the module comment).
 * @returns whether anything changed (a replay, a reordered event, or a payment found nowhere changes nothing)
 * @throws storage errors; DisputeChangedError after {@link ATTEMPTS} lost races
 */
export async function recordDispute(report: DisputeReport): Promise<DisputeRecording> {
  const { merchantId, connector, dispute: cd } = report;
  const accountKey = disputeAccountKey(connector, report.merchantConnectorId);
  const disputeId = disputeIdFor(accountKey, cd.connectorDisputeId);
  for (let tries = 1; ; tries += 1) {
    const now = report.now ?? new Date().toISOString();
    const stored = await getStoredDispute(merchantId, disputeId);
    const storedPayment = await getPayment(merchantId, report.paymentId);
    if (!storedPayment) return { applied: false, reason: 'payment_not_found' };
    const payment = storedPayment.payment;
    const before = stored?.dispute;
    const wanted = report.statusOverride ?? cd.status;
    let after: Dispute;
    const events: { type: EventType; data: Dispute }[] = [];
    let reminded = stored?.reminded ?? false;
    if (!before) {
      // Its deadline is scheduled work: the worker finds the merchant through the billing directory.
      await registerBillingMerchant(merchantId);
      after = {
        dispute_id: disputeId,
        payment_id: payment.payment_id,
        amount: cd.amount,
        currency: cd.currency,
        dispute_stage: cd.stage,
        dispute_status: wanted,
        connector,
        merchant_connector_id: report.merchantConnectorId,
        connector_dispute_id: cd.connectorDisputeId,
        connector_status: cd.connectorStatus,
        connector_reason: cd.connectorReason,
        connector_reason_code: cd.connectorReasonCode,
        challenge_required_by: null,
        evidence: report.answer?.evidence ?? {},
        evidence_submitted_at: report.answer?.submittedAt ?? null,
        amount_held: 0,
        created_at: now,
        updated_at: now,
      };
      Object.assign(after, fromConnector(cd, cd.createdAt ?? now, connector));
      after.amount_held = heldAmount(after, undefined, payment);
      events.push({ type: 'dispute.opened', data: after });
      // First seen already past its opening (events out of order): its outcome too.
      if (wanted !== 'dispute_opened') events.push({ type: disputeEventOf(wanted), data: after });
    } else {
      const moves = canMoveDispute(before.dispute_status, wanted);
      const final = isFinalDisputeStatus(before.dispute_status);
      // A report behind what is recorded (stale) changes none of the processor's fields either.
      const behind = disputeStatusRank(wanted) < disputeStatusRank(before.dispute_status);
      const next: Dispute = { ...before };
      if (moves) next.dispute_status = wanted;
      if (!final && !behind) {
        Object.assign(next, fromConnector(cd, before.created_at, connector));
        // A deadline the processor does not give keeps the one computed at the opening.
        if (!cd.challengeRequiredBy) next.challenge_required_by = before.challenge_required_by;
      }
      if (report.answer) {
        if (report.answer.evidence) next.evidence = { ...before.evidence, ...report.answer.evidence };
        if (report.answer.submittedAt !== undefined) next.evidence_submitted_at = report.answer.submittedAt;
      }
      next.amount_held = heldAmount(next, before, payment);
      const changed =
        JSON.stringify({ ...next, updated_at: '' }) !== JSON.stringify({ ...before, updated_at: '' }) ||
        (report.answer !== undefined && (stored?.claim ?? null) !== report.answer.claim);
      const remind =
        next.dispute_status === 'dispute_opened' && (report.reminder === 'processor' || (report.reminder === 'scheduled' && !reminded));
      if (!changed && !remind) return { applied: false, reason: final ? 'dispute_final' : 'unchanged', dispute: before };
      next.updated_at = now > before.updated_at ? now : new Date(new Date(before.updated_at).getTime() + 1).toISOString();
      after = next;
      if (moves) events.push({ type: disputeEventOf(wanted), data: after });
      else if (changed) events.push({ type: 'dispute.updated', data: after });
      if (remind) {
        reminded = true;
        events.push({ type: 'dispute.reminder', data: after });
      }
    }
    const claim = report.answer ? report.answer.claim : (stored?.claim ?? null);
    const delta = after.amount_held - (before?.amount_held ?? 0);
    const summaries = currentSummaries(payment.disputes);
    summaries[after.dispute_id] = {
      dispute_id: after.dispute_id,
      amount: after.amount,
      dispute_stage: after.dispute_stage,
      dispute_status: after.dispute_status,
      created_at: after.created_at,
    };
    try {
      await writeDisputeChange(merchantId, {
        after,
        accountKey,
        readAt: before?.updated_at,
        claim,
        dueAt: disputeDueAt(after, claim, reminded),
        reminded,
        payment: {
          paymentId: payment.payment_id,
          version: storedPayment.version,
          amountDisputed: payment.amount_disputed + delta,
          disputes: summaries,
        },
        events,
      });
      const fields = { account: accountKey, connector, merchant_id: merchantId, dispute_id: after.dispute_id };
      if (!before)
        logger.info(DISPUTE_LOG_MESSAGES.opened, { ...fields, amount_held: after.amount_held, dispute_stage: after.dispute_stage });
      if (events.some((e) => e.type === 'dispute.reminder')) logger.info(DISPUTE_LOG_MESSAGES.reminded, fields);
      if (events.some((e) => e.type === 'dispute.expired')) logger.info(DISPUTE_LOG_MESSAGES.expired, fields);
      return { applied: true, dispute: after };
    } catch (err) {
      if (!(err instanceof DisputeChangedError) || tries >= ATTEMPTS) throw err;
    }
  }
}

function currentSummaries(list: PaymentDispute[]): Record<string, PaymentDispute> {
  return Object.fromEntries(list.map((d) => [d.dispute_id, d]));
}

/**
 * Records a processor's dispute event (see the module comment). An event naming only the dispute is completed with
 * the processor's view (`fetchDispute`); the merchant is the account's (a merchant connector account's URL) or the
 * payment's owner (the stage's own URL).
 * @returns whether it changed anything, and why not (`payment_not_found`, `unchanged`, `dispute_final`, …)
 * @throws ConnectorTechnicalError / ConnectorRequestError from `fetchDispute` (the receiver asks for redelivery);
 *   storage errors
 */
export async function ingestDisputeEvent(
  connectorName: string,
  connector: Connector,
  event: Extract<WebhookEvent, { kind: 'dispute' }>,
  account: DisputeWebhookAccount | null,
): Promise<{ applied: boolean; reason?: string }> {
  let cd = event.dispute;
  // An event naming neither the dispute's details nor our payment (Stripe's Dispute carries the PaymentIntent, not our
  // id): the processor's own view names it (Stripe's fetch expands the PaymentIntent and its metadata).
  if (cd && !cd.paymentId && !event.paymentId && connector.fetchDispute) {
    cd = await connector.fetchDispute({
      connectorDisputeId: event.connectorDisputeId,
      paymentId: '',
      connectorTransactionId: cd.connectorTransactionId,
      currency: cd.currency,
    });
  }
  if (!cd) {
    if (!connector.fetchDispute) return { applied: false, reason: 'dispute_not_readable' };
    cd = await connector.fetchDispute({
      connectorDisputeId: event.connectorDisputeId,
      paymentId: event.paymentId ?? '',
      connectorTransactionId: null,
      currency: 'NGN',
    });
  }
  const paymentId = cd.paymentId ?? event.paymentId;
  if (!paymentId || !isIdOf('payment', paymentId)) {
    logger.warn('a dispute event names no payment of ours; acknowledged without a change', { connector: connectorName });
    return { applied: false, reason: 'payment_not_found' };
  }
  const merchantId = account?.merchantId ?? (await findPaymentOwner(paymentId));
  if (!merchantId) return { applied: false, reason: 'payment_not_found' };
  const stored = await getPayment(merchantId, paymentId);
  // The account the payment went through must be the one the event came in on (no merchant's event moves another's).
  if (!stored || (stored.payment.merchant_connector_id ?? null) !== (account?.merchantConnectorId ?? null)) {
    return { applied: false, reason: 'payment_not_found' };
  }
  const recorded = await recordDispute({
    merchantId,
    connector: connectorName,
    merchantConnectorId: account?.merchantConnectorId ?? null,
    paymentId,
    dispute: cd,
    ...(event.reminder ? { reminder: 'processor' as const } : {}),
  });
  return { applied: recorded.applied, ...(recorded.reason ? { reason: recorded.reason } : {}) };
}
