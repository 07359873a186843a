/**
 * Flutterwave's chargebacks as Switchyard's disputes: a chargeback → ours, the list query and its paging,
 * and the decline comment and proof fields built from our evidence. Chargebacks are polled (`listDisputes`):
 * Flutterwave publishes no chargeback webhook payload.
 *
 * Sources (the tags cited on each export):
 * - [LR] Get all refunds, `GET /v3/refunds`: https://developer.flutterwave.com/v3.0.0/reference/get-all-refunds
 *   (query filters: start and end date `YYYY-MM-DD`, status, currency, the refund's `flw_ref`, and the
 *   transaction's `data.id`) and Flutterwave's v3 OpenAPI rendered at
 *   https://flutterwaveinc.mintlify.app/api-reference/transactions/get-all-refunds (items `id`,
 *   `amount_refunded`, `status`, `flw_ref`, `comment`, `transaction_id`, `created_at`;
 *   `meta.page_info` `total`, `current_page`, `total_pages`, `page_size`). The rendered reference does
 *   not print the parameter names; `from`, `to`, `id` and `page` are the names Flutterwave uses on its
 *   other v3 list endpoints (e.g. GET /v3/transactions, GET /v3/payment-plans).
 *   Flutterwave/Node-v3 (v1.4.1, commit 537f9f4455f922a879e4f088cf0f596621c3517c) has no list-refunds call.
 * - [CB] Chargebacks:
 *   - "Get all Chargebacks", `GET /v3/chargebacks` with query `page`, `status` ("lost, won, initiated, accepted,
 *   declined"), `from`/`to` ("Date format is YYYY-MM-DD"), `currency`, `flw_ref`, `id` ("The id of the transaction"):
 *   https://developer.flutterwave.com/reference/endpoints/charge-backs/ ; its 200 sample (`meta.page_info`, items `id`,
 *   `amount` in major units, `flw_ref`, `status`, `stage`, `comment`, `meta.uploaded_proof`, `meta.history`, `due_date`,
 *   `settlement_id`, `created_at`, `transaction_id`, `tx_ref`; no currency):
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/get-all-chargebacks (kept as
 *   test/connectors/fixtures/flutterwave/disputes/chargebacks-list.json).
 *   - "Accept/Decline Chargeback", `PUT /v3/chargebacks/{id}` `{action: "accept" | "decline", comment}` (both required)
 *   and a link to the proof: https://developer.flutterwave.com/reference/endpoints/charge-backs/ and
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/acceptdecline-chargebacks (200 sample "Chargeback
 *   accepted", `data` the chargeback without `tx_ref`/`transaction_id`: fixtures/flutterwave/disputes/chargeback-accept.json).
 *   - Stages `new`, `second`, `pre-arbitration`, `arbitration`; statuses at creation `pending`, `initiated`; `due_date` computed
 *   from the chargeback's `expiry` hours: the v4 "Create a chargeback" reference, https://developer.flutterwave.com/reference/chargebacks_post.
 *   - Deadlines: "Local transactions: 10 working hours … International transactions: 30 working hours from the
 *   notification time", https://developer.flutterwave.com/docs/payment-operations/chargebacks (the core applies them
 *   when `due_date` is absent).
 *   - Webhooks: "We also send webhooks to your server when a chargeback is raised. This notification service is available
 *   on request." (https://developer.flutterwave.com/docs/chargebacks-1); no payload is published (the guide's sample
 *   history only shows `"action": "hooknotifier"` entries, https://flutterwaveinc.mintlify.app/other-features/chargebacks),
 *   so chargebacks are polled ({@link FlutterwaveChargeback} through `listDisputes`).
 */
import { DISPUTE_EVIDENCE_FILE_FIELDS, DISPUTE_EVIDENCE_TEXT_FIELDS, type DisputeEvidence } from '../../domain/dispute-vocabulary';
import { CURRENCIES, type Currency } from '../../domain/money';
import type { ConnectorDispute } from '../connector';
import { hasMoreListPages, utcDate } from './lookups';
import { majorToMinor } from './money';
import { disputeStageOf, disputeStatusOf } from './statuses';
import type { FlutterwaveChargeback, FlutterwaveChargebackList } from './wire-types';

/** Pages of `GET /v3/chargebacks` read per currency in one listing or lookup before giving up (throws: not authoritative). */
export const FLUTTERWAVE_CHARGEBACK_LIST_MAX_PAGES = 50;

/** `PUT /v3/chargebacks/{id}` path. */
export const flutterwaveChargebackPath = (id: string): string => `/v3/chargebacks/${encodeURIComponent(id)}`;

