import { ConnectorRequestError, ConnectorTechnicalError, WebhookSignatureError, type InboundWebhook, type WebhookEvent } from '../connectors/connector';
import { configuredConnector } from '../connectors/registry';
import { ApiError, paymentBusy } from '../domain/errors';
import { canApply, type PaymentStatus } from '../domain/payment-status';
import type { PaymentResult } from '../connectors/connector';
import { isIdOf } from '../domain/ids';
import { recordMoneyMismatch, recordPaymentOutcome } from '../observability/metrics';
import { logger } from '../observability/logger';
import { applyPaymentWebhook, findPaymentOwner, getPayment, recordWebhookEvent } from '../storage/payments-repository';
import { attemptOf, claimInFlight, resultFields } from './payment-state';
import { findRefundOwner, getStoredRefund } from '../storage/refunds-repository';
import { reconcileRefund } from './refund-sync';

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
  payment_id?: string;
  status?: string;
}

async function applyPaymentEvent(connector: string, event: Extract<WebhookEvent, { kind: 'payment' }>): Promise<WebhookReceipt> {
  const base = { received: true as const, event_id: event.eventId };
  const paymentId = event.paymentId;
  if (!paymentId || !isIdOf('payment', paymentId)) {
    // Not one of ours (e.g. a payment made outside Switchyard on a shared processor account).
    return { ...base, applied: false, reason: 'the event names no Switchyard payment' };
  }
  const merchantId = await findPaymentOwner(paymentId);
  if (!merchantId) {
    // Ours by its shape but not visible yet (the lookup index is eventually consistent): the
    // processor should redeliver; nothing is recorded so the redelivery is applied.
    throw paymentBusy(`Payment ${paymentId} is not visible yet.`);
  }
  for (let round = 0; round < 3; round += 1) {
    const stored = await getPayment(merchantId, paymentId);
    if (!stored) return { ...base, applied: false, reason: 'no payment with this reference' };
    const p = stored.payment;
    const done = { ...base, payment_id: p.payment_id, status: p.status };
    if (p.connector !== connector) return { ...done, applied: false, reason: `the payment is routed to ${p.connector}` };
    const r = event.result;
    // A request that called the processor has not written its outcome yet: let the processor redeliver.
    if (claimInFlight(stored)) throw paymentBusy('The payment is being updated.');
    if (!eventApplies(p.status, r)) {
      if ((p.status === 'Cancelled' || p.status === 'Failed') && (r.status === 'Succeeded' || r.status === 'RequiresCapture')) {
        // The processor holds money for a payment we closed: never applied automatically, but never silent.
        logger.error('processor reports money on a closed payment; an operator must refund or void it there', { connector, event_id: event.eventId, payment_id: paymentId, status: p.status, reported: r.status });
        recordMoneyMismatch(connector);
      }
      await recordWebhookEvent(connector, event.eventId, paymentId);
      return { ...done, applied: false, reason: `the payment is ${p.status}; this event does not change it` };
    }
    const expected = p.status === 'RequiresCapture' ? p.amount : p.amount - p.amount_captured;
    const amountOk = p.status === 'RequiresCapture' ? r.status !== 'Succeeded' || (r.amountCaptured > 0 && r.amountCaptured <= expected) : r.amountCaptured === expected;
    if (r.status === 'Succeeded' && !amountOk) {
      // A success for another amount than the payment's is not applied: an operator must look at it.
      await recordWebhookEvent(connector, event.eventId, paymentId);
      logger.warn('webhook amount does not match the payment; not applied', { connector, event_id: event.eventId, payment_id: paymentId });
      return { ...done, applied: false, reason: `the event reports ${r.amountCaptured} captured, the payment expects ${expected}` };
    }
    const outcome = await applyPaymentWebhook(
      merchantId,
      stored,
      { connector, eventId: event.eventId },
      { expectedStatuses: [p.status] },
      { ...resultFields(r, p), attempts: [...(p.attempts ?? []), attemptOf(connector, new Date().toISOString(), r)] },
    );
    if (outcome === 'duplicate') return { ...done, applied: false, reason: 'event already applied' };
    if (outcome === 'applied') {
      recordPaymentOutcome({ ...p, status: r.status });
      return { ...done, status: r.status, applied: true };
    }
    // 'changed': the payment moved since it was read; read again and decide again.
  }
  throw paymentBusy('The payment kept changing while this event was applied.');
}

