/**
 * Paystack disputes: Paystack's dispute JSON → our {@link ConnectorDispute}, the `charge.dispute.*` webhook
 * events, and the bodies of the dispute calls. Pure but for the warning logged on an unknown status; the calls
 * themselves are in `paystack-connector.ts`, the status table in `statuses.ts` ({@link paystackDisputeMapping}).
 *
 * Sources: the Manage Disputes guide (https://paystack.com/docs/payments/manage-disputes/); PaystackOSS/openapi at
 * 9678dea922a900b2485969592055ccf634460352 [OAS] `paths/dispute_{id}{,_evidence,_resolve,_upload_url}.yaml` and
 * `components/schemas/{DisputeFetchResponse,DisputeResolve,DisputeEvidence,DisputeUploadURLResponse}.yaml`;
 * PaystackOSS/doc-code-snippets at 94af513d752dfc9f85dd0718301e7257091eb7f2 [DCS] `src/api/disputes/*` and
 * `src/doc/payments/webhooks/events/charge-dispute-{create,remind,resolve}.json` (copies under
 * test/connectors/fixtures/paystack/, SOURCES.md "Paystack disputes").
 */
import { createHash } from 'node:crypto';
import type { DisputeEvidence } from '../../domain/dispute-vocabulary';
import { CURRENCIES, type Currency } from '../../domain/money';
import { logger } from '../../observability/logger';
import { type ConnectorDispute, ConnectorRequestError, type WebhookEvent } from '../connector';
import { MAX_WEBHOOK_ID_LENGTH, optionalId, optionalString, requiredString, type WebhookObject } from '../webhook-payload';
import { PAYSTACK_CONNECTOR_NAME } from './connector-name';
import { fromPaystackAmount } from './money';
import { paymentIdFromReference } from './references';
import { paystackDisputeConnectorStatus, paystackDisputeMapping } from './statuses';
import type { PaystackDisputeData } from './wire-types';

/** The dispute events Paystack sends (https://paystack.com/docs/payments/webhooks/ "Types of events"; [DCS] samples). */
export const PAYSTACK_DISPUTE_EVENTS = ['charge.dispute.create', 'charge.dispute.remind', 'charge.dispute.resolve'] as const;

/** Whether an event name is one of {@link PAYSTACK_DISPUTE_EVENTS}. */
export function isPaystackDisputeEvent(event: string): event is (typeof PAYSTACK_DISPUTE_EVENTS)[number] {
  return (PAYSTACK_DISPUTE_EVENTS as readonly string[]).includes(event);
}

const isCurrency = (value: unknown): value is Currency => typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The disputed transaction's reference: `transaction.reference`, else `transaction_reference`. */
export function paystackDisputeReference(data: PaystackDisputeData): string | null {
  return text(data.transaction?.reference) ?? text(data.transaction_reference);
}

/**
 * A Paystack dispute → ours:
 * - `connectorDisputeId` = `String(id)`; `paymentId` from the transaction `reference` (`paymentIdFromReference`: null for a
 *   reference this service did not make); `connectorTransactionId` = that reference (the adapter's transaction id
 *   everywhere else);
 * - `amount` = `refund_amount` (what the cardholder claims), else the transaction's `amount`; `currency` = `currency`,
 *   else the transaction's;
 * - `status`/`stage` from the table (`paystackDisputeMapping`); an unknown status or resolution → `dispute_opened` with a
 *   warning `Paystack dispute status unknown`; `connectorStatus` = `status[:resolution]` raw;
 * - `connectorReasonCode` = `category` (`chargeback`, `fraud`, …), `connectorReason` = the first message's body (the
 *   cardholder's complaint), else the category;
 * - `challengeRequiredBy` = `dueAt` (or `due_at`), else null (the core then applies Paystack's 16 hours);
 *   `createdAt` = `createdAt` / `created_at`.
 * @returns the dispute, or null when `data` lacks the id, the status, an amount or one of our currencies
 */
