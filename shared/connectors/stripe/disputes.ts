/**
 * Stripe's disputes: a Dispute → ours, and the parameters of the dispute calls (retrieve, close, evidence) and of
 * evidence file uploads.
 *
 * Sources: the installed `stripe` package (stripe-node 23.1.0, OpenAPI spec v2596):
 * `node_modules/stripe/cjs/resources/Disputes.d.ts` (`Dispute`, `Dispute.EvidenceDetails.due_by`, `DisputeUpdateParams`
 * (`evidence`, `submit`), `DisputeCloseParams`) and `resources/Files.d.ts` (`FileCreateParams`: `file`,
 * `purpose: 'dispute_evidence'`, multipart, host `files.stripe.com`); https://docs.stripe.com/api/disputes,
 * https://docs.stripe.com/api/files/create, https://docs.stripe.com/disputes/api; Stripe's OpenAPI fixture
 * `resources.dispute` (github.com/stripe/openapi tag v2436,
 * test/connectors/fixtures/stripe/disputes/openapi.fixtures3.dispute.extract.json). Decisions: docs/connectors/stripe.md.
 */

import type Stripe from 'stripe';
import type { DisputeEvidence } from '../../domain/dispute-vocabulary';
import { type ConnectorDispute, ConnectorRequestError, type DisputeEvidenceFile } from '../connector';
import { fromStripeAmount, fromStripeCurrency } from './money';
import { PAYMENT_ID_METADATA_KEY } from './requests';
import { mapDisputeStatus } from './statuses';
import type { StripeDispute } from './wire-types';

/** Unix seconds → ISO 8601 UTC, or null when absent, not a positive safe integer (Stripe's `due_by` 0: no response allowed). */
export function isoFromUnixSeconds(seconds: number | null | undefined): string | null {
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;
}

/** An expandable field's id: the string, or the object's `id`, or null. */
function expandableId(value: string | { id?: unknown } | null | undefined): string | null {
  if (typeof value === 'string') return value || null;
  return value && typeof value.id === 'string' && value.id ? value.id : null;
}

/**
 * Maps a Dispute to ours:
 * - `connectorDisputeId`: `id` (`du_…`/`dp_…`);
 * - `paymentId`: `payment_intent.metadata.payment_id` when the PaymentIntent is expanded (the adapter's own calls
 *   ask `expand[0]=payment_intent`), else null — a Dispute carries no metadata of ours (its own `metadata` is the
 *   dispute's), and an event's Dispute names the PaymentIntent by id only;
 * - `connectorTransactionId`: the PaymentIntent's id (`pi_…`, what our payments hold as their connector transaction
 *   id), or null for a charge made without one;
 * - `amount` (smallest unit), `currency`; stage and status from {@link mapDisputeStatus}, `connectorStatus` raw;
 * - `connectorReason`: `reason`; `connectorReasonCode`: `network_reason_code`, else
 *   `payment_method_details.card.network_reason_code`, else null;
 * - `challengeRequiredBy`: `evidence_details.due_by` as ISO 8601 UTC (null when absent or 0);
 * - `createdAt`: `created` as ISO 8601 UTC.
 * @returns the dispute, or null when its currency is none Switchyard takes (it cannot concern one of our payments)
 */
export function disputeFromStripe(dispute: StripeDispute): ConnectorDispute | null {
  const currency = fromStripeCurrency(dispute.currency);
  if (!currency) return null;
  const { stage, status } = mapDisputeStatus(dispute.status, dispute.id);
  const intent = dispute.payment_intent;
  const paymentId = intent && typeof intent === 'object' ? (intent.metadata?.[PAYMENT_ID_METADATA_KEY] ?? null) : null;
  return {
    connectorDisputeId: dispute.id,
    paymentId,
    connectorTransactionId: expandableId(intent),
    amount: fromStripeAmount(dispute.amount),
    currency,
    stage,
    status,
    connectorStatus: dispute.status,
    connectorReason: dispute.reason || null,
    connectorReasonCode: dispute.network_reason_code || dispute.payment_method_details?.card?.network_reason_code || null,
    challengeRequiredBy: isoFromUnixSeconds(dispute.evidence_details?.due_by),
    createdAt: isoFromUnixSeconds(dispute.created),
  };
}

/**
 * The PaymentIntent expanded on the adapter's dispute calls (`expand[0]=payment_intent`,
 * https://docs.stripe.com/api/expanding_objects), so their answer names our payment id ({@link disputeFromStripe}).
 */
export const EXPAND_DISPUTE_PAYMENT_INTENT = ['payment_intent'] as const;

/** `GET /v1/disputes/:id` parameters: `expand[0]=payment_intent`. https://docs.stripe.com/api/disputes/retrieve */
export function retrieveDisputeParams(): Stripe.DisputeRetrieveParams {
  return { expand: [...EXPAND_DISPUTE_PAYMENT_INTENT] };
}