/**
 * Receives a connector's webhook (`POST /webhooks/{connector}`, no api-key):
 * verifies its signature with the connector's own scheme, then applies it to
 * the payment it names, once — a redelivered event changes nothing, a terminal
 * payment is never changed.
 * @returns the receipt (200)
 * @throws ApiError 404 for an unknown or unconfigured connector; 401 `invalid_signature`
 *   when the signature does not verify (nothing changes); 409 `payment_busy` when the
 *   processor should redeliver later
 */
export async function receiveConnectorWebhook(connectorName: string, webhook: InboundWebhook): Promise<WebhookReceipt> {
  const connector = await configuredConnector(connectorName);
  if (!connector) throw new ApiError(404, 'invalid_request_error', 'resource_missing', `No connector named '${connectorName}' is configured here.`, 'connector');
  let event: WebhookEvent;
  try {
    event = await connector.parseWebhook(webhook);
  } catch (err) {
    if (err instanceof WebhookSignatureError) {
      throw new ApiError(401, 'authentication_error', 'invalid_signature', `The webhook signature does not verify for ${connectorName}; nothing was changed.`);
    }
    if (err instanceof SyntaxError) throw new ApiError(400, 'invalid_request_error', 'invalid_json', 'The webhook body is not valid JSON.');
    if (err instanceof ConnectorTechnicalError || err instanceof ConnectorRequestError) {
      // Verifying the event needed a call to the processor that failed: ask for redelivery.
      throw new ApiError(503, 'connector_error', 'connector_unreachable', `Could not verify this event with ${connectorName}; deliver it again later.`);
    }
    throw err;
  }
  if (event.kind === 'ignored') return { received: true, event_id: event.eventId, applied: false, reason: event.reason };
  if (event.kind === 'payment') return applyPaymentEvent(connectorName, event);
  return applyRefundEvent(connectorName, event);
}

/**
 * A processor's refund event: settles the `Pending` refund it names (our refund id) by
 * asking the processor for that refund's current state (the event is a trigger; the
 * processor's answer is what is written, with the same conditional writes as the
 * reconciler). An event naming no refund of ours is acknowledged without a change.
 * A refund still running its own request is answered 409 so the processor redelivers.
 */
async function applyRefundEvent(connector: string, event: Extract<WebhookEvent, { kind: 'refund' }>): Promise<WebhookReceipt> {
  const base = { received: true as const, event_id: event.eventId };
  const refundId = event.refundId;
  if (!refundId || !isIdOf('refund', refundId)) return { ...base, applied: false, reason: 'the event names no Switchyard refund; the reconciler settles refunds by their own reference' };
  const merchantId = await findRefundOwner(refundId);
  if (!merchantId) throw paymentBusy(`Refund ${refundId} is not visible yet.`);
  const stored = await getStoredRefund(merchantId, refundId);
  if (!stored || stored.refund.connector !== connector) return { ...base, applied: false, reason: 'no refund of this connector with this reference' };
  if (stored.refund.status !== 'Pending') {
    if (stored.refund.status === 'Succeeded' && event.result.status === 'Failed') {
      // A refund that failed after succeeding (Stripe documents this): the customer was not repaid.
      logger.error('processor reports a failure of a refund recorded as succeeded; an operator must settle it', { connector, event_id: event.eventId, refund_id: refundId });
      recordMoneyMismatch(connector);
    }
    await recordWebhookEvent(connector, event.eventId, refundId);
    return { ...base, applied: false, reason: `the refund is already ${stored.refund.status}` };
  }
  const { refund, outcome } = await reconcileRefund({ merchantId }, stored);
  if (outcome === 'in_flight') throw paymentBusy('The refund is being recorded.');
  if (refund.status !== 'Pending') await recordWebhookEvent(connector, event.eventId, refundId);
  return { ...base, applied: outcome === 'succeeded' || outcome === 'failed' || outcome === 'recorded', reason: outcome, status: refund.status };
}
