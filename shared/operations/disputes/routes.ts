/**
 * The dispute routes (`/disputes…`). Data read by shared/api/routes.ts: schemas, the domain and shared/api's
 * route types only.
 */
import {
  AUTHENTICATED,
  CONCURRENT_WRITE,
  IDEMPOTENT,
  JSON_BODY,
  JSON_ROUTE,
  LIST,
  MONEY_CALL,
  mergeErrors,
  NOT_FOUND,
} from '../../api/operation-errors';
import { DISPUTE_ID, json, jsonBody, LIST_QUERY_DOCS, replayed } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { DISPUTE_EVIDENCE_FILE_FIELDS, DISPUTE_EVIDENCE_TEXT_FIELDS } from '../../domain/dispute-vocabulary';
import { listDisputesQuerySchema } from '../../schemas/dispute-list-schema';
import { DisputeResource } from '../../schemas/dispute-resource-schema';
import { disputeEvidenceBodySchema } from '../../schemas/dispute-schemas';
import { DisputeListResource } from '../../schemas/resource-lists-schema';

const EVIDENCE_FIELDS = {
  evidence:
    "Stripe's evidence fields: text (`product_description`, `customer_name`, `customer_email_address`, `billing_address`, `shipping_address`, `shipping_date`, `shipping_tracking_number`, `service_date`, `refund_policy_disclosure`, `refund_refusal_explanation`, `cancellation_policy_disclosure`, `access_activity_log`, `uncategorized_text`; at most 20,000 characters each) and files (`receipt`, `customer_communication`, `shipping_documentation`, `service_documentation`, `refund_policy`, `cancellation_policy`, `uncategorized_file`: ids from `POST /files`). Merged into what was saved before.",
  submit: 'Whether to submit it for the issuer’s decision now (default false: saved only).',
  ...Object.fromEntries(DISPUTE_EVIDENCE_TEXT_FIELDS.map((f) => [`evidence.${f}`, `Text, at most 20,000 characters (Stripe’s \`${f}\`).`])),
  ...Object.fromEntries(
    DISPUTE_EVIDENCE_FILE_FIELDS.map((f) => [`evidence.${f}`, `A file id (\`file_…\`) from \`POST /files\` (Stripe’s \`${f}\`).`]),
  ),
};

/** The dispute routes, in the route table's order. */
export const DISPUTE_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/disputes',
    entry: 'functions/disputes/list-disputes.ts',
    name: 'ListDisputes',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listDisputes',
      tag: 'Disputes',
      summary: 'List disputes',
      description:
        'The disputes of your payments, newest first: filter by `dispute_status` and/or `payment_id`, and by `created` bounds. Cursor pagination as every list (`starting_after`).',
      query: listDisputesQuerySchema,
      queryDocs: {
        ...LIST_QUERY_DOCS,
        dispute_status: { description: 'Only disputes in this status.' },
        payment_id: { description: "Only this payment's disputes." },
      },
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(DisputeListResource, 'One page of disputes.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
    },
  },
  {
    method: 'GET',
    path: '/disputes/{dispute_id}',
    entry: 'functions/disputes/get-dispute.ts',
    name: 'GetDispute',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getDispute',
      tag: 'Disputes',
      summary: 'Retrieve a dispute',
      description: 'The dispute, its deadline (`challenge_required_by`) and the evidence given.',
      pathParams: DISPUTE_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(DisputeResource, 'The dispute.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'POST',
    path: '/disputes/{dispute_id}/accept',
    entry: 'functions/disputes/accept-dispute.ts',
    name: 'AcceptDispute',
    access: 'write',
    auth: true,
    // Accepts it at the processor, through the account it arrived on.
    connectors: true,
    openapi: {
      operationId: 'acceptDispute',
      tag: 'Disputes',
      summary: 'Accept a dispute',
      description:
        "Accepts the dispute at its processor (Paystack's resolve `merchant-accepted`, Stripe's close, Flutterwave's accept): `dispute_accepted`, `dispute.accepted`; the money stays with the cardholder (the payment's `amount_disputed` keeps it). Only while `dispute_opened`. A processor timeout answers 503 `outcome_unknown`: the dispute is read back from the processor within minutes.",
      pathParams: DISPUTE_ID,
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: replayed(json(DisputeResource, 'The dispute after it.')) },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND, IDEMPOTENT, CONCURRENT_WRITE, MONEY_CALL, {
        400: ['dispute_action_unsupported'],
        409: ['dispute_unexpected_state'],
      }),
    },
  },
  {
    method: 'POST',
    path: '/disputes/{dispute_id}/evidence',
    entry: 'functions/disputes/submit-dispute-evidence.ts',
    name: 'SubmitDisputeEvidence',
    access: 'write',
    auth: true,
    // Relays the evidence (and its files) to the processor.
    connectors: true,
    openapi: {
      operationId: 'submitDisputeEvidence',
      tag: 'Disputes',
      summary: 'Answer a dispute with evidence',
      description:
        'Relays the evidence (text fields, and files uploaded with `POST /files`) to the processor, and submits it when `submit` is true: `dispute_challenged`, `dispute.challenged`; the issuer then decides (`dispute.won` or `dispute.lost`). Without `submit` the evidence is saved (`dispute.updated`) and can be completed later. Only while `dispute_opened`. A processor timeout answers 503 `outcome_unknown`: the dispute is read back from the processor within minutes.',
      pathParams: DISPUTE_ID,
      body: jsonBody(disputeEvidenceBodySchema, true, 'The evidence, and whether to submit it.', EVIDENCE_FIELDS),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: replayed(json(DisputeResource, 'The dispute after it.')) },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, IDEMPOTENT, CONCURRENT_WRITE, MONEY_CALL, {
        400: ['dispute_action_unsupported', 'resource_missing', 'evidence_not_accepted'],
        409: ['dispute_unexpected_state'],
      }),
    },
  },
];
