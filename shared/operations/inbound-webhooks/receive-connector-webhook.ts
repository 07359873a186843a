// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../billing/invoice-settlement-hook';
import '../payment-links/link-place-hook';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Connector, PaymentResult } from '../../connectors/connector';
import {
  ConnectorRequestError,
  ConnectorTechnicalError,
  type InboundWebhook,
  type WebhookEvent,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../../connectors/connector';
import { ApiError, paymentBusy } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import { canApply, type PaymentStatus } from '../../domain/payment-status';
import { logger } from '../../observability/logger';
import { BUSINESS_METRICS, metrics, recordMoneyMismatch, recordPaymentOutcome } from '../../observability/metrics';
import { accountConnector } from '../../processor-call/account-connectors';
import { configuredConnector } from '../../processor-call/connector-registry';
import { findConnectorAccount } from '../../storage/connector-accounts-repository';
import { acknowledgeUnmatchedWebhook, countUnmatchedWebhookDelivery, recordWebhookEvent } from '../../storage/inbound-webhooks-repository';
import { applyPaymentWebhook, findPaymentOwner, getPayment } from '../../storage/payments-repository';
import { findRefundOwner, getStoredRefund } from '../../storage/refunds-repository';
import { ingestDisputeEvent } from '../disputes/dispute-ingestion';
import { afterAuthorization } from '../payments/payment-authorization';
import { attemptOf, claimInFlight, resultFields, targetOf } from '../payments/payment-state';
import { applyPayoutEvent } from '../payouts/payout-sync';
import { reconcileRefund } from '../refunds/refund-sync';
import { countPaymentOutcome } from '../routing/routing-outcomes';

/**
 * Whether a processor event may change a payment in `status`: any answer settles a
 * payment waiting on its processor (`Processing`, `RequiresAction`); an authorization
 * held for capture (`RequiresCapture`) moves only when the processor reports it
 * captured (e.g. from its dashboard) or cancelled (e.g. Stripe cancels uncaptured
 * intents after 7 days: https://docs.stripe.com/payments/place-a-hold-on-a-payment-method).
 */
export function eventApplies(status: PaymentStatus, result: PaymentResult): boolean {
  if (canApply('connector_update', status)) return true;
  return status === 'RequiresCapture' && (result.status === 'Succeeded' || result.status === 'Cancelled');
}

/** What `POST /webhooks/{connector}` answers (200): whether the event changed anything. */
export interface WebhookReceipt {
  received: true;
  event_id: string;
  applied: boolean;
  /** Why nothing changed, when `applied` is false. */
  reason?: string;
  /**
   * True when the event names a payment or refund id of ours that exists nowhere here and was
   * acknowledged after {@link UNMATCHED_WEBHOOK_BOUND} (logged and counted once, kept in the table).
   */
  unmatched?: true;
  payment_id?: string;
  status?: string;
}

/**
 * When a signed event naming one of our payment (or refund) ids that is found nowhere
 * (`findPaymentOwner` gives nothing) stops being answered 409 "deliver again" and is acknowledged
 * (200, `unmatched: true`): once this event has been delivered `minDeliveries` times here **and** its
 * first delivery is `minAgeMs` old, both counted by us (an `UNMATCHED_WEBHOOK#…` item, our clock).
 *
 * - The race it must cover: a processor's event can only exist after our authorize (or refund)
 *   call, which is made after the item is written with its claim (docs/money-safety.md), so an
 *   event that finds nothing is behind the id index (GSI4, eventually consistent: writes reach a GSI
 *   "within 1 second", https://repost.aws/knowledge-center/dynamodb-missing-table-items-gsi). Three
 *   deliveries spread over at least 5 minutes are hundreds of times that.
 * - It ends at the processor's third delivery, well inside every retry window, so none keeps
 *   retrying for days or disables the endpoint: Paystack live retries every 3 minutes for the first
 *   4 tries, then hourly for 72 h (test mode hourly for 10 h; https://paystack.com/docs/payments/webhooks/)
 *   → acknowledged at minute 6; Stripe retries for up to 3 days with exponential back-off (test mode
 *   3 times over a few hours; https://docs.stripe.com/webhooks#behaviors) → at its third delivery;
 *   Flutterwave, when retries are enabled, retries 3 times 30 minutes apart
 *   (https://developer.flutterwave.com/docs/webhooks) → at minute 60.
 * - The event's own timestamp is not used: the sandbox's and Paystack's events carry none
 *   (Paystack's `data.paid_at` is the transaction's), and a redelivered old event is not late.
 * Acknowledging loses nothing: a payment or refund that does exist (an index lagging for minutes in
 * an AWS incident) is settled by the reconciler from the processor's own answer (docs/money-safety.md
 * "The reconciler").
 */
export const UNMATCHED_WEBHOOK_BOUND = { minDeliveries: 3, minAgeMs: 5 * 60 * 1000 } as const;

/**
 * An event naming a payment or refund id of ours that is found nowhere: counts this delivery and,
 * below {@link UNMATCHED_WEBHOOK_BOUND}, asks for redelivery (409 `payment_busy`); at the bound,
 * acknowledges it — the first delivery to do so logs `webhook event matches nothing; acknowledged`
 * (warning, with connector, event id, the id it names, deliveries, first seen) and counts
 * `UnmatchedWebhooks` by connector; later deliveries are acknowledged again without either.
 */
async function unmatchedEvent(connector: string, eventId: string, kind: 'payment' | 'refund', subjectId: string): Promise<WebhookReceipt> {
  const nowMs = Date.now();
  const seen = await countUnmatchedWebhookDelivery(connector, eventId, subjectId, nowMs);
  const idField = kind === 'payment' ? 'payment_id' : 'refund_id';
  const receipt: WebhookReceipt = {
    received: true,
    event_id: eventId,
    applied: false,
    unmatched: true,
    reason: `no ${kind} with this id exists here; acknowledged as unmatched`,
  };
  if (seen.acknowledgedAt) return receipt;
  const firstSeenBy = new Date(nowMs - UNMATCHED_WEBHOOK_BOUND.minAgeMs).toISOString();
  const due = seen.deliveries >= UNMATCHED_WEBHOOK_BOUND.minDeliveries && seen.firstSeenAt <= firstSeenBy;
  const context = { connector, event_id: eventId, [idField]: subjectId, deliveries: seen.deliveries, first_seen_at: seen.firstSeenAt };
  if (!due) {
    logger.info('webhook event matches nothing yet; redelivery asked', context);
    throw paymentBusy(`The ${kind} this event names is not visible yet.`);
  }
  if (await acknowledgeUnmatchedWebhook(connector, eventId, { minDeliveries: UNMATCHED_WEBHOOK_BOUND.minDeliveries, firstSeenBy }, nowMs)) {
    logger.warn('webhook event matches nothing; acknowledged', context);
    const metric = metrics.singleMetric();
    metric.addDimension('connector', connector);
    metric.addMetric(BUSINESS_METRICS.unmatchedWebhooks, MetricUnit.Count, 1);
  }
  return receipt;
}

async function applyPaymentEvent(
  connector: string,
  event: Extract<WebhookEvent, { kind: 'payment' }>,
  account: WebhookAccount | null,
): Promise<WebhookReceipt> {
  const dedupe = dedupeNamespace(connector, account);
  const base = { received: true as const, event_id: event.eventId };
  const paymentId = event.paymentId;
  if (!paymentId || !isIdOf('payment', paymentId)) {
    // Not one of ours (e.g. a payment made outside Switchyard on a shared processor account).
    return { ...base, applied: false, reason: 'the event names no Switchyard payment' };
  }
  const merchantId = await findPaymentOwner(paymentId);
  if (!merchantId) {
    // Ours by its shape but found nowhere: not visible yet (the id index is eventually consistent),
    // so the processor redelivers — until the bound, then it is acknowledged as unmatched. No
    // WEBHOOK# record is written, so a redelivery that finds the payment is still applied.
    return unmatchedEvent(dedupe, event.eventId, 'payment', paymentId);
  }
  // An account's webhook speaks only for that account's merchant.
  if (account && merchantId !== account.merchantId)
    return { ...base, applied: false, reason: 'no payment of this connector account with this reference' };
  for (let round = 0; round < 3; round += 1) {
    const stored = await getPayment(merchantId, paymentId);
    if (!stored) return { ...base, applied: false, reason: 'no payment with this reference' };
    const p = stored.payment;
    const done = { ...base, payment_id: p.payment_id, status: p.status };
    if (p.connector !== connector) return { ...done, applied: false, reason: `the payment is routed to ${p.connector}` };
    if (!sameAccount(connector, p.merchant_connector_id ?? null, account))
      return { ...done, applied: false, reason: 'the payment is on another connector account' };
    const r = event.result;
    // A request that called the processor has not written its outcome yet: let the processor redeliver.
    if (claimInFlight(stored)) throw paymentBusy('The payment is being updated.');
    if (!eventApplies(p.status, r)) {
      if ((p.status === 'Cancelled' || p.status === 'Failed') && (r.status === 'Succeeded' || r.status === 'RequiresCapture')) {
        // The processor holds money for a payment we closed: never applied automatically, but never silent.
        logger.error('processor reports money on a closed payment; an operator must refund or void it there', {
          connector,
          event_id: event.eventId,
          payment_id: paymentId,
          status: p.status,
          reported: r.status,
        });
        recordMoneyMismatch(connector);
      }
      await recordWebhookEvent(dedupe, event.eventId, paymentId);
      return { ...done, applied: false, reason: `the payment is ${p.status}; this event does not change it` };
    }
    const expected = p.status === 'RequiresCapture' ? p.amount : p.amount - p.amount_captured;
    const amountOk =
      p.status === 'RequiresCapture'
        ? r.status !== 'Succeeded' || (r.amountCaptured > 0 && r.amountCaptured <= expected)
        : r.amountCaptured === expected;
    if (r.status === 'Succeeded' && !amountOk) {
      // A success for another amount than the payment's is not applied: an operator must look at it.
      await recordWebhookEvent(dedupe, event.eventId, paymentId);
      logger.warn('webhook amount does not match the payment; not applied', { connector, event_id: event.eventId, payment_id: paymentId });
      return { ...done, applied: false, reason: `the event reports ${r.amountCaptured} captured, the payment expects ${expected}` };
    }
    const outcome = await applyPaymentWebhook(
      merchantId,
      stored,
      { connector: dedupe, eventId: event.eventId },
      { expectedStatuses: [p.status] },
      { ...resultFields(r, p), attempts: [...(p.attempts ?? []), attemptOf(targetOf(p), new Date().toISOString(), r)] },
    );
    if (outcome === 'duplicate') return { ...done, applied: false, reason: 'event already applied' };
    if (outcome === 'applied') {
      recordPaymentOutcome({ ...p, status: r.status });
      // An authorization this webhook settled counts for success-rate routing (a capture's or refund's does not).
      if (p.status === 'Processing' || p.status === 'RequiresAction') await countPaymentOutcome(merchantId, { ...p, status: r.status });
      // A card to save (setup_future_usage), an invoice to settle or a link's place to give back follows the outcome.
      if (p.setup_future_usage || p.payment_method_id || p.metadata?.invoice_id || p.payment_link_id) {
        const after = await getPayment(merchantId, paymentId);
        if (after) await afterAuthorization({ merchantId }, after.payment, r, { countRoutingOutcome: false });
      }
      return { ...done, status: r.status, applied: true };
    }
    // 'changed': the payment moved since it was read; read again and decide again.
  }
  throw paymentBusy('The payment kept changing while this event was applied.');
}

/** The connector account a webhook was received for (`/webhooks/{connector}/{merchant_connector_id}`). */
interface WebhookAccount {
  merchantId: string;
  merchantConnectorId: string;
}

/**
 * The namespace of an event's idempotency record (`WEBHOOK#<namespace>#<event id>`): the connector for the
 * stage's own accounts, `<connector>/<merchant_connector_id>` for a merchant's, so two accounts' event ids never collide.
 */
function dedupeNamespace(connector: string, account: WebhookAccount | null): string {
  return account ? `${connector}/${account.merchantConnectorId}` : connector;
}

/**
 * Whether a webhook received for `account` (null: the stage's own account, `/webhooks/{connector}`) may
 * change a payment or refund on `subjectAccount`: only its own. The sandbox keeps no credentials per
 * account and always posts to `/webhooks/sandbox`, signed with the stage's sandbox secret, so its
 * events apply to sandbox payments of any account.
 */
function sameAccount(connector: string, subjectAccount: string | null, account: WebhookAccount | null): boolean {
  if (connector === 'sandbox') return true;
  return subjectAccount === (account?.merchantConnectorId ?? null);
}

/**
 * Receives a connector's webhook (`POST /webhooks/{connector}`, no api-key):
 * verifies its signature with the connector's own scheme, then applies it to
 * the payment it names, once — a redelivered event changes nothing, a terminal
 * payment is never changed.
 * @returns the receipt (200)
 * @throws ApiError 404 for an unknown or unconfigured connector; 401 `invalid_signature`
 *   when the signature does not verify (nothing changes); 400 (`invalid_json`,
 *   `parameter_missing`, `parameter_invalid_type`, `parameter_invalid`, with `param`) when it
 *   verifies but the body is not an event the connector can read (nothing changes); 409
 *   `payment_busy` when the processor should redeliver later (the payment's own request is still
 *   writing its outcome, or an id of ours is found nowhere yet — see {@link UNMATCHED_WEBHOOK_BOUND})
 */
export async function receiveConnectorWebhook(
  connectorName: string,
  webhook: InboundWebhook,
  merchantConnectorId?: string,
): Promise<WebhookReceipt> {
  let account: WebhookAccount | null = null;
  let connector: Connector | undefined;
  if (merchantConnectorId !== undefined) {
    const found = isIdOf('connectorAccount', merchantConnectorId) ? await findConnectorAccount(merchantConnectorId) : undefined;
    connector = found && found.connector_name === connectorName ? await accountConnector(found) : undefined;
    if (!found || !connector)
      throw new ApiError(
        404,
        'invalid_request_error',
        'resource_missing',
        'No such connector account here: check the webhook URL (it is the webhook_url of your connector account).',
        'merchant_connector_id',
      );
    account = { merchantId: found.merchant_id, merchantConnectorId };
  } else {
    connector = await configuredConnector(connectorName);
  }
  if (!connector)
    throw new ApiError(
      404,
      'invalid_request_error',
      'resource_missing',
      'No such connector is configured here: check the connector name in the webhook URL (sandbox, paystack, flutterwave or stripe).',
      'connector',
    );
  let event: WebhookEvent;
  try {
    event = await connector.parseWebhook(webhook);
  } catch (err) {
    if (err instanceof WebhookSignatureError) {
      throw new ApiError(
        401,
        'authentication_error',
        'invalid_signature',
        `The webhook signature does not verify for ${connectorName}; nothing was changed.`,
      );
    }
    if (err instanceof WebhookPayloadError) {
      // Signed but malformed: the same body will never apply, so it is refused as bad input (never a 5xx).
      throw new ApiError(400, 'invalid_request_error', err.code, `${err.message} Nothing was changed.`, err.param);
    }
    if (err instanceof SyntaxError) throw new ApiError(400, 'invalid_request_error', 'invalid_json', 'The webhook body is not valid JSON.');
    if (err instanceof ConnectorTechnicalError || err instanceof ConnectorRequestError) {
      // Verifying the event needed a call to the processor that failed: ask for redelivery.
      throw new ApiError(
        503,
        'connector_error',
        'connector_unreachable',
        `Could not verify this event with ${connectorName}; deliver it again later.`,
      );
    }
    throw err;
  }
  if (event.kind === 'ignored') return { received: true, event_id: event.eventId, applied: false, reason: event.reason };
  if (event.kind === 'payment') return applyPaymentEvent(connectorName, event, account);
  if (event.kind === 'dispute') return applyDisputeEvent(connectorName, connector, event, account);
  if (event.kind === 'payout') {
    // A payout's event: applied to the payout it names (our reference), on its own account only.
    const owns = (merchantId: string, mca: string | null) =>
      (!account || merchantId === account.merchantId) && sameAccount(connectorName, mca, account);
    const receipt = await applyPayoutEvent(connectorName, event, owns);
    return { received: true, event_id: event.eventId, ...receipt };
  }
  return applyRefundEvent(connectorName, event, account);
}

/**
 * A processor's dispute event: recorded once per (account, processor dispute id) and moved forward only
 * (shared/operations/disputes/dispute-ingestion.ts). An event naming only the dispute is completed with the
 * processor's own view (`fetchDispute`).
 */
async function applyDisputeEvent(
  connectorName: string,
  connector: Connector,
  event: Extract<WebhookEvent, { kind: 'dispute' }>,
  account: WebhookAccount | null,
): Promise<WebhookReceipt> {
  const applied = await ingestDisputeEvent(connectorName, connector, event, account);
  return { received: true, event_id: event.eventId, applied: applied.applied, ...(applied.reason ? { reason: applied.reason } : {}) };
}

/**
 * A processor's refund event: settles the `Pending` refund it names (our refund id) by
 * asking the processor for that refund's current state (the event is a trigger; the
 * processor's answer is what is written, with the same conditional writes as the
 * reconciler). An event naming no refund of ours is acknowledged without a change; one naming a
 * refund id of ours found nowhere is answered 409 until {@link UNMATCHED_WEBHOOK_BOUND}, then
 * acknowledged as unmatched. A refund still running its own request is answered 409 so the
 * processor redelivers.
 */
async function applyRefundEvent(
  connector: string,
  event: Extract<WebhookEvent, { kind: 'refund' }>,
  account: WebhookAccount | null,
): Promise<WebhookReceipt> {
  const dedupe = dedupeNamespace(connector, account);
  const base = { received: true as const, event_id: event.eventId };
  const refundId = event.refundId;
  if (!refundId || !isIdOf('refund', refundId))
    return {
      ...base,
      applied: false,
      reason: 'the event names no Switchyard refund; the reconciler settles refunds by their own reference',
    };
  const merchantId = await findRefundOwner(refundId);
  if (!merchantId) return unmatchedEvent(dedupe, event.eventId, 'refund', refundId);
  if (account && merchantId !== account.merchantId)
    return { ...base, applied: false, reason: 'no refund of this connector account with this reference' };
  const stored = await getStoredRefund(merchantId, refundId);
  if (!stored || stored.refund.connector !== connector || !sameAccount(connector, stored.refund.merchant_connector_id ?? null, account))
    return { ...base, applied: false, reason: 'no refund of this connector with this reference' };
  if (stored.refund.status !== 'Pending') {
    if (stored.refund.status === 'Succeeded' && event.result.status === 'Failed') {
      // A refund that failed after succeeding (Stripe documents this): the customer was not repaid.
      logger.error('processor reports a failure of a refund recorded as succeeded; an operator must settle it', {
        connector,
        event_id: event.eventId,
        refund_id: refundId,
      });
      recordMoneyMismatch(connector);
    }
    await recordWebhookEvent(dedupe, event.eventId, refundId);
    return { ...base, applied: false, reason: `the refund is already ${stored.refund.status}` };
  }
  const { refund, outcome } = await reconcileRefund({ merchantId }, stored);
  if (outcome === 'in_flight') throw paymentBusy('The refund is being recorded.');
  if (refund.status !== 'Pending') await recordWebhookEvent(dedupe, event.eventId, refundId);
  return {
    ...base,
    applied: outcome === 'succeeded' || outcome === 'failed' || outcome === 'recorded',
    reason: outcome,
    status: refund.status,
  };
}
