/**
 * Stripe's webhooks: the `Stripe-Signature` check, the checks of a signed event's fields, and the mapping of the
 * events the adapter applies (PaymentIntent, Refund, Dispute) to ours.
 *
 * Sources: https://docs.stripe.com/webhooks/signature and stripe-node `src/Webhooks.ts` (`t=…,v1=…`, HMAC-SHA256 of
 * `${t}.${rawBody}`, 300 s default tolerance); https://docs.stripe.com/api/events/object and
 * https://docs.stripe.com/api/events/types; https://docs.stripe.com/api/expanding_objects.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '../connector';
import {
  MAX_WEBHOOK_ID_LENGTH,
  optionalInteger,
  optionalObject,
  optionalString,
  requiredInteger,
  requiredObject,
  requiredString,
  type WebhookObject,
} from '../webhook-payload';
import { isAuthenticationRequired } from './decline-codes';
import { disputeFromStripe } from './disputes';
import { PAYMENT_ID_METADATA_KEY, REFUND_ID_METADATA_KEY } from './requests';
import { paymentResultFromIntent, refundResultFromRefund, savesPaymentMethod } from './responses';
import type { StripeDispute, StripeEvent, StripePaymentIntent, StripeRefund } from './wire-types';

/**
 * Why a PaymentIntent carried by a webhook event must be read again before it is mapped, or null:
 * - `saved_method`: it saved its card ({@link savesPaymentMethod}) but events carry `payment_method` as an id,
 *   never expanded, so the card summary and fingerprint are read with the intent
 *   (`GET /v1/payment_intents/{id}?expand[0]=payment_method`, one call);
 * - `authentication`: an off-session attempt the issuer refused with `authentication_required`
 *   ({@link isAuthenticationRequired}), which the adapter answers by asking the payer
 *   (`StripeConnector.authorize`): the intent has moved on to `requires_action` (or failed for good), and that
 *   current state, not the failure the event shows, is what the payment must take.
 */
export function webhookIntentReread(intent: StripePaymentIntent): 'saved_method' | 'authentication' | null {
  if (intent.status === 'requires_payment_method' && isAuthenticationRequired(intent.last_payment_error)) return 'authentication';
  if (savesPaymentMethod(intent) && typeof intent.payment_method === 'string') return 'saved_method';
  return null;
}

/** Default tolerance between a webhook's signed timestamp and our clock, in seconds (Stripe's libraries: 300). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Event types the adapter applies and what they concern. Every other event type
 * is acknowledged and ignored. https://docs.stripe.com/api/events/types;
 * `refund.created|updated|failed` apply to all refunds since API version
 * 2024-10-28 (https://docs.stripe.com/changelog/acacia/2024-10-28/refund-webhook-update),
 * `charge.refund.updated` before that.
 */
export const STRIPE_WEBHOOK_EVENTS: Readonly<Record<string, 'payment' | 'refund' | 'dispute'>> = {
  'payment_intent.succeeded': 'payment',
  'payment_intent.payment_failed': 'payment',
  'payment_intent.canceled': 'payment',
  'payment_intent.amount_capturable_updated': 'payment',
  'payment_intent.processing': 'payment',
  'charge.refund.updated': 'refund',
  'refund.created': 'refund',
  'refund.updated': 'refund',
  'refund.failed': 'refund',
  // Every dispute event carries the Dispute in `data.object` (https://docs.stripe.com/api/events/types).
  'charge.dispute.created': 'dispute',
  'charge.dispute.updated': 'dispute',
  'charge.dispute.closed': 'dispute',
  'charge.dispute.funds_withdrawn': 'dispute',
  'charge.dispute.funds_reinstated': 'dispute',
};

/** A parsed `Stripe-Signature` header: the signed timestamp (Unix seconds) and every `v1` signature. */
export interface StripeSignatureHeader {
  timestamp: number;
  signatures: string[];
}

/**
 * Parses `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…][,v0=…]` (other schemes ignored,
 * as Stripe's libraries do).
 * @returns the timestamp and `v1` signatures, or null when there is no integer `t` or no `v1`
 */
export function parseSignatureHeader(header: string | undefined): StripeSignatureHeader | null {
  if (!header) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value) signatures.push(value);
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * The `v1` signature Stripe computes: hex HMAC-SHA256 of `${timestamp}.${rawBody}`
 * keyed with the endpoint's signing secret (`whsec_…`, used as-is).
 */
