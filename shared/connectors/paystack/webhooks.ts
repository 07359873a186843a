/**
 * Paystack's webhooks: the signature check and the mapping of each event (https://paystack.com/docs/payments/webhooks/),
 * moved out of ./paystack-connector.ts (which calls {@link parsePaystackWebhook} with its secret and lookups).
 * - `x-paystack-signature` = hex HMAC-SHA512 of the exact raw body with the secret key ("HMAC SHA512 signature of the
 *   event payload signed using your secret key"), compared in constant time;
 * - `charge.success` → a payment update; `refund.*` → a refund update; `charge.dispute.*` → ./paystack-disputes.ts;
 *   `transfer.*` → ./transfers.ts; anything else ignored.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type InboundWebhook, type RefundResult, type WebhookEvent, WebhookSignatureError } from '../connector';
import {
  MAX_WEBHOOK_ID_LENGTH,
  optionalId,
  optionalString,
  readWebhookJson,
  requiredIntegerOrDigits,
  requiredObject,
  requiredString,
} from '../webhook-payload';
import { PAYSTACK_CONNECTOR_NAME } from './connector-name';
import { fromPaystackAmount } from './money';
import { isPaystackDisputeEvent, paystackDisputeEvent } from './paystack-disputes';
import { paymentIdFromReference } from './references';
import { transactionToPaymentResult } from './responses';
import { PAYSTACK_REFUND_STATUS } from './statuses';
import { paystackTransferEvent } from './transfers';
import type { PaystackRefundData, PaystackRefundEventData, PaystackTransactionData } from './wire-types';

/** What mapping a refund event without a refund id needs from the account's adapter (its key, timeouts, logging). */
export interface PaystackWebhookLookups {
  /** GET /transaction/verify/:reference: the transaction's numeric id. */
  transactionId(reference: string): Promise<number | string | undefined>;
  /** GET /refund?transaction=<id>: the transaction's refunds. */
  refundsOf(transactionId: number | string | undefined): Promise<PaystackRefundData[]>;
  /** The adapter's mapping of a refund's status (it logs `needs-attention` for operators). */
  refundResult(
    status: string,
    connectorRefundId: string | null,
    context: {
      refundId: string | null;
      transactionReference: string | null;
      refundReference?: string | null;
      message?: string | null;
      event?: string;
    },
  ): RefundResult;
}

/** Events whose `data` is a transaction: mapped to a payment update. Paystack documents no `charge.failed`. */
const PAYMENT_EVENTS = new Set(['charge.success']);
/**
 * Refund events (https://paystack.com/docs/payments/webhooks/ "Types of events"; the samples of
 * PaystackOSS/doc-code-snippets src/doc/payments/refunds/events/*.json, including refund-needs-attention.json).
 */
const REFUND_EVENTS = new Set(['refund.pending', 'refund.processing', 'refund.processed', 'refund.failed', 'refund.needs-attention']);

/** Hex SHA-256 of a string (event ids of events that carry no stable key). */
function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Verifies `x-paystack-signature` (hex HMAC-SHA512 of the exact raw body with the secret key,
 * constant-time comparison) and maps the event:
 * - `charge.success` → a payment update for the payment whose reference it carries
 *   (`paymentId` null when the reference is not one of ours); event id `charge.success:<reference>`;
 * - `refund.pending|processing|processed|failed|needs-attention` → a refund update (`needs-attention`
 *   stays Pending with `refund_needs_attention` and is logged as a warning with its references). The
 *   documented payloads carry no refund id (but the needs-attention sample does), only
 *   `transaction_reference` and `amount`, so when `data.id` is absent the refund
 *   is found with GET /transaction/verify/:reference then GET /refund?transaction=<id>, matching
 *   amount and currency; no single match → ignored (syncRefund settles it). Event id
 *   `<event>:<refund id>`;
 * - `charge.dispute.create|remind|resolve` → a dispute event (`paystackDisputeEvent`, ./paystack-disputes.ts): the
 *   dispute mapped from `data` when it is complete, `connectorDisputeId` `String(data.id)`, our payment id from the
 *   transaction reference, `reminder: true` on `remind`;
 * - anything else (transfers, `bank.transfer.rejected`, …) → ignored.
 * @throws WebhookSignatureError when the header is missing, malformed or does not match
 * @throws WebhookPayloadError when the signed body is not `{event, data}` JSON, or a field the event's
 *   mapping reads is missing or of another type (`charge.success` without `data.reference`, …)
 * @throws ConnectorTechnicalError / ConnectorRequestError when the refund lookup fails (the event is
 *   then answered with an error and Paystack redelivers it)
 */