/** An ISO 8601 instant normalized to UTC (`…Z`), or null when absent or unreadable. */
function isoOrNull(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** What a chargeback's mapping falls back to when the answer omits it (the accept/decline answer has no `tx_ref`). */
export interface ChargebackDefaults {
  currency: Currency;
  paymentId?: string | null;
  connectorTransactionId?: string | null;
}

/**
 * A chargeback → {@link ConnectorDispute}: our payment id is its `tx_ref` (the adapter sends our payment id as `tx_ref`
 * on every charge), the transaction id its `transaction_id` (the numeric id the adapter keeps as `connectorTransactionId`),
 * the amount its major-unit `amount` in minor units, the currency the chargeback's own (when present) or the one it was
 * listed or asked under, `challengeRequiredBy` its `due_date`, `connectorReason` its `comment`. No reason code is
 * published (null).
 * @returns the dispute and whether its status and stage were known to the tables
 * @throws ConnectorTechnicalError when the amount is not a decimal number
 */
export function connectorDisputeOf(
  cb: FlutterwaveChargeback,
  defaults: ChargebackDefaults,
): { dispute: ConnectorDispute; statusKnown: boolean; stageKnown: boolean } {
  const rawStatus = typeof cb.status === 'string' ? cb.status : String(cb.status ?? '');
  const status = disputeStatusOf(rawStatus);
  const stage = disputeStageOf(cb.stage);
  const ownCurrency = typeof cb.currency === 'string' ? cb.currency.trim().toUpperCase() : '';
  const currency = (CURRENCIES as readonly string[]).includes(ownCurrency) ? (ownCurrency as Currency) : defaults.currency;
  const txRef = typeof cb.tx_ref === 'string' && cb.tx_ref ? cb.tx_ref : null;
  const transactionId =
    cb.transaction_id !== undefined && cb.transaction_id !== null && String(cb.transaction_id) ? String(cb.transaction_id) : null;
  const reason = typeof cb.comment === 'string' && cb.comment.trim() ? cb.comment.trim() : null;
  return {
    dispute: {
      connectorDisputeId: String(cb.id),
      paymentId: txRef ?? defaults.paymentId ?? null,
      connectorTransactionId: transactionId ?? defaults.connectorTransactionId ?? null,
      amount: majorToMinor(cb.amount),
      currency,
      stage: stage.stage,
      status: status.status,
      connectorStatus: rawStatus,
      connectorReason: reason,
      connectorReasonCode: null,
      challengeRequiredBy: isoOrNull(cb.due_date),
      createdAt: isoOrNull(cb.created_at),
    },
    statusKnown: status.known,
    stageKnown: stage.known,
  };
}

/**
 * The query of one page of `GET /v3/chargebacks` [CB]: `currency` (the answer names none, so each currency is listed
 * on its own), `from` = the UTC day before `since` (the filter takes dates only), `to` = the UTC day after `now`, `page`
 * (1-based); `id` = the disputed transaction's numeric id when looking one chargeback up.
 */
export function chargebackListQuery(options: {
  currency: Currency;
  page: number;
  since?: string;
  now?: number;
  transactionId?: string | null;
}): URLSearchParams {
  const query = new URLSearchParams([['currency', options.currency]]);
  if (options.since !== undefined && options.now !== undefined) {
    const sinceMs = Date.parse(options.since);
    const fromMs = (Number.isFinite(sinceMs) ? Math.min(sinceMs, options.now) : options.now) - 24 * 60 * 60 * 1000;
    query.set('from', utcDate(fromMs));
    query.set('to', utcDate(options.now + 24 * 60 * 60 * 1000));
  }
  if (options.transactionId) query.set('id', options.transactionId);
  query.set('page', String(options.page));
  return query;
}

/**
 * Whether another page of `GET /v3/chargebacks` follows this one (`meta.page_info`, as the refund list [LR]).
 * @throws ConnectorTechnicalError when a non-empty page has no usable `meta.page_info` (the listing would not be authoritative)
 */
export function hasMoreChargebackPages(list: FlutterwaveChargebackList, page: number): boolean {
  return hasMoreListPages(list, page, 'chargebacks');
}

/** Labels of our text evidence fields in the decline `comment`. */
const EVIDENCE_LABELS: Readonly<Record<(typeof DISPUTE_EVIDENCE_TEXT_FIELDS)[number], string>> = {
  product_description: 'Product description',
  customer_name: 'Customer name',
  customer_email_address: 'Customer e-mail',
  billing_address: 'Billing address',
  shipping_address: 'Shipping address',
  shipping_date: 'Shipping date',
  shipping_tracking_number: 'Shipping tracking number',
  service_date: 'Service date',
  refund_policy_disclosure: 'Refund policy disclosure',
  refund_refusal_explanation: 'Refund refusal explanation',
  cancellation_policy_disclosure: 'Cancellation policy disclosure',
  access_activity_log: 'Access activity log',
  uncategorized_text: 'Other',
};

/**
 * The `comment` of a decline (`PUT /v3/chargebacks/{id}` `{action: "decline", comment}`) from our text evidence:
 * Flutterwave takes one free-text comment and a link to proof [CB], so each non-empty text field becomes a line
 * `<label>: <value>`, in the order of {@link DISPUTE_EVIDENCE_TEXT_FIELDS}.
 * @returns the comment, or '' when no text field has a value
 */
export function declineCommentOf(evidence: DisputeEvidence): string {
  const lines: string[] = [];
  for (const field of DISPUTE_EVIDENCE_TEXT_FIELDS) {
    const value = evidence[field];
    if (typeof value === 'string' && value.trim()) lines.push(`${EVIDENCE_LABELS[field]}: ${value.trim()}`);
  }
  return lines.join('\n');
}

/** The file fields of our evidence that carry a value (Flutterwave takes none through this adapter). */
export function evidenceFileFieldsOf(evidence: DisputeEvidence): string[] {
  return DISPUTE_EVIDENCE_FILE_FIELDS.filter((field) => typeof evidence[field] === 'string' && evidence[field] !== '');
}