export function computeSignature(timestamp: number, rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex signatures (false when lengths differ). */
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'utf8');
  const given = Buffer.from(givenHex, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Why a `Stripe-Signature` does not verify, or null when it does: some `v1`
 * matches (constant-time) and `|now − t| ≤ toleranceSeconds`.
 */
export function signatureProblem(input: {
  header: string | undefined;
  rawBody: string;
  secret: string;
  nowMs: number;
  toleranceSeconds: number;
}): string | null {
  if (!input.secret) return 'No Stripe webhook secret is configured.';
  if (!input.header) return 'The Stripe-Signature header is missing.';
  const parsed = parseSignatureHeader(input.header);
  if (!parsed) return 'The Stripe-Signature header has no timestamp or no v1 signature.';
  const expected = computeSignature(parsed.timestamp, input.rawBody, input.secret);
  if (!parsed.signatures.some((s) => signaturesMatch(expected, s))) return 'No Stripe-Signature v1 signature matches the payload.';
  const skew = Math.abs(Math.floor(input.nowMs / 1000) - parsed.timestamp);
  if (skew > input.toleranceSeconds) return 'The Stripe-Signature timestamp is outside the tolerance.';
  return null;
}

/**
 * Maps a verified event to ours. PaymentIntent events → `payment` with our id from
 * `metadata.payment_id` and the intent mapped by {@link paymentResultFromIntent};
 * refund events → `refund` with our id from `metadata.refund_id`; `charge.dispute.*` → `dispute` with the Dispute
 * mapped by {@link disputeFromStripe} (`paymentId` null: an event's Dispute names the PaymentIntent by id only, so the
 * core finds the payment by `dispute.connectorTransactionId`; a dispute in a currency we never take → `ignored`); anything else →
 * `ignored`. `eventId` is Stripe's `evt_…` id, identical on redelivery.
 */
export function webhookEventFromStripe(event: StripeEvent): WebhookEvent {
  const eventId = String(event.id);
  const kind = Object.hasOwn(STRIPE_WEBHOOK_EVENTS, event.type) ? STRIPE_WEBHOOK_EVENTS[event.type] : undefined;
  const object = event.data?.object;
  if (kind === 'payment' && object?.object === 'payment_intent') {
    const intent = object as unknown as StripePaymentIntent;
    return {
      kind: 'payment',
      eventId,
      paymentId: intent.metadata?.[PAYMENT_ID_METADATA_KEY] ?? null,
      connectorTransactionId: intent.id ?? null,
      result: paymentResultFromIntent(intent),
    };
  }
  if (kind === 'dispute' && object?.object === 'dispute') {
    const dispute = disputeFromStripe(object as unknown as StripeDispute);
    if (!dispute)
      return { kind: 'ignored', eventId, reason: `Stripe dispute ${String(object.id)} is in a currency Switchyard does not take.` };
    return { kind: 'dispute', eventId, dispute, connectorDisputeId: dispute.connectorDisputeId, paymentId: dispute.paymentId };
  }
  if (kind === 'refund' && object?.object === 'refund') {
    const refund = object as unknown as StripeRefund;
    return {
      kind: 'refund',
      eventId,
      refundId: refund.metadata?.[REFUND_ID_METADATA_KEY] ?? null,
      connectorRefundId: refund.id ?? null,
      result: refundResultFromRefund(refund),
    };
  }
  return { kind: 'ignored', eventId, reason: `Stripe event ${event.type} is not applied.` };
}

/**
 * Checks an expandable field of a signed event's object (`customer`, `payment_method`): absent, null, an id
 * (a string of at most {@link MAX_WEBHOOK_ID_LENGTH} characters) or an object with a string `id`
 * (https://docs.stripe.com/api/expanding_objects: an expandable field is an id, or the object once expanded).
 * @throws WebhookPayloadError naming the field
 */
function optionalIdOrObject(connector: string, parent: WebhookObject, key: string, path: string): void {
  const value = parent[key];
  if (value === undefined || value === null || typeof value === 'string') {
    optionalString(connector, parent, key, path, MAX_WEBHOOK_ID_LENGTH);
    return;
  }
  const object = optionalObject(connector, parent, key, path);
  if (object) requiredString(connector, object, 'id', `${path}.${key}`);
}

/**
 * Checks a signed body against what every Stripe Event carries (`id`, `type`, `data.object`;
 * https://docs.stripe.com/api/events/object) and, for the events the adapter applies
 * ({@link STRIPE_WEBHOOK_EVENTS}), the fields of the PaymentIntent or Refund its mapping reads, with
 * the types it relies on (https://docs.stripe.com/api/payment_intents/object,
 * https://docs.stripe.com/api/refunds/object, https://docs.stripe.com/api/disputes/object). Fields the mapping does not read are not checked.
 * @throws WebhookPayloadError naming the field
 */
export function checkStripeEventFields(connector: string, event: WebhookObject): void {
  requiredString(connector, event, 'id');
  const type = requiredString(connector, event, 'type');
  const data = requiredObject(connector, event, 'data');
  const object = requiredObject(connector, data, 'object', 'data');
  const kind = Object.hasOwn(STRIPE_WEBHOOK_EVENTS, type) ? STRIPE_WEBHOOK_EVENTS[type] : undefined;
  const path = 'data.object';
  if (kind === 'payment' && object.object === 'payment_intent') {
    requiredString(connector, object, 'id', path);
    requiredString(connector, object, 'status', path);
    optionalInteger(connector, object, 'amount_received', path);
    const metadata = optionalObject(connector, object, 'metadata', path);
    if (metadata) optionalString(connector, metadata, PAYMENT_ID_METADATA_KEY, `${path}.metadata`, MAX_WEBHOOK_ID_LENGTH);
    const error = optionalObject(connector, object, 'last_payment_error', path);
    if (error) {
      for (const key of ['type', 'code', 'decline_code'])
        optionalString(connector, error, key, `${path}.last_payment_error`, MAX_WEBHOOK_ID_LENGTH);
      optionalString(connector, error, 'message', `${path}.last_payment_error`);
    }
    optionalString(connector, object, 'setup_future_usage', path, MAX_WEBHOOK_ID_LENGTH);
    for (const key of ['customer', 'payment_method']) optionalIdOrObject(connector, object, key, path);
    const next = optionalObject(connector, object, 'next_action', path);
    if (next) {
      optionalString(connector, next, 'type', `${path}.next_action`, MAX_WEBHOOK_ID_LENGTH);
      const redirect = optionalObject(connector, next, 'redirect_to_url', `${path}.next_action`);
      if (redirect) optionalString(connector, redirect, 'url', `${path}.next_action.redirect_to_url`, 2048);
      optionalObject(connector, next, 'use_stripe_sdk', `${path}.next_action`);
    }
  }
  if (kind === 'refund' && object.object === 'refund') {
    requiredString(connector, object, 'id', path);
    optionalString(connector, object, 'status', path, MAX_WEBHOOK_ID_LENGTH);
    optionalString(connector, object, 'failure_reason', path, MAX_WEBHOOK_ID_LENGTH);
    const metadata = optionalObject(connector, object, 'metadata', path);
    if (metadata) optionalString(connector, metadata, REFUND_ID_METADATA_KEY, `${path}.metadata`, MAX_WEBHOOK_ID_LENGTH);
  }
  if (kind === 'dispute' && object.object === 'dispute') {
    // https://docs.stripe.com/api/disputes/object: the fields `disputeFromStripe` reads.
    requiredString(connector, object, 'id', path);
    requiredString(connector, object, 'status', path, MAX_WEBHOOK_ID_LENGTH);
    requiredInteger(connector, object, 'amount', path);
    requiredString(connector, object, 'currency', path, MAX_WEBHOOK_ID_LENGTH);
    for (const key of ['reason', 'network_reason_code']) optionalString(connector, object, key, path, MAX_WEBHOOK_ID_LENGTH);
    for (const key of ['payment_intent', 'charge']) optionalIdOrObject(connector, object, key, path);
    optionalInteger(connector, object, 'created', path);
    const details = optionalObject(connector, object, 'evidence_details', path);
    if (details) optionalInteger(connector, details, 'due_by', `${path}.evidence_details`);
    const method = optionalObject(connector, object, 'payment_method_details', path);
    const card = method ? optionalObject(connector, method, 'card', `${path}.payment_method_details`) : undefined;
    if (card) optionalString(connector, card, 'network_reason_code', `${path}.payment_method_details.card`, MAX_WEBHOOK_ID_LENGTH);
  }
}