export function disputeFromPaystack(data: PaystackDisputeData): ConnectorDispute | null {
  const id = data.id === undefined || data.id === null || data.id === '' ? null : String(data.id);
  const status = text(data.status);
  const amount = fromPaystackAmount(data.refund_amount) ?? fromPaystackAmount(data.transaction?.amount);
  const currency = isCurrency(data.currency) ? data.currency : isCurrency(data.transaction?.currency) ? data.transaction.currency : null;
  if (id === null || status === null || amount === null || currency === null) return null;
  const resolution = text(data.resolution);
  const connectorStatus = paystackDisputeConnectorStatus(status, resolution);
  let mapped = paystackDisputeMapping(status, resolution);
  if (!mapped) {
    logger.warn('Paystack dispute status unknown', {
      connector: PAYSTACK_CONNECTOR_NAME,
      connector_dispute_id: id,
      connector_status: connectorStatus,
      mapped_to: 'dispute_opened',
    });
    mapped = { status: 'dispute_opened', stage: 'dispute' };
  }
  const reference = paystackDisputeReference(data);
  const firstMessage = Array.isArray(data.messages) ? text(data.messages[0]?.body) : null;
  const category = text(data.category);
  return {
    connectorDisputeId: id,
    paymentId: reference ? paymentIdFromReference(reference) : null,
    connectorTransactionId: reference,
    amount,
    currency,
    stage: mapped.stage,
    status: mapped.status,
    connectorStatus,
    connectorReason: firstMessage ?? category,
    connectorReasonCode: category,
    challengeRequiredBy: text(data.dueAt) ?? text(data.due_at),
    createdAt: text(data.createdAt) ?? text(data.created_at),
  };
}

/**
 * Maps a verified `charge.dispute.create|remind|resolve` event (`data` a dispute, [DCS] samples):
 * `{kind: 'dispute', eventId, dispute (null when the payload is not enough: the core reads it with fetchDispute),
 * connectorDisputeId: String(data.id), paymentId (from the transaction reference), reminder: true on `remind`}`.
 *
 * Event ids are stable across redeliveries (Paystack redelivers the same body): `<event>:<dispute id>` for `create`
 * and `resolve` (once each per dispute); a reminder is sent repeatedly for one dispute, so its id also carries the
 * body's `updated_at` (else the body's SHA-256): `charge.dispute.remind:<id>:<updated_at>`.
 * @throws WebhookPayloadError when `data.id` is missing or not an id, or a field read is of another type
 */
export function paystackDisputeEvent(event: (typeof PAYSTACK_DISPUTE_EVENTS)[number], data: WebhookObject, rawBody: string): WebhookEvent {
  const connector = PAYSTACK_CONNECTOR_NAME;
  // A dispute event without the dispute's id names nothing: malformed (400), like charge.success without a reference.
  const id = optionalId(connector, data, 'id', 'data') ?? requiredString(connector, data, 'id', 'data');
  for (const key of [
    'status',
    'resolution',
    'currency',
    'category',
    'transaction_reference',
    'dueAt',
    'due_at',
    'created_at',
    'createdAt',
    'updated_at',
    'updatedAt',
  ])
    optionalString(connector, data, key, 'data', MAX_WEBHOOK_ID_LENGTH);
  const disputeData = data as unknown as PaystackDisputeData;
  const dispute = disputeFromPaystack(disputeData);
  const reference = paystackDisputeReference(disputeData);
  const base = `${event}:${id}`;
  const reminder = event === 'charge.dispute.remind';
  const updated = text(disputeData.updated_at) ?? text(disputeData.updatedAt);
  const eventId = reminder ? `${base}:${updated ?? createHash('sha256').update(rawBody, 'utf8').digest('hex')}` : base;
  return {
    kind: 'dispute',
    eventId,
    dispute,
    connectorDisputeId: id,
    paymentId: dispute?.paymentId ?? (reference ? paymentIdFromReference(reference) : null),
    ...(reminder ? { reminder: true } : {}),
  };
}

/* ------------------------------------------------------------------------------------------------
 * Request bodies
 * --------------------------------------------------------------------------------------------- */

/** `POST /dispute/:id/evidence` body ([OAS] DisputeEvidence: the first four required). */
export interface PaystackEvidenceBody {
  customer_email: string;
  customer_name: string;
  customer_phone: string;
  service_details: string;
  delivery_address?: string;
  delivery_date?: string;
}

/** `PUT /dispute/:id/resolve` body ([OAS] DisputeResolve). */
export interface PaystackResolveBody {
  resolution: string;
  message: string;
  refund_amount: number;
  uploaded_filename?: string;
}

/** Labels of our text fields folded into Paystack's `service_details`, in this order (after `product_description`). */
const SERVICE_DETAIL_FIELDS: readonly [keyof DisputeEvidence, string][] = [
  ['service_date', 'Service date'],
  ['shipping_tracking_number', 'Tracking number'],
  ['billing_address', 'Billing address'],
  ['access_activity_log', 'Access activity'],
  ['refund_policy_disclosure', 'Refund policy'],
  ['cancellation_policy_disclosure', 'Cancellation policy'],
  ['refund_refusal_explanation', 'Why no refund'],
  ['uncategorized_text', 'Other'],
];