export async function parsePaystackWebhook(
  webhook: InboundWebhook,
  secret: string,
  lookups: PaystackWebhookLookups,
): Promise<WebhookEvent> {
  const signature = webhook.headers['x-paystack-signature'];
  if (!signature) throw new WebhookSignatureError(PAYSTACK_CONNECTOR_NAME, 'Missing x-paystack-signature header.');
  const expected = createHmac('sha512', secret).update(webhook.rawBody, 'utf8').digest();
  const given = /^[0-9a-fA-F]{128}$/.test(signature.trim()) ? Buffer.from(signature.trim(), 'hex') : null;
  if (!given || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookSignatureError(PAYSTACK_CONNECTOR_NAME, 'The x-paystack-signature header does not match the body.');
  }

  // Every Paystack event is `{ event, data }` (https://paystack.com/docs/payments/webhooks/); a signed
  // body that is not is malformed (400), never "ignored" (nothing would ever look at it).
  const body = readWebhookJson(PAYSTACK_CONNECTOR_NAME, webhook.rawBody);
  const event = requiredString(PAYSTACK_CONNECTOR_NAME, body, 'event');
  const data = requiredObject(PAYSTACK_CONNECTOR_NAME, body, 'data');

  // Transfers (payouts): ./transfers.ts.
  if (event.startsWith('transfer.')) {
    optionalString(PAYSTACK_CONNECTOR_NAME, data, 'reference', 'data', MAX_WEBHOOK_ID_LENGTH);
    optionalString(PAYSTACK_CONNECTOR_NAME, data, 'status', 'data');
    return paystackTransferEvent({ event, data }) as WebhookEvent;
  }

  if (PAYMENT_EVENTS.has(event)) {
    const transaction: PaystackTransactionData = {
      ...(data as unknown as PaystackTransactionData),
      reference: requiredString(PAYSTACK_CONNECTOR_NAME, data, 'reference', 'data'),
      status: requiredString(PAYSTACK_CONNECTOR_NAME, data, 'status', 'data'),
      amount: requiredIntegerOrDigits(PAYSTACK_CONNECTOR_NAME, data, 'amount', 'data'),
    };
    // Read by the mapping of a failed transaction: text, when present.
    optionalString(PAYSTACK_CONNECTOR_NAME, data, 'gateway_response', 'data');
    optionalString(PAYSTACK_CONNECTOR_NAME, data, 'message', 'data');
    return {
      kind: 'payment',
      eventId: `${event}:${transaction.reference}`,
      paymentId: paymentIdFromReference(transaction.reference),
      connectorTransactionId: transaction.reference,
      result: transactionToPaymentResult(transaction),
    };
  }

  if (REFUND_EVENTS.has(event)) {
    // The fields the refund mapping reads, with the types it relies on (the rest is not read).
    optionalId(PAYSTACK_CONNECTOR_NAME, data, 'id', 'data');
    for (const key of ['status', 'transaction_reference', 'refund_reference', 'currency'])
      optionalString(PAYSTACK_CONNECTOR_NAME, data, key, 'data', MAX_WEBHOOK_ID_LENGTH);
    for (const key of ['reason', 'message']) optionalString(PAYSTACK_CONNECTOR_NAME, data, key, 'data');
    return refundEvent(event, data as unknown as PaystackRefundEventData, webhook.rawBody, lookups);
  }

  if (isPaystackDisputeEvent(event)) return paystackDisputeEvent(event, data, webhook.rawBody);

  return {
    kind: 'ignored',
    eventId: `${event || 'unknown'}:${sha256(webhook.rawBody)}`,
    reason: `Paystack event ${event || '(none)'} is not applied to payments or refunds.`,
  };
}

/** Maps a refund.* event, finding the refund id when the payload has none (see {@link parsePaystackWebhook}). */
async function refundEvent(
  event: string,
  data: PaystackRefundEventData,
  rawBody: string,
  lookups: PaystackWebhookLookups,
): Promise<WebhookEvent> {
  const status = typeof data.status === 'string' ? data.status : event.slice('refund.'.length);
  const fallbackId = `${event}:${sha256(rawBody)}`;
  const about = (connectorRefundId: string | null) =>
    lookups.refundResult(status, connectorRefundId, {
      refundId: null,
      transactionReference: typeof data.transaction_reference === 'string' ? data.transaction_reference : null,
      refundReference: typeof data.refund_reference === 'string' ? data.refund_reference : null,
      message: data.reason ?? data.message,
      event,
    });
  if (data.id !== undefined && data.id !== null && String(data.id) !== '') {
    const connectorRefundId = String(data.id);
    return {
      kind: 'refund',
      eventId: `${event}:${connectorRefundId}`,
      refundId: null,
      connectorRefundId,
      result: about(connectorRefundId),
    };
  }
  if (typeof data.transaction_reference !== 'string' || paymentIdFromReference(data.transaction_reference) === null) {
    return { kind: 'ignored', eventId: fallbackId, reason: 'The refund concerns a transaction this service did not create.' };
  }
  const amount = fromPaystackAmount(data.amount);
  const refunds = await lookups.refundsOf(await lookups.transactionId(data.transaction_reference));
  const sameAmount = refunds.filter((r) => fromPaystackAmount(r.amount) === amount && (!data.currency || r.currency === data.currency));
  const ours = PAYSTACK_REFUND_STATUS[status as keyof typeof PAYSTACK_REFUND_STATUS];
  const candidates =
    sameAmount.length > 1
      ? sameAmount.filter((r) => PAYSTACK_REFUND_STATUS[r.status as keyof typeof PAYSTACK_REFUND_STATUS] === ours)
      : sameAmount;
  if (candidates.length !== 1) {
    if (status === 'needs-attention') about(null);
    return {
      kind: 'ignored',
      eventId: fallbackId,
      reason: `${candidates.length === 0 ? 'No' : 'More than one'} Paystack refund of ${String(amount)} on ${data.transaction_reference} matches the event; syncRefund settles it.`,
    };
  }
  const connectorRefundId = String((candidates[0] as PaystackRefundData).id);
  return {
    kind: 'refund',
    eventId: `${event}:${connectorRefundId}`,
    refundId: null,
    connectorRefundId,
    result: about(connectorRefundId),
  };
}