/** `POST /v1/disputes/:id/close` parameters: `expand[0]=payment_intent`. https://docs.stripe.com/api/disputes/close */
export function buildCloseDisputeParams(): Stripe.DisputeCloseParams {
  return { expand: [...EXPAND_DISPUTE_PAYMENT_INTENT] };
}

/** Our evidence fields that hold a file (Stripe's file-upload fields of `DisputeUpdateParams.Evidence`). */
const FILE_EVIDENCE_FIELDS: ReadonlySet<string> = new Set([
  'receipt',
  'customer_communication',
  'shipping_documentation',
  'service_documentation',
  'refund_policy',
  'cancellation_policy',
  'uncategorized_file',
]);

/**
 * The parameters of `POST /v1/disputes/:id` (https://docs.stripe.com/api/disputes/update; stripe-node 23.1.0
 * `DisputeUpdateParams`): `evidence[<field>]` for each field given — text fields as given, file fields as the Stripe
 * file id (`file_…`) uploaded for our file id — `submit` (`true` sends it to the issuer; `false` stages it, "Staged
 * evidence is visible in the API and Dashboard, and can be submitted to the bank by making another request with this
 * attribute set to `true`") and `expand[0]=payment_intent`. Our field names are Stripe's
 * (shared/domain/dispute-vocabulary.ts).
 * @param stripeFileIds our file id → the Stripe file id it was uploaded as
 * @throws ConnectorRequestError `missing_evidence_file` when a file field names a file not uploaded (nothing is sent)
 */
export function buildDisputeEvidenceParams(
  evidence: DisputeEvidence,
  stripeFileIds: ReadonlyMap<string, string>,
  submit: boolean,
): Stripe.DisputeUpdateParams {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(evidence)) {
    if (value === undefined) continue;
    if (FILE_EVIDENCE_FIELDS.has(field)) {
      const fileId = stripeFileIds.get(value);
      if (!fileId) {
        throw new ConnectorRequestError(
          'stripe',
          'missing_evidence_file',
          `Evidence field ${field} names file ${value.slice(0, 64)}, which was not handed to the adapter; nothing was sent.`,
        );
      }
      out[field] = fileId;
    } else {
      out[field] = value;
    }
  }
  return { evidence: out as Stripe.DisputeUpdateParams.Evidence, submit, expand: [...EXPAND_DISPUTE_PAYMENT_INTENT] };
}

/** The `purpose` of evidence files at Stripe (stripe-node 23.1.0 `FileCreateParams.Purpose`). */
export const STRIPE_DISPUTE_FILE_PURPOSE: Stripe.FileCreateParams.Purpose = 'dispute_evidence';

/**
 * The host Stripe serves `POST /v1/files` on: `files.stripe.com` (stripe-node 23.1.0 `cjs/Types.js`
 * `files: 'files.stripe.com'`; https://docs.stripe.com/api/files/create, "POST https://files.stripe.com/v1/files").
 * The adapter uses it when its base URL is Stripe's API host; any other base URL (a stand-in, a proxy) serves both.
 */
export const STRIPE_FILES_BASE_URL = 'https://files.stripe.com';

/** The base URL of file uploads for an API base URL (see {@link STRIPE_FILES_BASE_URL}). */
export function stripeFilesBaseUrl(apiBaseUrl: string): string {
  try {
    if (new URL(apiBaseUrl).hostname === 'api.stripe.com') return STRIPE_FILES_BASE_URL;
  } catch {
    // not a URL: used as given
  }
  return apiBaseUrl;
}

/**
 * The `multipart/form-data` body of `POST /v1/files` (stripe-node 23.1.0 `FileCreateParams`: `purpose`, `file`),
 * built as stripe-node's `multipartDataGenerator` builds it (`cjs/multipart.js`: one part per field, the file's part
 * with `filename` and `Content-Type`, `"` in names as `%22`, CR/LF in header values replaced by spaces, CRLF line ends).
 * @returns the `Content-Type` header (with its boundary) and the bytes
 */
export function buildFileUploadBody(file: DisputeEvidenceFile, boundary: string): { contentType: string; body: Uint8Array } {
  const stripCrLf = (s: string): string => s.replace(/\r\n|\r|\n/g, ' ');
  const quote = (s: string): string => `"${stripCrLf(s.replace(/"/g, '%22'))}"`;
  const parts: Buffer[] = [];
  const line = (text: string | Buffer): void => {
    parts.push(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, Buffer.from('\r\n'));
  };
  line(`--${boundary}`);
  line('Content-Disposition: form-data; name="purpose"');
  line('');
  line(STRIPE_DISPUTE_FILE_PURPOSE);
  line(`--${boundary}`);
  line(`Content-Disposition: form-data; name="file"; filename=${quote(file.filename || 'blob')}`);
  line(`Content-Type: ${stripCrLf(file.mediaType || 'application/octet-stream')}`);
  line('');
  line(file.content);
  line(`--${boundary}--`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: new Uint8Array(Buffer.concat(parts)) };
}