/**
 * Paystack's `delivery_date`: [OAS] DisputeEvidence describes it as "ISO 8601 representation of delivery date
 * (YYYY-MM-DD)" but types it `format: date-time`, so a full ISO 8601 date-time is sent (it satisfies the schema and
 * begins with the date): the UTC instant of a date-time, or midnight UTC of a bare `YYYY-MM-DD`.
 * @returns the value, or undefined when `value` is not an ISO date or date-time
 */
function deliveryDate(value: string | undefined): string | undefined {
  const v = value?.trim() ?? '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? undefined : `${v}T00:00:00.000Z`;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(Date.parse(v))) return undefined;
  return new Date(v).toISOString();
}

/**
 * Our evidence → Paystack's `POST /dispute/:id/evidence` body. Paystack takes one record of five text fields, so:
 * - `customer_email` ← `customer_email_address`, else the dispute's `customer.email`;
 * - `customer_name` ← `customer_name`, else the dispute's customer's first and last names;
 * - `customer_phone` ← the dispute's `customer.phone` / `international_format_phone` (we hold no phone field);
 * - `service_details` ← `product_description`, then every other text field as a labelled line (`Service date: …`,
 *   `Tracking number: …`, `Billing address: …`, `Access activity: …`, `Refund policy: …`, `Cancellation policy: …`,
 *   `Why no refund: …`, `Other: …`);
 * - `delivery_address` ← `shipping_address`; `delivery_date` ← `shipping_date` (else `service_date`) as an ISO date-time.
 * File fields are not text: their files are uploaded (`GET /dispute/:id/upload_url`) and the first one named in the
 * resolution's `uploaded_filename`.
 * @throws ConnectorRequestError `evidence_incomplete` before any call when a field Paystack requires cannot be filled
 *   (no e-mail, name or phone on either side, or no text for `service_details`)
 */
export function buildPaystackEvidence(evidence: DisputeEvidence, dispute: PaystackDisputeData): PaystackEvidenceBody {
  const customer = dispute.customer ?? {};
  const name = [text(customer.first_name), text(customer.last_name)].filter((x): x is string => x !== null).join(' ');
  const lines = [
    text(evidence.product_description),
    ...SERVICE_DETAIL_FIELDS.map(([field, label]) => (text(evidence[field]) ? `${label}: ${evidence[field]}` : null)),
  ].filter((x): x is string => x !== null);
  const body: PaystackEvidenceBody = {
    customer_email: text(evidence.customer_email_address) ?? text(customer.email) ?? '',
    customer_name: text(evidence.customer_name) ?? (name || ''),
    customer_phone: text(customer.phone) ?? text(customer.international_format_phone) ?? '',
    service_details: lines.join('\n'),
  };
  const missing = (['customer_email', 'customer_name', 'customer_phone', 'service_details'] as const).filter((k) => body[k] === '');
  if (missing.length > 0) {
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'evidence_incomplete',
      `Paystack requires ${missing.join(', ')} with dispute evidence and neither the evidence nor the dispute gives ${missing.length > 1 ? 'them' : 'it'}.`,
    );
  }
  const address = text(evidence.shipping_address);
  if (address) body.delivery_address = address;
  const date = deliveryDate(evidence.shipping_date) ?? deliveryDate(evidence.service_date);
  if (date) body.delivery_date = date;
  return body;
}

/**
 * The acceptance: `resolution: merchant-accepted`, `message`, `refund_amount` = the dispute's `refund_amount` (all of
 * it, in minor units). `uploaded_filename`, which [OAS] DisputeResolve lists as required, is left out: an acceptance
 * has no document (Paystack's guide asks for one only to decline — docs-v1 "Handling Disputes": "To reject the
 * dispute, you will be required to upload a document").
 */
export function buildAcceptResolution(refundAmount: number, resolution: string): PaystackResolveBody {
  return { resolution, message: 'Merchant accepted', refund_amount: refundAmount };
}

/**
 * The challenge: `resolution: declined`, `message` = the evidence's `refund_refusal_explanation`, else
 * `uncategorized_text`, else `product_description`, else a fixed text; `refund_amount` 0 (nothing is refunded);
 * `uploaded_filename` = Paystack's name of the first uploaded file.
 */
export function buildDeclineResolution(evidence: DisputeEvidence, uploadedFilename: string, resolution: string): PaystackResolveBody {
  const message =
    text(evidence.refund_refusal_explanation) ??
    text(evidence.uncategorized_text) ??
    text(evidence.product_description) ??
    'Merchant declined the dispute with evidence';
  return { resolution, message, refund_amount: 0, uploaded_filename: uploadedFilename };
}
