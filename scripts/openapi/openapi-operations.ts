/**
 * What the OpenAPI document says about each route of shared/api/routes.ts, keyed by the route's
 * `name`: operation id, tag, summary and description, path parameters, the query and body schemas
 * the handler validates with (the same zod schemas), whether it honours `Idempotency-Key`, its
 * success answers and every error status it can answer with the codes behind each. scripts/openapi.ts
 * joins this with ROUTES and the resource schemas (shared/schemas/*-resource-schema.ts) into
 * docs/openapi.json; test/unit/openapi-document.test.ts checks that the keys here are exactly the
 * ROUTES names. The `$default` fallback (404 `route_not_found`) is not an operation.
 *
 * Build-time only (the generator and tests): no Lambda imports this module.
 *
 * Error statuses come from reading the handler chain (shared/http/api-handler.ts: version check →
 * 413 body size → 401 api key → 415/400 JSON body → 400 validation → the operation) and the
 * operations (shared/operations/*): see {@link JSON_ROUTE} and the other parts each entry merges.
 */
import * as z from 'zod';
import { DISPUTE_EVIDENCE_FILE_FIELDS, DISPUTE_EVIDENCE_TEXT_FIELDS } from '../../shared/domain/dispute-vocabulary';
import type { EventType } from '../../shared/domain/events';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX } from '../../shared/domain/list-query';
import { authenticatePaymentBodySchema } from '../../shared/schemas/authentication-schemas';
import { listInvoicesQuerySchema, listSubscriptionsQuerySchema } from '../../shared/schemas/billing-list-schemas';
import { listConnectorAccountsQuerySchema } from '../../shared/schemas/connector-account-list-schema';
import { ConnectorAccountResource, DeletedConnectorAccountResource } from '../../shared/schemas/connector-account-resource-schema';
import { createConnectorAccountSchema, updateConnectorAccountSchema } from '../../shared/schemas/connector-account-schemas';
import { listCustomersQuerySchema } from '../../shared/schemas/customer-list-schema';
import { CustomerResource, DeletedCustomerResource } from '../../shared/schemas/customer-resource-schema';
import { createCustomerBodySchema, customerBodySchema } from '../../shared/schemas/customer-schemas';
import { listDisputesQuerySchema } from '../../shared/schemas/dispute-list-schema';
import { DisputeResource } from '../../shared/schemas/dispute-resource-schema';
import { disputeEvidenceBodySchema } from '../../shared/schemas/dispute-schemas';
import { listEventsQuerySchema } from '../../shared/schemas/event-list-schema';
import { EventResource } from '../../shared/schemas/event-resource-schema';
import { createFileBodySchema, FileResource } from '../../shared/schemas/file-schemas';
import { forceSyncQuerySchema } from '../../shared/schemas/force-sync-schema';
import { HealthResource } from '../../shared/schemas/health-schema';
import { cancelPaymentBodySchema, capturePaymentBodySchema, refundPaymentBodySchema } from '../../shared/schemas/payment-action-schemas';
import { listPaymentsQuerySchema } from '../../shared/schemas/payment-list-schema';
import { PaymentMethodListResource, PaymentMethodResource } from '../../shared/schemas/payment-method-resource-schema';
import { listPaymentMethodsQuerySchema } from '../../shared/schemas/payment-method-schemas';
import { PaymentResource } from '../../shared/schemas/payment-resource-schema';
import { confirmPaymentBodySchema, createPaymentBodySchema } from '../../shared/schemas/payment-schemas';
import { plainListQuerySchema } from '../../shared/schemas/plain-list-schema';
import { redeliverEventBodySchema } from '../../shared/schemas/redeliver-event-schema';
import { listRefundsQuerySchema } from '../../shared/schemas/refund-list-schema';
import { RefundResource } from '../../shared/schemas/refund-resource-schema';
import {
  ConnectorAccountListResource,
  CustomerListResource,
  DisputeListResource,
  EventListResource,
  InvoiceListResource,
  PaymentListResource,
  RefundListResource,
  RoutingAlgorithmListResource,
  SubscriptionListResource,
  WebhookDeliveryListResource,
  WebhookEndpointListResource,
} from '../../shared/schemas/resource-lists-schema';
import {
  DefaultFallbackResource,
  defaultFallbackBodySchema,
  RoutingActivationResource,
} from '../../shared/schemas/routing-activation-schema';
import { RoutingAlgorithmResource } from '../../shared/schemas/routing-algorithm-resource-schema';
import { createRoutingAlgorithmSchema } from '../../shared/schemas/routing-schemas';
import { InvoiceResource, SubscriptionResource } from '../../shared/schemas/subscription-resource-schema';
import { createSubscriptionBodySchema, updateSubscriptionBodySchema } from '../../shared/schemas/subscription-schemas';
import { TestClockResource } from '../../shared/schemas/test-clock-resource-schema';
import { advanceTestClockBodySchema, createTestClockBodySchema } from '../../shared/schemas/test-clock-schemas';
import {
  DeletedWebhookEndpointResource,
  WebhookEndpointResource,
  WebhookEndpointWithSecretResource,
} from '../../shared/schemas/webhook-endpoint-resource-schema';
import {
  createWebhookEndpointSchema,
  rotateSecretSchema,
  updateWebhookEndpointSchema,
} from '../../shared/schemas/webhook-endpoint-schemas';
import { WebhookReceiptResource } from '../../shared/schemas/webhook-receipt-schema';

/** The tags of the document, in the order the reference shows them, with their descriptions. */
export const OPENAPI_TAGS = [
  { name: 'Payments', description: 'Payment intents: create, confirm, authenticate, capture, cancel, list.' },
  { name: 'Refunds', description: 'Refunds of succeeded payments.' },
  { name: 'Customers', description: 'Customers a payment may name.' },
  {
    name: 'Payment methods',
    description:
      "Payment methods saved on a customer (a card a payment with `setup_future_usage` kept): list, retrieve, detach. The processor's token is stored encrypted and never shown.",
  },
  {
    name: 'Subscriptions',
    description:
      "A customer's recurring charge, billed by Switchyard each period through the customer's saved payment method (off-session), and its invoices (one per period).",
  },
  {
    name: 'Disputes',
    description:
      "Cardholders' disputes of your payments (inquiries and chargebacks), as the processors report them, with their deadlines; accept them, or answer them with evidence.",
  },
  {
    name: 'Test clocks',
    description:
      'Stages with the sandbox only: a clock of its own for test customers; advancing it runs the renewals, retries and expiry notices that fall due, so months of billing can be watched in a minute.',
  },
  { name: 'Events', description: 'Every change of a payment, refund or customer, and its webhook deliveries.' },
  { name: 'Webhook endpoints', description: 'Where Switchyard sends your events (Standard Webhooks).' },
  {
    name: 'Connector accounts',
    description:
      'Your own processor accounts (Paystack, Flutterwave, Stripe, or the sandbox): credentials verified at the processor, stored encrypted, write-only.',
  },
  {
    name: 'Routing',
    description:
      'Where your payments go: routing algorithms (single, priority, volume split, advanced rules), the active one, and your default fallback list.',
  },
  { name: 'Health', description: 'Whether the service can reach its storage.' },
  {
    name: 'Processor webhooks',
    description:
      "The processors' inbound routes: Paystack, Flutterwave, Stripe and the sandbox post their events here (the stage's own accounts), or to a connector account's own `webhook_url`.",
  },
  {
    name: 'Payer pages',
    description:
      'Public pages the payer is sent to (authentication steps, the return route). The payment id is the capability; no api-key.',
  },
  {
    name: 'Sandbox',
    description: "The sandbox connector's hosted pages (3-D Secure challenge, checkout), where a person approves or declines.",
  },
  { name: 'Reference', description: 'This document and its rendered reference.' },
] as const;

/** One of {@link OPENAPI_TAGS}. */
export type OperationTag = (typeof OPENAPI_TAGS)[number]['name'];

/** HTTP statuses the API answers with its error object (or, on HTML routes, an error page). */
export type ErrorStatus = 400 | 401 | 402 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

/** The error codes an operation can answer, by status (documented in the response's description). */
export type ErrorCodes = Partial<Record<ErrorStatus, readonly string[]>>;

/** A named example of a JSON body: what the README walk-through sends or receives. */
export interface BodyExample {
  summary: string;
  value: unknown;
}

/** A request body: its schema (the handler's own), media type and whether it may be absent. */
export interface OperationBody {
  /** The zod schema the handler validates with (documented with `io: 'input'`). */
  schema: z.ZodType;
  /** False when an absent body counts as `{}` (every field optional). */
  required: boolean;
  mediaType: 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';
  description: string;
  /**
   * Descriptions of the body's fields by dotted path (`payment_method_data.card.card_number`): the
   * request schemas carry rules and messages, these say what each field means. The generator fails
   * on a path the schema does not have.
   */
  fields?: Readonly<Record<string, string>>;
  examples?: Readonly<Record<string, BodyExample>>;
}

/** A response header the generator knows (components/headers). */
export type ResponseHeaderName = 'Location' | 'Retry-After' | 'ETag' | 'Cache-Control' | 'Idempotent-Replayed';

/** What a success answer holds. */
export type SuccessContent =
  | { kind: 'json'; schema: z.ZodType; examples?: Readonly<Record<string, BodyExample>> }
  | { kind: 'html' }
  | { kind: 'javascript' }
  | { kind: 'none' };

/** A non-error answer of an operation (200, and 303/304/308/503-health where they apply). */
export interface SuccessResponse {
  description: string;
  content: SuccessContent;
  headers?: readonly ResponseHeaderName[];
}

/** A request header a processor sends (the inbound webhook route). */
export interface RequestHeaderDoc {
  name: string;
  description: string;
}

/** Everything the document says about one route. */
export interface OperationMetadata {
  /** Unique, lowerCamelCase: the SDK's method name. */
  operationId: string;
  tag: OperationTag;
  summary: string;
  description: string;
  /** Path parameter → description, for every `{name}` of the route's path. */
  pathParams?: Readonly<Record<string, string>>;
  /** The handler's query schema (a zod object, or a list query built by `listQuerySchema`). */
  query?: z.ZodType;
  /** Query parameter → description (and, for list parameters, the default). */
  queryDocs?: Readonly<Record<string, { description: string; default?: number }>>;
  body?: OperationBody;
  /** The handler honours `Idempotency-Key` (`idempotent: true` in its apiHandler spec). */
  idempotent: boolean;
  /**
   * Answered through `apiHandler` (JSON, `request-id` and `Switchyard-Version` on every answer,
   * the version check): false for the HTML pages and the static documents.
   */
  apiHandler: boolean;
  /** Media type of the error answers: the API's error object, or an HTML page. */
  errorFormat: 'json' | 'html';
  /** Success (non-error) answers by status. */
  responses: Readonly<Record<number, SuccessResponse>>;
  /** Every error status the route can answer, with its codes. */
  errors: ErrorCodes;
  /** Request headers besides the API's own (processor signatures). */
  requestHeaders?: readonly RequestHeaderDoc[];
}

/**
 * Merges error-code tables: statuses in ascending order, codes in first-seen order, no duplicates.
 * @param parts the tables to merge
 * @returns one table
 */
export function mergeErrors(...parts: readonly ErrorCodes[]): ErrorCodes {
  const merged = new Map<ErrorStatus, string[]>();
  for (const part of parts) {
    for (const [status, codes] of Object.entries(part) as [string, readonly string[]][]) {
      const list = merged.get(Number(status) as ErrorStatus) ?? [];
      for (const code of codes) if (!list.includes(code)) list.push(code);
      merged.set(Number(status) as ErrorStatus, list);
    }
  }
  return Object.fromEntries([...merged.entries()].sort(([a], [b]) => a - b)) as ErrorCodes;
}

/**
 * What any route wrapped by `apiHandler` can answer: 400 `api_version_invalid` (a `Switchyard-Version`
 * other than API_VERSION) and `idempotency_key_invalid` (checked on every route), 413 (the body size
 * limit runs on every route), 500.
 */
export const JSON_ROUTE: ErrorCodes = {
  400: ['api_version_invalid', 'idempotency_key_invalid'],
  413: ['body_too_large'],
  500: ['internal_error'],
};

/**
 * An `api-key` route: 401 (one body for missing, malformed, unknown, revoked keys); 429 when the
 * merchant is over its requests-per-second limit for the route's class, `read` for GET and `write`
 * otherwise (shared/http/rate-limit.ts, docs/rate-limits.md; the answer carries `Retry-After`,
 * `RateLimit` and `RateLimit-Policy`); the key lookup reads DynamoDB (503).
 */
export const AUTHENTICATED: ErrorCodes = { 401: ['invalid_api_key'], 429: ['rate_limit_exceeded'], 503: ['service_unavailable'] };

/** A route with a JSON body schema: 415 for another media type, 400 for JSON that does not parse or does not validate. */
export const JSON_BODY: ErrorCodes = {
  400: ['invalid_json', 'parameter_missing', 'parameter_invalid_type', 'parameter_invalid', 'parameter_unknown'],
  415: ['unsupported_media_type'],
};

/** A body that may hold a card (`payment_method_data.card`): the card fields' own codes (as Stripe's). */
export const CARD_BODY: ErrorCodes = { 400: ['invalid_number', 'invalid_expiry_month', 'invalid_expiry_year', 'invalid_cvc'] };

/** A route with a query schema: unknown or invalid parameters. */
export const QUERY: ErrorCodes = { 400: ['parameter_invalid', 'parameter_invalid_type', 'parameter_unknown'] };

/** A list: the query, plus an unknown `starting_after` (400 `resource_missing`). */
export const LIST: ErrorCodes = mergeErrors(QUERY, { 400: ['resource_missing'] });

/** `Idempotency-Key` honoured: a retry while the first runs (409), the same key with another body (422). */
export const IDEMPOTENT: ErrorCodes = { 409: ['idempotency_key_in_use'], 422: ['idempotency_key_reused'] };

/** An id in the path that does not exist for this merchant. */
export const NOT_FOUND: ErrorCodes = { 404: ['resource_missing'] };

/** A DynamoDB transaction cancelled by a concurrent one: nothing written, retry. */
export const CONCURRENT_WRITE: ErrorCodes = { 409: ['concurrent_update'] };

/** An operation not allowed in the payment's status (or a lost race, or a processor call in flight). */
export const PAYMENT_STATE: ErrorCodes = { 409: ['payment_unexpected_state'] };

/**
 * A route that may call a processor to move money: 502 when the connector is not configured or the
 * processor refused (its own code, e.g. `card_declined`, as `code`), 503 `outcome_unknown` when the
 * call was made and its answer could not be recorded (with `Retry-After`).
 */
export const MONEY_CALL: ErrorCodes = { 502: ['connector_unavailable', '<processor code>'], 503: ['outcome_unknown'] };

/**
 * Errors of an authorization's routing (create with `confirm: true`, confirm): 503
 * `connector_unavailable` when every connector that could take the payment has its circuit open
 * (shared/operations/routing/route-candidates.ts `ConnectorUnavailableError`; nothing changed or sent; with `Retry-After`).
 * The 502 of the same code is another case: the payment's connector is not configured on the stage.
 */
export const ROUTING_CIRCUITS: ErrorCodes = { 503: ['connector_unavailable'] };

/** A `force_sync` read: the processor could not be reached (502), nothing changed. */
export const SYNC_CALL: ErrorCodes = { 502: ['connector_unavailable', 'connector_unreachable'] };

/** The fields of the step form's address answer, which come together. */
const ADDRESS_FORM_FIELDS = ['address_line1', 'address_city', 'address_state', 'address_zip', 'address_country'];

/** The description of the list parameters every list shares (docs/api.md "Lists"). */
export const LIST_QUERY_DOCS = {
  limit: { description: `How many items to return, 1 to ${LIST_LIMIT_MAX}.`, default: LIST_LIMIT_DEFAULT },
  offset: { description: `How many items to skip, 0 to ${LIST_OFFSET_MAX}. Not with \`starting_after\`.` },
  starting_after: {
    description: 'An id from the previous page: this page starts after it. An unknown id → 400 `resource_missing`. Not with `offset`.',
  },
  ending_before: {
    description:
      'An id from the current page: the page just before it (newer items), still newest first; `has_more` says whether newer ones remain. An unknown id → 400 `resource_missing`. Not with `offset` or `starting_after`.',
  },
  created: {
    description:
      'Only items created in a range, as Stripe spells it: `created[gt]`, `created[gte]`, `created[lt]`, `created[lte]` (or `created.gte`, …), each an ISO 8601 timestamp (`2026-11-21T10:00:00Z`; a date alone means midnight UTC) or Unix seconds. With curl, brackets need `-g`.',
  },
} as const;

const PAYMENT_ID = { payment_id: 'The payment id (`pay_…`).' };
const REFUND_ID = { refund_id: 'The refund id (`ref_…`).' };
const CUSTOMER_ID = { customer_id: 'The customer id (`cus_…`).' };
const PAYMENT_METHOD_ID = { payment_method_id: 'The saved payment method id (`pm_…`).' };
const SUBSCRIPTION_ID = { subscription_id: 'The subscription id (`sub_…`).' };
const INVOICE_ID = { invoice_id: 'The invoice id (`in_…`).' };
const TEST_CLOCK_ID = { test_clock_id: 'The test clock id (`clock_…`).' };
const DISPUTE_ID = { dispute_id: 'The dispute id (`dp_…`).' };
const ENDPOINT_ID = { webhook_endpoint_id: 'The webhook endpoint id (`we_…`).' };
const EVENT_ID = { event_id: 'The event id (`evt_…`).' };
const CONNECTOR_ACCOUNT_ID = { merchant_connector_id: 'The connector account id (`mca_…`).' };
const ROUTING_ALGORITHM_ID = { routing_algorithm_id: 'The routing algorithm id (`routing_…`).' };
const FORCE_SYNC = {
  force_sync: { description: '`true` first asks the connector for the current state of an unsettled resource and applies it.' },
};

const json = (schema: z.ZodType, description: string, examples?: Readonly<Record<string, BodyExample>>): SuccessResponse => ({
  description,
  content: { kind: 'json', schema, ...(examples ? { examples } : {}) },
});

const jsonBody = (
  schema: z.ZodType,
  required: boolean,
  description: string,
  fields: Readonly<Record<string, string>>,
  examples?: Readonly<Record<string, BodyExample>>,
): OperationBody => ({ schema, required, mediaType: 'application/json', description, fields, ...(examples ? { examples } : {}) });

// ---------------------------------------------------------------------------------------------
// Field descriptions of the request bodies (docs/api.md "Validation" and the endpoints).
// ---------------------------------------------------------------------------------------------

const CARD_FIELDS = {
  card: 'Card details, used for this call only: the card number and CVC are never stored, logged or returned (the payment keeps a summary: last4, brand, expiry, fingerprint).',
  'card.card_number': '12 to 19 digits, no spaces, passing the Luhn check.',
  'card.card_exp_month': 'Expiry month `1`–`12` (a leading zero is allowed), as a string.',
  'card.card_exp_year': 'Expiry year, 2 or 4 digits (`30` is 2030), as a string; the expiry (end of that month, UTC) must not be past.',
  'card.card_cvc': '3 or 4 digits, as a string.',
} as const;

/** The `payment_method_data` fields under a prefix (e.g. `payment_method_data.`). */
function methodDataFields(prefix: string): Record<string, string> {
  return {
    [`${prefix}payment_method_data`]: 'Exactly one of `card` or `ussd`.',
    ...Object.fromEntries(Object.entries(CARD_FIELDS).map(([k, v]) => [`${prefix}payment_method_data.${k}`, v])),
    [`${prefix}payment_method_data.ussd`]: "The payer's bank for a USSD payment (without one, `058`, Guaranty Trust Bank).",
    [`${prefix}payment_method_data.ussd.bank_code`]:
      'A Nigerian (CBN) bank code; a bank no configured connector serves → 400 `no_connector_available` (docs/connectors.md).',
  };
}

const PAYMENT_METHOD_FIELD = {
  payment_method: '`card`, `bank_transfer`, `ussd` or `mobile_money`; implied by `payment_method_data` when absent.',
};

/** `merchant_connector_id` on create and confirm: a pin that overrides routing (docs/api.md "Routing"). */
const PIN_FIELD = {
  merchant_connector_id:
    'Pins the payment to one of your connector accounts (`mca_…`), overriding routing: that account only, no fallback. An unknown one → 400 `resource_missing`; one that cannot take the payment (disabled, being deleted, this currency, method or amount not enabled) → 400 `no_connector_available` with `param: merchant_connector_id`.',
};

const RETURN_URL_FIELD = {
  return_url:
    'Where the payer is sent back (303, with `payment_id` and `status` added to its query) after 3-D Secure, a hosted page or a step: an absolute URL of at most 2,048 characters without credentials; `https:` on deployed stages.',
};

const BILLING_FIELDS = {
  billing: 'Billing details, echoed in the payment.',
  'billing.address': 'The billing address; every field optional.',
  'billing.address.first_name': 'At most 200 characters.',
  'billing.address.last_name': 'At most 200 characters.',
  'billing.address.line1': 'At most 200 characters.',
  'billing.address.city': 'At most 200 characters.',
  'billing.address.state': 'At most 200 characters.',
  'billing.address.zip': 'At most 40 characters.',
  'billing.address.country': 'ISO 3166-1 alpha-2, upper case (`NG`).',
};

/** The saved-method fields of create and confirm (issue 24; docs/api.md "Saved payment methods"). */
const SAVED_METHOD_FIELDS = {
  setup_future_usage:
    "Save the card on the payment's customer once the payment succeeds: `on_session` (charged again with the payer present) or `off_session` (also without them: needs `customer_acceptance`). Needs a customer; not with `payment_method_id`.",
  customer_acceptance:
    "The payer's agreement to later charges without them; required with `setup_future_usage: off_session`, refused otherwise.",
  'customer_acceptance.acceptance_type': '`online` (give `online`) or `offline`.',
  'customer_acceptance.accepted_at': 'When the payer accepted: ISO 8601, a real date and time, not in the future.',
  'customer_acceptance.online': 'Required for `online`: where the payer accepted.',
  'customer_acceptance.online.ip_address': "The payer's IPv4 or IPv6 address.",
  'customer_acceptance.online.user_agent': "The payer's browser user agent, at most 512 characters.",
  payment_method_id:
    "Charge a saved payment method of your customer's (`pm_…`) instead of new details, through the connector account that issued it (no routing). Unknown or detached → 400 `resource_missing`; another customer's → 400 `parameter_invalid`.",
  off_session:
    'With `payment_method_id`: the payer is not present (a merchant-initiated charge). The method must have been saved with `off_session`. A processor that still needs the payer answers `RequiresAction` with a `next_action`.',
};

const CREATE_PAYMENT_FIELDS = {
  ...SAVED_METHOD_FIELDS,
  amount:
    'What to collect, an integer in minor units from 1 to 99,999,999,999 (`150000` NGN is ₦1,500.00). Strings and fractions are refused.',
  currency: 'ISO 4217, upper case: `NGN`, `USD`, `GHS`, `ZAR` or `KES`.',
  confirm: 'Process the payment now (default false: it waits in `RequiresConfirmation` for `POST /payments/{payment_id}/confirm`).',
  capture_method: '`automatic` (default) captures at confirm; `manual` stops at `RequiresCapture`.',
  ...PAYMENT_METHOD_FIELD,
  ...methodDataFields(''),
  'payment_method_data.card': `${CARD_FIELDS.card} Only with \`confirm: true\`.`,
  description: 'At most 1000 characters; no card number.',
  email: "The payer's e-mail address, at most 254 characters.",
  customer_id: 'A customer of yours (`cus_…`); an unknown one → 400 `resource_missing`.',
  metadata: 'Your own key/value pairs, echoed (at most 50 keys of 1–40 characters, values of at most 500 characters).',
  ...BILLING_FIELDS,
  ...RETURN_URL_FIELD,
  ...PIN_FIELD,
};

const CUSTOMER_FIELDS = {
  email: 'E-mail address, at most 254 characters.',
  name: 'At most 256 characters.',
  phone: 'E.164: `+` then 7 to 15 digits, e.g. `+2348012345678`.',
  description: 'At most 1000 characters.',
  metadata: 'Your own key/value pairs (replaces the whole map on update).',
};
const CREATE_CUSTOMER_FIELDS = {
  ...CUSTOMER_FIELDS,
  test_clock:
    'Stages with the sandbox only: a test clock (`clock_…`) the customer lives on; its subscriptions and saved methods then take their times from it. Set on create only.',
};
const TEST_CLOCK_FIELDS = {
  frozen_time: 'ISO 8601 UTC: where the clock starts.',
  name: 'A name for it, at most 256 characters.',
};
const EVIDENCE_FIELDS = {
  evidence:
    "Stripe's evidence fields: text (`product_description`, `customer_name`, `customer_email_address`, `billing_address`, `shipping_address`, `shipping_date`, `shipping_tracking_number`, `service_date`, `refund_policy_disclosure`, `refund_refusal_explanation`, `cancellation_policy_disclosure`, `access_activity_log`, `uncategorized_text`; at most 20,000 characters each) and files (`receipt`, `customer_communication`, `shipping_documentation`, `service_documentation`, `refund_policy`, `cancellation_policy`, `uncategorized_file`: ids from `POST /files`). Merged into what was saved before.",
  submit: 'Whether to submit it for the issuer’s decision now (default false: saved only).',
  ...Object.fromEntries(DISPUTE_EVIDENCE_TEXT_FIELDS.map((f) => [`evidence.${f}`, `Text, at most 20,000 characters (Stripe’s \`${f}\`).`])),
  ...Object.fromEntries(
    DISPUTE_EVIDENCE_FILE_FIELDS.map((f) => [`evidence.${f}`, `A file id (\`file_…\`) from \`POST /files\` (Stripe’s \`${f}\`).`]),
  ),
};
const ADVANCE_TEST_CLOCK_FIELDS = {
  frozen_time: 'ISO 8601 UTC: where the clock goes (later than its time, by at most 2 years).',
};

const SUBSCRIPTION_FIELDS = {
  customer_id: 'The customer to bill (`cus_…`).',
  payment_method_id:
    'A saved payment method of that customer (`pm_…`): active and saved with `setup_future_usage: off_session` (`recurring_enabled`); each period is charged off-session through it.',
  amount: 'What each period costs, in minor units.',
  currency: 'The currency of `amount`.',
  interval: 'The unit of a period: `day`, `week`, `month` or `year`.',
  interval_count: 'How many intervals make a period (default 1). A period is at most a year: 365 days, 52 weeks, 12 months, 1 year.',
  trial_period_days:
    'A free trial first, in days (1–730): the subscription starts `trialing`, nothing is charged, its first invoice is a paid one of 0.',
  metadata: 'Your own key/value pairs.',
};
const UPDATE_SUBSCRIPTION_FIELDS = {
  payment_method_id: 'Another saved payment method of the same customer, checked as at create.',
  cancel_at_period_end: 'Whether to cancel at the end of the current period instead of renewing.',
  metadata: 'Your own key/value pairs (replaces the whole map).',
};
const ENDPOINT_FIELDS = {
  url: 'Where events are POSTed: an absolute URL (deployed stages: `https://`, public addresses only, no credentials).',
  enabled_events: 'Event types to send, or `["*"]` for all (the default).',
  description: 'At most 1000 characters.',
};

const CONNECTOR_ACCOUNT_FIELDS = {
  connector_label:
    'Your name for the account, unique among your accounts (case-insensitive): 1 to 64 letters, digits, spaces, `.`, `_` or `-`, starting with a letter or digit. Default on create: `<connector_name>_<n>`.',
  connector_account_details:
    "The account's credentials, **write-only**: verified at the processor (one read-only call) before anything is stored, stored encrypted, answered masked (prefix and last 4 characters). Required on create except for the sandbox.",
  'connector_account_details.auth_type': "Accepted for Hyperswitch's shape (`HeaderKey` or `BodyKey`); ignored.",
  'connector_account_details.api_key':
    'The secret key: Stripe `sk_test_…`/`rk_test_…` (`sk_live_…`/`rk_live_…` on prod), Paystack `sk_test_…` (`sk_live_…`), Flutterwave `FLWSECK_TEST-…` (`FLWSECK-…`). Test keys on every stage but prod, live keys on prod only (400 `connector_credentials_mode`). The sandbox takes none.',
  'connector_account_details.key1':
    'Flutterwave only, and required there: the 24-character encryption key of its direct card charges. Refused for the other connectors.',
  connector_webhook_details: "How the processor signs its webhooks to this account's `webhook_url`, **write-only**.",
  'connector_webhook_details.merchant_secret':
    "Stripe: the endpoint's signing secret (`whsec_…`); Flutterwave: the dashboard's secret hash. Optional (without it the account's webhooks are refused: its payments are settled by sync and the reconciler). Paystack signs with the secret key itself and the sandbox with the stage's own secret: refused for them.",
  payment_methods_enabled:
    'What routing may send to this account: one entry per payment method, `{payment_method, currencies, minimum_amount?, maximum_amount?}` (amounts in minor units, bounds inclusive). Only what the connector itself takes (docs/connectors.md); default on create: everything it takes, without bounds. Replaces the whole list on update.',
  disabled:
    'A disabled account takes no new payments; it still captures, voids, refunds and reconciles the payments it holds. Default false.',
  metadata: 'Your own key/value pairs (replaces the whole map on update).',
};

/**
 * A field of a payer page's form: empty (left out), or the value the JSON route takes, with the
 * surrounding whitespace the page trims (shared/operations/payer/authentication-page-submission.ts).
 */
const formField = (value: RegExp) =>
  z
    .string()
    .regex(new RegExp(`^\\s*(${value.source})?\\s*$`))
    .optional();

/** Idempotent replays carry `Idempotent-Replayed: true`. */
const replayed = (response: SuccessResponse): SuccessResponse => ({
  ...response,
  headers: [...(response.headers ?? []), 'Idempotent-Replayed'],
});

// ---------------------------------------------------------------------------------------------
// Examples: the README walk-through (steps 1, 2 and 4), with ids of the shape the API hands out.
// No card data: a card payment's summary shows last4 and brand only.
// ---------------------------------------------------------------------------------------------

const EXAMPLE_CUSTOMER_ID = 'cus_4f1c2b8e9a7d4e3fb2c1a0d9e8f7a6b5';
const EXAMPLE_PAYMENT_ID = 'pay_9b2e4c6a8d0f4e1a3c5b7d9f1e3a5c7b';
const EXAMPLE_REFUND_ID = 'ref_1a3c5e7b9d2f4a6c8e0b1d3f5a7c9e2b';

/** README step 2: a payment of NGN 1,500.00 (150000 kobo) for a customer, not yet confirmed. */
export const EXAMPLE_CREATE_PAYMENT_REQUEST = {
  amount: 150000,
  currency: 'NGN',
  payment_method: 'card',
  customer_id: EXAMPLE_CUSTOMER_ID,
  description: 'Order 42',
} satisfies z.input<typeof createPaymentBodySchema>;

/** The answer to {@link EXAMPLE_CREATE_PAYMENT_REQUEST}: `RequiresConfirmation`. */
export const EXAMPLE_CREATED_PAYMENT = {
  payment_id: EXAMPLE_PAYMENT_ID,
  status: 'RequiresConfirmation',
  pending_operation: null,
  amount: 150000,
  currency: 'NGN',
  amount_captured: 0,
  amount_refunded: 0,
  amount_disputed: 0,
  disputes: [],
  capture_method: 'automatic',
  payment_method: 'card',
  payment_method_data: null,
  payment_method_id: null,
  setup_future_usage: null,
  customer_acceptance: null,
  connector: 'sandbox',
  merchant_connector_id: null,
  connector_transaction_id: null,
  customer_id: EXAMPLE_CUSTOMER_ID,
  description: 'Order 42',
  email: null,
  metadata: {},
  billing: null,
  next_action: null,
  return_url: null,
  cancellation_reason: null,
  error_code: null,
  error_message: null,
  attempts: [],
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
} satisfies z.output<typeof PaymentResource>;

/** README step 3's answer: the same payment confirmed with a sandbox card, `Succeeded` (card summary only). */
export const EXAMPLE_SUCCEEDED_PAYMENT = {
  ...EXAMPLE_CREATED_PAYMENT,
  status: 'Succeeded',
  amount_captured: 150000,
  payment_method_data: {
    card: { last4: '4242', brand: 'visa', exp_month: 12, exp_year: 2030, fingerprint: 'fp_3d9c1e7a5b2f4c6e8a0d1b3f5c7e9a2d' },
  },
  connector_transaction_id: 'sbx_9b2e4c6a8d0f4e1a3c5b7d9f1e3a5c7b',
  attempts: [
    {
      attempt_id: 'att_5c7e9a1b3d5f4a2c6e8b0d2f4a6c8e1b',
      connector: 'sandbox',
      merchant_connector_id: null,
      status: 'Succeeded',
      connector_transaction_id: 'sbx_9b2e4c6a8d0f4e1a3c5b7d9f1e3a5c7b',
      error_code: null,
      error_message: null,
      routing_approach: 'default_fallback',
      routing_segment: null,
      created_at: '2026-11-24T10:00:05.000Z',
    },
  ],
  updated_at: '2026-11-24T10:00:05.200Z',
} satisfies z.output<typeof PaymentResource>;

/** README step 4: refund NGN 500.00 of it. */
export const EXAMPLE_REFUND_REQUEST = { amount: 50000, reason: 'damaged item' } satisfies z.input<typeof refundPaymentBodySchema>;

/** The answer to {@link EXAMPLE_REFUND_REQUEST}. */
export const EXAMPLE_REFUND = {
  refund_id: EXAMPLE_REFUND_ID,
  payment_id: EXAMPLE_PAYMENT_ID,
  amount: 50000,
  currency: 'NGN',
  status: 'Succeeded',
  pending_operation: null,
  reason: 'damaged item',
  connector: 'sandbox',
  merchant_connector_id: null,
  connector_refund_id: 'sbx_re_1a3c5e7b9d2f4a6c8e0b1d3f5a7c9e2b',
  error_code: null,
  error_message: null,
  created_at: '2026-11-24T10:05:00.000Z',
  updated_at: '2026-11-24T10:05:00.150Z',
} satisfies z.output<typeof RefundResource>;

/** README step 1: a customer. */
export const EXAMPLE_CREATE_CUSTOMER_REQUEST = {
  email: 'ada@example.com',
  name: 'Ada Obi',
  phone: '+2348012345678',
} satisfies z.input<typeof customerBodySchema>;

/** The answer to {@link EXAMPLE_CREATE_CUSTOMER_REQUEST}. */
export const EXAMPLE_CUSTOMER = {
  customer_id: EXAMPLE_CUSTOMER_ID,
  email: 'ada@example.com',
  name: 'Ada Obi',
  phone: '+2348012345678',
  description: null,
  test_clock: null,
  metadata: {},
  created_at: '2026-11-24T09:59:00.000Z',
  updated_at: '2026-11-24T09:59:00.000Z',
} satisfies z.output<typeof CustomerResource>;

const EXAMPLE_SUBSCRIPTION_ID = 'sub_2b4d6f8a0c1e3a5c7e9b1d3f5a7c9e0b';
const EXAMPLE_INVOICE_ID = 'in_7e9b1d3f5a7c9e0b2b4d6f8a0c1e3a5c';

/** A monthly subscription of the README's customer on its saved card. */
export const EXAMPLE_CREATE_SUBSCRIPTION_REQUEST = {
  customer_id: EXAMPLE_CUSTOMER_ID,
  payment_method_id: 'pm_6c8e0a2b4d6f4a1c3e5b7d9f2a4c6e8b',
  amount: 500000,
  currency: 'NGN',
  interval: 'month',
} satisfies z.input<typeof createSubscriptionBodySchema>;

/** The answer to {@link EXAMPLE_CREATE_SUBSCRIPTION_REQUEST}: its first invoice paid. */
export const EXAMPLE_SUBSCRIPTION = {
  subscription_id: EXAMPLE_SUBSCRIPTION_ID,
  customer_id: EXAMPLE_CUSTOMER_ID,
  payment_method_id: 'pm_6c8e0a2b4d6f4a1c3e5b7d9f2a4c6e8b',
  amount: 500000,
  currency: 'NGN',
  interval: 'month',
  interval_count: 1,
  trial_period_days: null,
  status: 'active',
  billing_cycle_anchor: '2026-01-31T10:00:00.000Z',
  current_period_start: '2026-01-31T10:00:00.000Z',
  current_period_end: '2026-02-28T10:00:00.000Z',
  cancel_at_period_end: false,
  canceled_at: null,
  cancellation_details: null,
  latest_invoice_id: EXAMPLE_INVOICE_ID,
  test_clock: null,
  metadata: {},
  created_at: '2026-01-31T10:00:00.000Z',
  updated_at: '2026-01-31T10:00:01.250Z',
} satisfies z.output<typeof SubscriptionResource>;

/** A `POST /test_helpers/test_clocks` body. */
export const EXAMPLE_CREATE_TEST_CLOCK_REQUEST = {
  frozen_time: '2026-01-01T00:00:00.000Z',
  name: 'Monthly plan, a year',
} satisfies z.input<typeof createTestClockBodySchema>;

/** The clock {@link EXAMPLE_CREATE_TEST_CLOCK_REQUEST} creates. */
export const EXAMPLE_TEST_CLOCK = {
  test_clock_id: 'clock_4f6a8c0e2b4d6f8a0c1e3a5c7e9b1d3f',
  name: 'Monthly plan, a year',
  frozen_time: '2026-01-01T00:00:00.000Z',
  status: 'ready',
  created_at: '2026-11-24T10:00:00.000Z',
} satisfies z.output<typeof TestClockResource>;

/** The first invoice of {@link EXAMPLE_SUBSCRIPTION}, paid. */
export const EXAMPLE_INVOICE = {
  invoice_id: EXAMPLE_INVOICE_ID,
  subscription_id: EXAMPLE_SUBSCRIPTION_ID,
  customer_id: EXAMPLE_CUSTOMER_ID,
  amount_due: 500000,
  amount_paid: 500000,
  currency: 'NGN',
  period_start: '2026-01-31T10:00:00.000Z',
  period_end: '2026-02-28T10:00:00.000Z',
  status: 'paid',
  attempt_count: 1,
  next_payment_attempt: null,
  payment_ids: ['pay_3c5e7a9b1d2f4a6c8e0b2d4f6a8c0e1b'],
  created_at: '2026-01-31T10:00:00.000Z',
  updated_at: '2026-01-31T10:00:01.250Z',
} satisfies z.output<typeof InvoiceResource>;

/** A card saved on the README's customer by a payment with `setup_future_usage: off_session` (docs/api.md "Saved payment methods"). */
export const EXAMPLE_PAYMENT_METHOD = {
  payment_method_id: 'pm_6c8e0a2b4d6f4a1c3e5b7d9f2a4c6e8b',
  customer_id: EXAMPLE_CUSTOMER_ID,
  type: 'card',
  card: {
    brand: 'visa',
    last4: '4081',
    exp_month: 12,
    exp_year: 2030,
    fingerprint: 'fp_1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f2a',
    bin: '408408',
    issuer_country: 'NG',
  },
  connector: 'paystack',
  merchant_connector_id: 'mca_3e5a7c9b1d2f4e6a8c0b2d4f6a8c1e3b',
  recurring_enabled: true,
  status: 'active',
  default: true,
  payment_id: EXAMPLE_PAYMENT_ID,
  created_at: '2026-11-24T10:00:05.300Z',
  last_used_at: null,
  expires_at: '2030-12-31T23:59:59.999Z',
} satisfies z.output<typeof PaymentMethodResource>;

/** {@link EXAMPLE_PAYMENT_METHOD} once `DELETE /payment_methods/{payment_method_id}` detached it. */
export const EXAMPLE_DETACHED_PAYMENT_METHOD = {
  ...EXAMPLE_PAYMENT_METHOD,
  status: 'detached',
  default: false,
} satisfies z.output<typeof PaymentMethodResource>;

/** README step 6: a 3-D Secure card confirmed at create waits for the payer on the sandbox's hosted page. */
export const EXAMPLE_REQUIRES_ACTION_PAYMENT = {
  ...EXAMPLE_CREATED_PAYMENT,
  payment_id: 'pay_2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c',
  status: 'RequiresAction',
  amount: 250000,
  customer_id: null,
  description: null,
  payment_method_data: {
    card: { last4: '3220', brand: 'visa', exp_month: 12, exp_year: 2030, fingerprint: 'fp_8e0a2c4e6b1d3f5a7c9e1b3d5f7a9c2e' },
  },
  connector_transaction_id: 'sbx_2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c',
  next_action: {
    type: 'redirect_to_url',
    redirect_to_url: 'http://localhost:3000/sandbox/3ds/pay_2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c',
  },
  attempts: [
    {
      attempt_id: 'att_7e9b1d3f5a2c4e6b8d0f1a3c5e7b9d2f',
      connector: 'sandbox',
      merchant_connector_id: null,
      status: 'RequiresAction',
      connector_transaction_id: 'sbx_2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c',
      error_code: null,
      error_message: null,
      routing_approach: 'default_fallback',
      routing_segment: null,
      created_at: '2026-11-24T10:10:00.000Z',
    },
  ],
  created_at: '2026-11-24T10:10:00.000Z',
  updated_at: '2026-11-24T10:10:00.300Z',
} satisfies z.output<typeof PaymentResource>;

/** The `payment.succeeded` event of README step 3's payment, as `GET /events/{id}` answers and webhooks deliver it. */
export const EXAMPLE_PAYMENT_SUCCEEDED_EVENT = {
  event_id: 'evt_019ab5f0c6e8000001a3c5e7b9d1f2a4',
  type: 'payment.succeeded',
  created_at: '2026-11-24T10:00:05.200Z',
  data: EXAMPLE_SUCCEEDED_PAYMENT,
} satisfies z.output<typeof EventResource>;

/** The `refund.succeeded` event of README step 4's refund. */
export const EXAMPLE_REFUND_SUCCEEDED_EVENT = {
  event_id: 'evt_019ab5f5a2f0000002b4d6f8a0c2e4f6',
  type: 'refund.succeeded',
  created_at: '2026-11-24T10:05:00.150Z',
  data: EXAMPLE_REFUND,
} satisfies z.output<typeof EventResource>;

/** The `customer.created` event of README step 1's customer. */
export const EXAMPLE_CUSTOMER_CREATED_EVENT = {
  event_id: 'evt_019ab5efdb60000003c5e7a9b1d3f5a7',
  type: 'customer.created',
  created_at: '2026-11-24T09:59:00.000Z',
  data: EXAMPLE_CUSTOMER,
} satisfies z.output<typeof EventResource>;

// ---------------------------------------------------------------------------------------------
// Examples of connector accounts and routing (README "Your own processor accounts and routing"):
// a Paystack and a Flutterwave account of one merchant, a 70/30 volume split between them, and an
// advanced program. The Paystack key is Paystack's own documentation sample (a test key).
// ---------------------------------------------------------------------------------------------

const EXAMPLE_PAYSTACK_ACCOUNT_ID = 'mca_4d0cb9dbe26449f8863e5ac7663e0928';
const EXAMPLE_FLUTTERWAVE_ACCOUNT_ID = 'mca_8b0b874e3cb54c40b0d36eb47cb03708';
const EXAMPLE_ROUTING_ALGORITHM_ID = 'routing_3f408b71eb4a422a89428b614c2a4d0c';

/** Connects a Paystack test account. */
export const EXAMPLE_CREATE_CONNECTOR_ACCOUNT_REQUEST = {
  connector_name: 'paystack',
  connector_label: 'paystack-ng',
  connector_account_details: { api_key: 'sk_test_r3m3mb3r2pu70nasm1l3' },
} satisfies z.input<typeof createConnectorAccountSchema>;

/** The answer to {@link EXAMPLE_CREATE_CONNECTOR_ACCOUNT_REQUEST}: credentials masked, everything Paystack takes enabled. */
export const EXAMPLE_CONNECTOR_ACCOUNT = {
  merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID,
  connector_name: 'paystack',
  connector_label: 'paystack-ng',
  connector_account_details: { api_key: 'sk_test_…m1l3', key1: null },
  connector_webhook_details: { merchant_secret_set: false },
  payment_methods_enabled: [
    { payment_method: 'card', currencies: ['NGN', 'USD', 'GHS', 'ZAR', 'KES'] },
    { payment_method: 'bank_transfer', currencies: ['NGN', 'KES'] },
    { payment_method: 'ussd', currencies: ['NGN'] },
    { payment_method: 'mobile_money', currencies: ['GHS', 'KES'] },
  ],
  disabled: false,
  status: 'active',
  test_mode: true,
  webhook_url: `http://localhost:3000/webhooks/paystack/${EXAMPLE_PAYSTACK_ACCOUNT_ID}`,
  metadata: {},
  created_at: '2026-11-24T09:00:00.000Z',
  updated_at: '2026-11-24T09:00:00.000Z',
} satisfies z.output<typeof ConnectorAccountResource>;

/** A 70/30 volume split between the Paystack and the Flutterwave account. */
export const EXAMPLE_CREATE_VOLUME_SPLIT_REQUEST = {
  name: 'NGN split',
  description: '70 % Paystack, 30 % Flutterwave',
  algorithm: {
    type: 'volume_split',
    data: [
      { split: 70, merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID },
      { split: 30, merchant_connector_id: EXAMPLE_FLUTTERWAVE_ACCOUNT_ID },
    ],
  },
} satisfies z.input<typeof createRoutingAlgorithmSchema>;

/** Rules: large NGN payments to Flutterwave first, `metadata.tier` `gold` to Paystack only, the rest split 70/30. */
export const EXAMPLE_CREATE_ADVANCED_REQUEST = {
  name: 'Large NGN to Flutterwave',
  algorithm: {
    type: 'advanced',
    data: {
      default_selection: EXAMPLE_CREATE_VOLUME_SPLIT_REQUEST.algorithm,
      rules: [
        {
          name: 'large_ngn',
          connector_selection: {
            type: 'priority',
            data: [{ merchant_connector_id: EXAMPLE_FLUTTERWAVE_ACCOUNT_ID }, { merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID }],
          },
          statements: [
            {
              condition: [
                { lhs: 'currency', comparison: 'equal', value: { type: 'enum_variant', value: 'NGN' } },
                { lhs: 'amount', comparison: 'greater_than', value: { type: 'number', value: 5000000 } },
              ],
            },
          ],
        },
        {
          name: 'gold_customers',
          connector_selection: { type: 'priority', data: [{ merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID }] },
          statements: [{ condition: [{ lhs: 'metadata.tier', comparison: 'equal', value: { type: 'str_value', value: 'gold' } }] }],
        },
      ],
    },
  },
} satisfies z.input<typeof createRoutingAlgorithmSchema>;

/** The answer to {@link EXAMPLE_CREATE_VOLUME_SPLIT_REQUEST}: created, not active yet. */
export const EXAMPLE_ROUTING_ALGORITHM = {
  routing_algorithm_id: EXAMPLE_ROUTING_ALGORITHM_ID,
  name: 'NGN split',
  description: '70 % Paystack, 30 % Flutterwave',
  algorithm: EXAMPLE_CREATE_VOLUME_SPLIT_REQUEST.algorithm,
  is_active: false,
  created_at: '2026-11-24T09:05:00.000Z',
  modified_at: '2026-11-24T09:05:00.000Z',
} satisfies z.output<typeof RoutingAlgorithmResource>;

/** `GET /routing/active` after the split was activated (and the `routing.activated` event's data). */
export const EXAMPLE_ROUTING_ACTIVATION = {
  active: true,
  routing_algorithm_id: EXAMPLE_ROUTING_ALGORITHM_ID,
  name: 'NGN split',
  algorithm_type: 'volume_split',
  activated_at: '2026-11-24T09:06:00.000Z',
} satisfies z.output<typeof RoutingActivationResource>;

/** `GET /routing/default` of a merchant that set no list: its accounts in the order it connected them. */
export const EXAMPLE_DEFAULT_FALLBACK = {
  default_fallback: [
    { merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID, connector_name: 'paystack' },
    { merchant_connector_id: EXAMPLE_FLUTTERWAVE_ACCOUNT_ID, connector_name: 'flutterwave' },
  ],
  is_custom: false,
} satisfies z.output<typeof DefaultFallbackResource>;

/** README step 2's payment routed by the split to the merchant's Paystack account and confirmed there. */
export const EXAMPLE_OWN_ACCOUNT_PAYMENT = {
  ...EXAMPLE_SUCCEEDED_PAYMENT,
  connector: 'paystack',
  merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID,
  connector_transaction_id: '4099260516',
  attempts: [
    {
      ...EXAMPLE_SUCCEEDED_PAYMENT.attempts[0]!,
      connector: 'paystack',
      merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID,
      connector_transaction_id: '4099260516',
      routing_approach: 'volume_split',
    },
  ],
} satisfies z.output<typeof PaymentResource>;

/** Example bodies of the OpenAPI `webhooks`, by event type (the others have none). */
export const WEBHOOK_EXAMPLES: Readonly<Partial<Record<EventType, BodyExample>>> = {
  'payment.succeeded': { summary: "README step 3's payment succeeded", value: EXAMPLE_PAYMENT_SUCCEEDED_EVENT },
  'refund.succeeded': { summary: "README step 4's refund succeeded", value: EXAMPLE_REFUND_SUCCEEDED_EVENT },
  'customer.created': { summary: "README step 1's customer", value: EXAMPLE_CUSTOMER_CREATED_EVENT },
  'connector_account.created': {
    summary: 'A Paystack test account connected',
    value: {
      event_id: 'evt_019ab5a1f2c4000005e7a9c1b3d5f7a9',
      type: 'connector_account.created',
      created_at: '2026-11-24T09:00:00.000Z',
      data: EXAMPLE_CONNECTOR_ACCOUNT,
    } satisfies z.output<typeof EventResource>,
  },
  'routing.activated': {
    summary: 'The 70/30 split activated',
    value: {
      event_id: 'evt_019ab5a6b8e0000006f8b0d2c4e6a8b0',
      type: 'routing.activated',
      created_at: '2026-11-24T09:06:00.000Z',
      data: EXAMPLE_ROUTING_ACTIVATION,
    } satisfies z.output<typeof EventResource>,
  },
};

/** An error: a create without `amount` (docs/api.md "Errors"). */
export const EXAMPLE_MISSING_AMOUNT_ERROR = {
  error: { type: 'invalid_request_error', code: 'parameter_missing', message: 'Missing required parameter: amount.', param: 'amount' },
} as const;

/** The signature headers processors send on their webhooks (`POST /webhooks/{connector}[/{merchant_connector_id}]`). */
const PROCESSOR_SIGNATURE_HEADERS: readonly RequestHeaderDoc[] = [
  { name: 'x-paystack-signature', description: 'Paystack: HMAC-SHA512 of the raw body with the secret key.' },
  { name: 'verif-hash', description: "Flutterwave: the dashboard's secret hash." },
  { name: 'stripe-signature', description: 'Stripe: `t=…,v1=…` over the raw body.' },
  { name: 'x-sandbox-signature', description: 'The sandbox: hex HMAC-SHA256 of `sandbox-webhook:` + the raw body.' },
];

/** What a processor's webhook can be answered (shared/operations/inbound-webhooks/receive-connector-webhook.ts `receiveConnectorWebhook`). */
const PROCESSOR_WEBHOOK_ERRORS = mergeErrors(
  JSON_ROUTE,
  { 400: ['invalid_json', 'parameter_missing', 'parameter_invalid_type', 'parameter_invalid'] },
  { 401: ['invalid_signature'] },
  { 404: ['resource_missing'] },
  { 409: ['payment_busy'] },
  CONCURRENT_WRITE,
  { 503: ['connector_unreachable', 'service_unavailable', 'outcome_unknown'] },
);

/**
 * Connecting or changing a connector account's credentials (shared/operations/connector-accounts/connector-account-operations.ts
 * `verifiedMode`): a malformed key (400 `parameter_invalid`), a live key on a test stage or a test key on prod
 * (`connector_credentials_mode`), a connector this stage cannot connect (`connector_not_available`: the sandbox on
 * prod), the processor refusing them (`connector_credentials_invalid`), or not answering (503
 * `connector_unreachable`). Nothing is stored in any of these cases.
 */
const CONNECTOR_CREDENTIALS: ErrorCodes = {
  400: ['parameter_invalid', 'connector_credentials_mode', 'connector_not_available', 'connector_credentials_invalid'],
  503: ['connector_unreachable'],
};

/** A change of the merchant's routing profile that lost a race with another (shared/operations/routing/routing-operations.ts): retry. */
const ROUTING_RACE: ErrorCodes = { 409: ['routing_changed'] };

const PAYMENT_BODY_ERRORS = mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, CARD_BODY, IDEMPOTENT);

/** The metadata of every route, keyed by its ROUTES `name`. */
export const OPENAPI_OPERATIONS: Readonly<Record<string, OperationMetadata>> = {
  CreatePayment: {
    operationId: 'createPayment',
    tag: 'Payments',
    summary: 'Create a payment',
    description:
      "Creates a payment intent, routed to one of your connector accounts (an explicit `merchant_connector_id`, else your active routing algorithm, else your default fallback list; the stage's own rules when you have no connector accounts). With `confirm: true` it is processed before the answer returns (`payment_method` then required, or implied by `payment_method_data`). A card in `payment_method_data` is only accepted with `confirm: true`: card numbers are never stored. Send an `Idempotency-Key`: a payment created with one gets an id derived from it, so a retry never charges twice. Answers 200 (not 201), as Stripe does; a decline is a 200 with `status: Failed`.",
    body: jsonBody(createPaymentBodySchema, true, 'The payment to create. Amounts in minor units.', CREATE_PAYMENT_FIELDS, {
      walkthrough: {
        summary: 'NGN 1,500.00 by card for a customer, confirmed later (README step 2)',
        value: EXAMPLE_CREATE_PAYMENT_REQUEST,
      },
      pinned: {
        summary: 'The same payment pinned to one of your connector accounts',
        value: { ...EXAMPLE_CREATE_PAYMENT_REQUEST, merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID },
      },
    }),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(PaymentResource, 'The payment (`RequiresConfirmation`, or the outcome of the confirm).', {
          walkthrough: { summary: 'Created, waiting for confirm (README step 2)', value: EXAMPLE_CREATED_PAYMENT },
        }),
      ),
    },
    errors: mergeErrors(
      PAYMENT_BODY_ERRORS,
      { 400: ['resource_missing', 'no_connector_available', 'payment_method_unusable'], 409: ['payment_unexpected_state'] },
      CONCURRENT_WRITE,
      MONEY_CALL,
      ROUTING_CIRCUITS,
    ),
  },
  ListPayments: {
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments',
    description:
      "The merchant's payments, newest first, optionally of one `status` or one `customer_id` (not both: 400 `parameter_invalid`) and in a `created` range. A DynamoDB Query on an index, never a scan; no total count.",
    query: listPaymentsQuerySchema,
    queryDocs: {
      ...LIST_QUERY_DOCS,
      status: { description: 'Only payments in this status.' },
      customer_id: { description: 'Only the payments linked to this customer (`cus_…`).' },
    },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(PaymentListResource, 'One page of payments.', {
        walkthrough: {
          summary: '`?limit=5&status=Succeeded` (README step 5)',
          value: { data: [EXAMPLE_SUCCEEDED_PAYMENT], has_more: false },
        },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
  },
  GetPayment: {
    operationId: 'getPayment',
    tag: 'Payments',
    summary: 'Retrieve a payment',
    description:
      'The payment. `?force_sync=true` first asks the connector for the state of a `Processing` or `RequiresAction` payment, or of its unsettled `pending_operation`, and applies it (what the reconciler does in the background); terminal statuses never change by a sync.',
    pathParams: PAYMENT_ID,
    query: forceSyncQuerySchema,
    queryDocs: FORCE_SYNC,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(PaymentResource, 'The payment.', {
        succeeded: { summary: 'A confirmed card payment (README step 3): card summary only', value: EXAMPLE_SUCCEEDED_PAYMENT },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, QUERY, NOT_FOUND, CONCURRENT_WRITE, SYNC_CALL),
  },
  ConfirmPayment: {
    operationId: 'confirmPayment',
    tag: 'Payments',
    summary: 'Confirm a payment',
    description:
      'Runs a `RequiresConfirmation` payment through its connector (routing may fall back to the next one when the first provably does not hold it). A decline is a 200 with `status: Failed` and `error_code`; a processor timeout is a 200 `Processing` with `pending_operation`, settled by the reconciler.',
    pathParams: PAYMENT_ID,
    body: jsonBody(
      confirmPaymentBodySchema,
      false,
      'All optional: the method defaults to the one given at create; `return_url` replaces it.',
      {
        ...PAYMENT_METHOD_FIELD,
        ...methodDataFields(''),
        ...RETURN_URL_FIELD,
        ...SAVED_METHOD_FIELDS,
        merchant_connector_id:
          'Pins the confirm to one of your connector accounts (`mca_…`), overriding the account chosen at create and routing: that account only, no fallback. Unknown → 400 `resource_missing`; unable to take the payment → 400 `no_connector_available` with `param: merchant_connector_id`.',
      },
    ),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(PaymentResource, 'The updated payment.', {
          succeeded: {
            summary: 'Confirmed with a sandbox card: Succeeded, card summary only (README step 3)',
            value: EXAMPLE_SUCCEEDED_PAYMENT,
          },
          three_d_secure: {
            summary: 'A 3-D Secure card: the payer must visit redirect_to_url (README step 6)',
            value: EXAMPLE_REQUIRES_ACTION_PAYMENT,
          },
          own_account: {
            summary: 'Routed to one of your connector accounts: `merchant_connector_id` beside `connector`',
            value: EXAMPLE_OWN_ACCOUNT_PAYMENT,
          },
        }),
      ),
    },
    errors: mergeErrors(
      PAYMENT_BODY_ERRORS,
      { 400: ['resource_missing', 'no_connector_available', 'payment_method_unusable', 'customer_required'] },
      NOT_FOUND,
      PAYMENT_STATE,
      CONCURRENT_WRITE,
      MONEY_CALL,
      ROUTING_CIRCUITS,
    ),
  },
  AuthenticatePayment: {
    operationId: 'authenticatePayment',
    tag: 'Payments',
    summary: "Answer a payment's authentication step",
    description:
      "Relays the payer's answer to the step in `next_action` (`submit_pin`, `submit_otp`, `submit_phone`, `submit_birthday`, `submit_address`) to the processor: exactly one of `pin`, `otp`, `phone`, `birthday`, `address`, and the same card again only when `next_action.card_required` is true. The payment may ask for the next step. **No `Idempotency-Key`** is honoured here: a PIN or OTP never rests in an idempotency record, and a step is only accepted while the payment asks for it. Values are never stored, logged or echoed.",
    pathParams: PAYMENT_ID,
    body: jsonBody(authenticatePaymentBodySchema, true, 'Exactly one answer to the step.', {
      pin: 'The 4-digit card PIN (`submit_pin`).',
      otp: 'The one-time code, 4 to 12 letters or digits (`submit_otp`; also a mobile-money voucher).',
      phone: 'The phone number, digits with an optional `+` (`submit_phone`).',
      birthday: 'A past date, `YYYY-MM-DD` (`submit_birthday`).',
      address: 'The address the processor asks for (`submit_address`).',
      'address.line1': 'Street address, 1 to 200 characters.',
      'address.city': '1 to 100 characters.',
      'address.state': '1 to 100 characters.',
      'address.zip': '1 to 20 characters.',
      'address.country': 'ISO 3166-1 alpha-2, upper case (`NG`).',
      payment_method_data: 'Only when `next_action.card_required` is true: the same card again.',
      ...Object.fromEntries(Object.entries(CARD_FIELDS).map(([k, v]) => [`payment_method_data.${k}`, v])),
    }),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(PaymentResource, 'The updated payment (next step, `Succeeded`, `RequiresCapture` or `Failed`).') },
    errors: mergeErrors(
      JSON_ROUTE,
      AUTHENTICATED,
      JSON_BODY,
      CARD_BODY,
      { 402: ['authentication_failed'] },
      NOT_FOUND,
      PAYMENT_STATE,
      CONCURRENT_WRITE,
      { 502: ['connector_unavailable'], 503: ['connector_unreachable', 'outcome_unknown'] },
    ),
  },
  CancelPayment: {
    operationId: 'cancelPayment',
    tag: 'Payments',
    summary: 'Cancel a payment',
    description:
      'From `RequiresConfirmation`, `RequiresAction`, `Processing` or `RequiresCapture` → `Cancelled`; a held authorization is voided at the connector first. A payment whose authorization outcome is unknown is reconciled first.',
    pathParams: PAYMENT_ID,
    body: jsonBody(cancelPaymentBodySchema, false, 'Optional `cancellation_reason`, echoed.', {
      cancellation_reason: 'Why, at most 500 characters; echoed in the payment.',
    }),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: replayed(json(PaymentResource, 'The cancelled payment.')) },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, NOT_FOUND, PAYMENT_STATE, CONCURRENT_WRITE, MONEY_CALL),
  },
  CapturePayment: {
    operationId: 'capturePayment',
    tag: 'Payments',
    summary: 'Capture a payment',
    description: 'Captures a manual-capture payment: `RequiresCapture` → `Succeeded`, `amount_captured` set.',
    pathParams: PAYMENT_ID,
    body: jsonBody(capturePaymentBodySchema, false, 'Optional `amount_to_capture` (minor units, at most the amount; default the amount).', {
      amount_to_capture: 'Minor units to capture, at most the amount (default: the amount); above it → 400 `amount_too_large`.',
    }),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: replayed(json(PaymentResource, 'The captured payment.')) },
    errors: mergeErrors(
      JSON_ROUTE,
      AUTHENTICATED,
      JSON_BODY,
      { 400: ['amount_too_large'] },
      IDEMPOTENT,
      NOT_FOUND,
      PAYMENT_STATE,
      CONCURRENT_WRITE,
      MONEY_CALL,
    ),
  },
  RefundPayment: {
    operationId: 'refundPayment',
    tag: 'Refunds',
    summary: 'Refund a payment',
    description:
      'Refunds all or part of a `Succeeded` payment (it stays `Succeeded`; its `amount_refunded` grows). The amount is reserved in the same transaction that writes the refund, so refunds never exceed what was captured. A processor timeout leaves the refund `Pending` with its `pending_operation`.',
    pathParams: PAYMENT_ID,
    body: jsonBody(
      refundPaymentBodySchema,
      false,
      'Optional `amount` (minor units; default all that is left) and `reason`.',
      {
        amount: 'Minor units to refund (default: all that is left); above what is left → 400 `refund_exceeds_amount`.',
        reason: 'Why, at most 500 characters; echoed in the refund.',
      },
      {
        walkthrough: { summary: 'Refund NGN 500.00 (README step 4)', value: EXAMPLE_REFUND_REQUEST },
      },
    ),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(RefundResource, 'The refund (`Succeeded`, `Pending` or `Failed`).', {
          walkthrough: { summary: 'NGN 500.00 refunded (README step 4)', value: EXAMPLE_REFUND },
        }),
      ),
    },
    errors: mergeErrors(
      JSON_ROUTE,
      AUTHENTICATED,
      JSON_BODY,
      { 400: ['refund_exceeds_amount'] },
      IDEMPOTENT,
      NOT_FOUND,
      PAYMENT_STATE,
      CONCURRENT_WRITE,
      MONEY_CALL,
    ),
  },
  ListPaymentRefunds: {
    operationId: 'listPaymentRefunds',
    tag: 'Refunds',
    summary: "List a payment's refunds",
    description: 'The refunds of one payment, newest first.',
    pathParams: PAYMENT_ID,
    query: plainListQuerySchema,
    queryDocs: LIST_QUERY_DOCS,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(RefundListResource, 'One page of refunds.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST, NOT_FOUND),
  },
  ListRefunds: {
    operationId: 'listRefunds',
    tag: 'Refunds',
    summary: 'List refunds',
    description:
      "Every refund of the merchant, newest first (Stripe's `GET /v1/refunds`), or one payment's with `payment_id`. A DynamoDB Query on an index, never a scan. Refunds made before this list existed appear only under their payment.",
    query: listRefundsQuerySchema,
    queryDocs: {
      ...LIST_QUERY_DOCS,
      payment_id: { description: "Only this payment's refunds (as `GET /payments/{payment_id}/refunds`)." },
    },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(RefundListResource, 'One page of refunds.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST, NOT_FOUND),
  },
  GetRefund: {
    operationId: 'getRefund',
    tag: 'Refunds',
    summary: 'Retrieve a refund',
    description:
      'One refund. `?force_sync=true` first asks the connector about a `Pending` refund: `Succeeded` is recorded; `Failed`, or no such refund at the processor, gives its amount back to the payment.',
    pathParams: REFUND_ID,
    query: forceSyncQuerySchema,
    queryDocs: FORCE_SYNC,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(RefundResource, 'The refund.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, QUERY, NOT_FOUND, CONCURRENT_WRITE, SYNC_CALL),
  },
  CreateCustomer: {
    operationId: 'createCustomer',
    tag: 'Customers',
    summary: 'Create a customer',
    description: 'Every field optional. No field may hold a card number.',
    body: jsonBody(createCustomerBodySchema, false, "The customer's fields (all optional).", CREATE_CUSTOMER_FIELDS, {
      walkthrough: { summary: 'Ada Obi (README step 1)', value: EXAMPLE_CREATE_CUSTOMER_REQUEST },
    }),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(CustomerResource, 'The customer.', { walkthrough: { summary: 'Ada Obi (README step 1)', value: EXAMPLE_CUSTOMER } }),
      ),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, CONCURRENT_WRITE),
  },
  ListCustomers: {
    operationId: 'listCustomers',
    tag: 'Customers',
    summary: 'List customers',
    description: "The merchant's customers, newest first; `email` finds one by exact address (case-insensitive).",
    query: listCustomersQuerySchema,
    queryDocs: { ...LIST_QUERY_DOCS, email: { description: 'Only customers with this e-mail address (exact match, case-insensitive).' } },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(CustomerListResource, 'One page of customers.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
  },
  GetCustomer: {
    operationId: 'getCustomer',
    tag: 'Customers',
    summary: 'Retrieve a customer',
    description: 'The customer; 404 once deleted.',
    pathParams: CUSTOMER_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(CustomerResource, 'The customer.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  UpdateCustomer: {
    operationId: 'updateCustomer',
    tag: 'Customers',
    summary: 'Update a customer',
    description:
      'Sets the fields given (`metadata` replaces the whole map). Fields cannot be cleared (`null` is refused); an empty body changes only `updated_at`.',
    pathParams: CUSTOMER_ID,
    body: jsonBody(customerBodySchema, false, 'The fields to set.', CUSTOMER_FIELDS),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(CustomerResource, 'The updated customer.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, CONCURRENT_WRITE),
  },
  DeleteCustomer: {
    operationId: 'deleteCustomer',
    tag: 'Customers',
    summary: 'Delete a customer',
    description:
      'Deletes the customer: afterwards it answers 404 and new payments cannot name it; its payments stay and answer `customer_id: null`; its saved payment methods are detached (at their processors where they have such a call, as `DELETE /payment_methods/{payment_method_id}` does; `payment_method.detached` each). A delete interrupted before that work finished (a fault, its 10 s budget, a processor that could not detach a method) is resumed by a retried DELETE (same answer) or by the reconciler.',
    pathParams: CUSTOMER_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(DeletedCustomerResource, '`{customer_id, deleted: true}`.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND, CONCURRENT_WRITE),
  },
  ListCustomerPaymentMethods: {
    operationId: 'listCustomerPaymentMethods',
    tag: 'Payment methods',
    summary: "List a customer's payment methods",
    description:
      "The customer's attached payment methods, newest first (detached ones are not listed). A DynamoDB Query on an index, never a scan; no total count. 404 for a customer that is not yours or was deleted.",
    pathParams: CUSTOMER_ID,
    query: listPaymentMethodsQuerySchema,
    queryDocs: LIST_QUERY_DOCS,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(PaymentMethodListResource, 'One page of payment methods.', {
        saved_card: { summary: 'A card saved by an off-session payment', value: { data: [EXAMPLE_PAYMENT_METHOD], has_more: false } },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST, NOT_FOUND),
  },
  GetPaymentMethod: {
    operationId: 'getPaymentMethod',
    tag: 'Payment methods',
    summary: 'Retrieve a payment method',
    description: "The saved payment method, attached (`status: active`) or detached; never its processor's token.",
    pathParams: PAYMENT_METHOD_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(PaymentMethodResource, 'The payment method.', { saved_card: { summary: 'A saved card', value: EXAMPLE_PAYMENT_METHOD } }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  DeletePaymentMethod: {
    operationId: 'deletePaymentMethod',
    tag: 'Payment methods',
    summary: 'Detach a payment method',
    description:
      "Detaches the method: first at its processor, through the connector account that issued it (Paystack `POST /customer/deactivate_authorization`, Stripe `POST /v1/payment_methods/{id}/detach`; Flutterwave has no such call: the token is forgotten here only), then here: `status: detached`, out of the customer's list, its token destroyed, `payment_method.detached` emitted. It can no longer be charged. A processor answering that it is already detached (or unknown) there does not stop the detach here. A processor that cannot be reached → 503 `connector_unreachable` and the method is still attached: retry. Already detached → 409 `payment_method_unexpected_state`. Like the other DELETEs, no `Idempotency-Key` is stored for replay: a retry after a lost answer gets the 409, and `GET` shows `status: detached`.",
    pathParams: PAYMENT_METHOD_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(PaymentMethodResource, 'The payment method, `status: detached`.', {
        detached: { summary: 'The saved card, detached', value: EXAMPLE_DETACHED_PAYMENT_METHOD },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND, { 409: ['payment_method_unexpected_state'] }, CONCURRENT_WRITE, {
      502: ['connector_unavailable'],
      503: ['connector_unreachable'],
    }),
  },
  CreateSubscription: {
    operationId: 'createSubscription',
    tag: 'Subscriptions',
    summary: 'Create a subscription',
    description:
      "Checks the customer and that the saved method is its own, active and saved for off-session use. With `trial_period_days`: `trialing`, the trial is the first period, nothing is charged, and its invoice is a paid one of 0. Without: the first period's invoice is created (`open`) and charged at once, off-session, by a payment like `POST /payments` with `payment_method_id`, `off_session: true`, `confirm: true` and `metadata: {subscription_id, invoice_id}`: Succeeded → invoice `paid`, subscription `active`; Failed → invoice `open` with one attempt, subscription `incomplete` (not retried: the first charge needs a working method); RequiresAction or Processing → both stay so until the payment settles (3-D Secure completed, a sync, a webhook or the reconciler). Renewals follow at each period's end (the renewal worker). A retry with the same `Idempotency-Key` answers the same subscription and never charges twice (the payment's own key is derived from the invoice).",
    body: jsonBody(createSubscriptionBodySchema, true, 'The customer, its saved method, the price and the period.', SUBSCRIPTION_FIELDS, {
      monthly: { summary: 'Monthly, on a saved card', value: EXAMPLE_CREATE_SUBSCRIPTION_REQUEST },
    }),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(SubscriptionResource, 'The subscription.', { active: { summary: 'First invoice paid', value: EXAMPLE_SUBSCRIPTION } }),
      ),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, CONCURRENT_WRITE, MONEY_CALL, {
      400: ['resource_missing', 'payment_method_unusable'],
    }),
  },
  ListSubscriptions: {
    operationId: 'listSubscriptions',
    tag: 'Subscriptions',
    summary: 'List subscriptions',
    description:
      "The merchant's subscriptions, newest first; `customer_id` or `status` narrows them (one of the two: both → 400 `parameter_invalid`). A DynamoDB Query on an index, never a scan.",
    query: listSubscriptionsQuerySchema,
    queryDocs: {
      ...LIST_QUERY_DOCS,
      customer_id: { description: "Only this customer's subscriptions." },
      status: { description: 'Only subscriptions in this status.' },
    },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(SubscriptionListResource, 'One page of subscriptions.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
  },
  GetSubscription: {
    operationId: 'getSubscription',
    tag: 'Subscriptions',
    summary: 'Retrieve a subscription',
    description: 'The subscription.',
    pathParams: SUBSCRIPTION_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(SubscriptionResource, 'The subscription.', { active: { summary: 'Active', value: EXAMPLE_SUBSCRIPTION } }) },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  UpdateSubscription: {
    operationId: 'updateSubscription',
    tag: 'Subscriptions',
    summary: 'Update a subscription',
    description:
      'Sets `payment_method_id` (checked as at create), `cancel_at_period_end` and/or `metadata`; `subscription.updated`. A new method on a `past_due` or `unpaid` subscription has its open invoice tried again at once (the renewal worker, or its test clock’s next advance). `cancel_at_period_end: true` cancels it when its period ends instead of renewing. A canceled subscription → 409 `subscription_unexpected_state`.',
    pathParams: SUBSCRIPTION_ID,
    body: jsonBody(updateSubscriptionBodySchema, false, 'The fields to set.', UPDATE_SUBSCRIPTION_FIELDS),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(SubscriptionResource, 'The updated subscription.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, CONCURRENT_WRITE, {
      400: ['resource_missing', 'payment_method_unusable'],
      409: ['subscription_unexpected_state'],
    }),
  },
  CancelSubscription: {
    operationId: 'cancelSubscription',
    tag: 'Subscriptions',
    summary: 'Cancel a subscription',
    description:
      'Cancels it now: `status: canceled`, `canceled_at`, `cancellation_details.reason: cancellation_requested`; `subscription.canceled`. It bills no more: its open invoice, if any, is voided. Already canceled → 409 `subscription_unexpected_state`.',
    pathParams: SUBSCRIPTION_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(SubscriptionResource, 'The canceled subscription.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND, CONCURRENT_WRITE, { 409: ['subscription_unexpected_state'] }),
  },
  ListInvoices: {
    operationId: 'listInvoices',
    tag: 'Subscriptions',
    summary: "List a subscription's invoices",
    description: 'The invoices of one subscription (`subscription_id`, required), newest first: one per period.',
    query: listInvoicesQuerySchema,
    queryDocs: { ...LIST_QUERY_DOCS, subscription_id: { description: 'The subscription (`sub_…`).' } },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(InvoiceListResource, 'One page of invoices.', {
        paid: { summary: 'The first invoice, paid', value: { data: [EXAMPLE_INVOICE], has_more: false } },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST, { 400: ['parameter_missing'] }),
  },
  GetInvoice: {
    operationId: 'getInvoice',
    tag: 'Subscriptions',
    summary: 'Retrieve an invoice',
    description: 'The invoice, with the payments attempted for it.',
    pathParams: INVOICE_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(InvoiceResource, 'The invoice.', { paid: { summary: 'Paid', value: EXAMPLE_INVOICE } }) },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  ListDisputes: {
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
  GetDispute: {
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
  AcceptDispute: {
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
  SubmitDisputeEvidence: {
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
  CreateFile: {
    operationId: 'createFile',
    tag: 'Disputes',
    summary: 'Upload a file',
    description:
      'Uploads a dispute evidence file (Stripe’s `POST /v1/files`): `multipart/form-data` with `purpose` (`dispute_evidence`) and `file`, a PDF, PNG or JPEG of at most 4 MiB (Lambda’s 6 MB payload, base64-encoded). The type is read from the content, not the name. Answers the metadata; the bytes are kept private (never served back) and are passed to the processor only when a dispute is answered with the file’s id. Kept 400 days.',
    body: {
      schema: createFileBodySchema,
      required: true,
      mediaType: 'multipart/form-data',
      description: 'The purpose and the file.',
      fields: {
        purpose: 'What the file is for: `dispute_evidence`.',
        file: 'The file: a PDF, PNG or JPEG, at most 4 MiB.',
      },
    },
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: replayed(json(FileResource, 'The file.')) },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, IDEMPOTENT, {
      400: ['parameter_missing', 'parameter_invalid', 'file_too_large', 'file_empty', 'file_type_unsupported', 'invalid_multipart'],
      415: ['unsupported_media_type'],
    }),
  },
  GetFile: {
    operationId: 'getFile',
    tag: 'Disputes',
    summary: 'Retrieve a file',
    description: 'A file’s metadata. The bytes are never served.',
    pathParams: { file_id: 'The file id (`file_…`).' },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(FileResource, 'The file.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  CreateTestClock: {
    operationId: 'createTestClock',
    tag: 'Test clocks',
    summary: 'Create a test clock',
    description:
      'Stages with the sandbox only (absent on prod: 404). A clock at `frozen_time` (from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z); customers created with `test_clock` live on it.',
    body: jsonBody(createTestClockBodySchema, true, 'Where the clock starts.', TEST_CLOCK_FIELDS, {
      clock: { summary: 'Start of a year', value: EXAMPLE_CREATE_TEST_CLOCK_REQUEST },
    }),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: replayed(json(TestClockResource, 'The test clock.', { ready: { summary: 'Ready', value: EXAMPLE_TEST_CLOCK } })) },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, { 400: ['test_clock_time_invalid'] }),
  },
  GetTestClock: {
    operationId: 'getTestClock',
    tag: 'Test clocks',
    summary: 'Retrieve a test clock',
    description: 'Stages with the sandbox only. The clock, its time and whether its last advance finished.',
    pathParams: TEST_CLOCK_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(TestClockResource, 'The test clock.', { ready: { summary: 'Ready', value: EXAMPLE_TEST_CLOCK } }) },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  AdvanceTestClock: {
    operationId: 'advanceTestClock',
    tag: 'Test clocks',
    summary: 'Advance a test clock',
    description:
      "Stages with the sandbox only. Moves the clock to `frozen_time` (later than its own, by at most 2 years), running on the way, in due order and each at its own time, every renewal, dunning retry and payment method expiry notice of its customers that falls due: invoices, off-session charges and events as they would have happened. Answers `ready` when all ran; `advancing` with `frozen_time` where it stopped when the advance reached its bound (400 pieces of work, or the request's time): advance again to go on. One advance at a time: the clock is claimed before any billing, and an advance while another runs answers 409 `test_clock_advancing` having changed nothing. `frozen_time` is at most 9999-12-31T23:59:59Z, where billing time ends.",
    pathParams: TEST_CLOCK_ID,
    body: jsonBody(advanceTestClockBodySchema, true, 'The time to advance to.', ADVANCE_TEST_CLOCK_FIELDS, {
      month: { summary: 'One month on', value: { frozen_time: '2026-02-01T00:00:00.000Z' } },
    }),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(TestClockResource, 'The test clock after the advance.', { ready: { summary: 'Ready', value: EXAMPLE_TEST_CLOCK } }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, CONCURRENT_WRITE, {
      400: ['test_clock_time_invalid'],
      409: ['test_clock_advancing'],
    }),
  },
  CreateWebhookEndpoint: {
    operationId: 'createWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'Create a webhook endpoint',
    description:
      "Registers where your events are sent. The answer holds the signing `secret`, shown only here and in `rotate_secret`'s answer (a retry with the same `Idempotency-Key` replays it for 24 h). Deployed stages accept only `https://` URLs to public addresses.",
    body: jsonBody(
      createWebhookEndpointSchema,
      true,
      '`url` required; `enabled_events` (default `["*"]`) and `description` optional.',
      ENDPOINT_FIELDS,
    ),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: replayed(json(WebhookEndpointWithSecretResource, 'The endpoint, `enabled`, with its `secret`.')) },
    errors: mergeErrors(
      JSON_ROUTE,
      AUTHENTICATED,
      JSON_BODY,
      { 400: ['url_not_allowed', 'webhook_endpoint_limit'] },
      IDEMPOTENT,
      CONCURRENT_WRITE,
    ),
  },
  ListWebhookEndpoints: {
    operationId: 'listWebhookEndpoints',
    tag: 'Webhook endpoints',
    summary: 'List webhook endpoints',
    description: "The merchant's endpoints, newest first; never any secret.",
    query: plainListQuerySchema,
    queryDocs: LIST_QUERY_DOCS,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(WebhookEndpointListResource, 'One page of endpoints.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
  },
  GetWebhookEndpoint: {
    operationId: 'getWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'Retrieve a webhook endpoint',
    description: 'The endpoint, without its secret.',
    pathParams: ENDPOINT_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(WebhookEndpointResource, 'The endpoint.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  UpdateWebhookEndpoint: {
    operationId: 'updateWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'Update a webhook endpoint',
    description:
      'Sets the fields given (`url`, `enabled_events`, `description`, `status`); setting `status` clears `disabled_reason`. The secret is unchanged.',
    pathParams: ENDPOINT_ID,
    body: jsonBody(updateWebhookEndpointSchema, false, 'The fields to set (all optional, `null` refused).', {
      ...ENDPOINT_FIELDS,
      status: '`enabled` or `disabled`; clears `disabled_reason`.',
    }),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(WebhookEndpointResource, 'The updated endpoint.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['url_not_allowed'] }, NOT_FOUND, CONCURRENT_WRITE),
  },
  DeleteWebhookEndpoint: {
    operationId: 'deleteWebhookEndpoint',
    tag: 'Webhook endpoints',
    summary: 'Delete a webhook endpoint',
    description: 'It receives nothing afterwards, and every route of it answers 404.',
    pathParams: ENDPOINT_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(DeletedWebhookEndpointResource, '`{webhook_endpoint_id, deleted: true}`.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND, CONCURRENT_WRITE),
  },
  RotateWebhookEndpointSecret: {
    operationId: 'rotateWebhookEndpointSecret',
    tag: 'Webhook endpoints',
    summary: "Rotate a webhook endpoint's secret",
    description:
      'Gives the endpoint a new `secret`. The previous one keeps signing beside it for 24 hours (deliveries then carry two `v1,` signatures); rotating again within them drops the older at once.',
    pathParams: ENDPOINT_ID,
    body: jsonBody(rotateSecretSchema, false, 'No fields: send nothing or `{}`.', {}),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: replayed(json(WebhookEndpointWithSecretResource, 'The endpoint with its new `secret`.')) },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, NOT_FOUND, CONCURRENT_WRITE),
  },
  ListEvents: {
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List events',
    description: "The merchant's events of the last 30 days, newest first, optionally of one `type`.",
    query: listEventsQuerySchema,
    queryDocs: { ...LIST_QUERY_DOCS, type: { description: 'Only events of this type.' } },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(EventListResource, 'One page of events.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
  },
  GetEvent: {
    operationId: 'getEvent',
    tag: 'Events',
    summary: 'Retrieve an event',
    description: "One event; 404 when unknown, another merchant's, or older than 30 days.",
    pathParams: EVENT_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(EventResource, 'The event, exactly as webhooks deliver it.', {
        payment_succeeded: { summary: 'payment.succeeded', value: EXAMPLE_PAYMENT_SUCCEEDED_EVENT },
        customer_deleted: {
          summary: 'customer.deleted',
          value: {
            event_id: 'evt_019ab6a2c3d4000004d6f8b0c2e4a6b8',
            type: 'customer.deleted',
            created_at: '2026-11-24T12:00:00.000Z',
            data: { customer_id: EXAMPLE_CUSTOMER_ID, deleted: true },
          },
        },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  ListEventDeliveries: {
    operationId: 'listEventDeliveries',
    tag: 'Events',
    summary: "List an event's deliveries",
    description: 'One delivery per endpoint the event was sent to, each with every attempt (`has_more` is always false).',
    pathParams: EVENT_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(WebhookDeliveryListResource, 'The deliveries.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  RedeliverEvent: {
    operationId: 'redeliverEvent',
    tag: 'Events',
    summary: 'Redeliver an event',
    description:
      "To the given endpoint (it must be enabled): makes one attempt now and answers the delivery after it. Without one: re-arms the delivery of every enabled endpoint subscribed to the event's type and hands them to the delivery queue, whose worker sends them within seconds; the answer shows them `pending`, due now. A failed attempt is retried on the schedule.",
    pathParams: EVENT_ID,
    body: jsonBody(redeliverEventBodySchema, false, 'Optionally one endpoint.', {
      webhook_endpoint_id:
        'Only this endpoint (`we_…`; it must be enabled, it need not subscribe to the type). Absent: every enabled endpoint subscribed to the type.',
    }),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(WebhookDeliveryListResource, 'The deliveries concerned: after the attempt (one endpoint), or as handed to the queue (all).'),
      ),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['endpoint_disabled'] }, IDEMPOTENT, NOT_FOUND, CONCURRENT_WRITE),
  },
  GetHealth: {
    operationId: 'getHealth',
    tag: 'Health',
    summary: 'Check health',
    description: 'Whether the DynamoDB table answers. Needs no api-key.',
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(HealthResource, 'The table answers: `{"status": "ok", "dynamodb": "ok", "time"}`.'),
      503: json(HealthResource, 'The table does not answer: `{"status": "unavailable", "dynamodb": "unreachable", "time"}`.'),
    },
    errors: JSON_ROUTE,
  },
  ReceiveWebhook: {
    operationId: 'receiveWebhook',
    tag: 'Processor webhooks',
    summary: "Receive a processor's webhook",
    description:
      "The processors' inbound route (no api-key: the connector's own signature authenticates it, verified over the raw body before it is parsed). Applied once: a redelivered event changes nothing, a terminal payment never changes. 409 `payment_busy` asks the processor to deliver again. Not for merchants.",
    pathParams: { connector: 'The connector that sends the event: `sandbox`, `paystack`, `flutterwave` or `stripe`.' },
    body: {
      schema: z.record(z.string(), z.unknown()).describe("The processor's event, as it sends it."),
      required: true,
      mediaType: 'application/json',
      description: "The processor's event JSON, signed by the processor.",
    },
    requestHeaders: PROCESSOR_SIGNATURE_HEADERS,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(WebhookReceiptResource, 'The event was verified and taken (applied or not).') },
    errors: PROCESSOR_WEBHOOK_ERRORS,
  },
  AuthenticationPage: {
    operationId: 'authenticationPage',
    tag: 'Payer pages',
    summary: 'Authentication step page',
    description:
      "Switchyard's hosted page for the payment's PIN, OTP, phone, birthday or address step (`next_action.redirect_to_url`), so a merchant's server never touches a PIN. A payment no longer asking for a step shows its result.",
    pathParams: PAYMENT_ID,
    idempotent: false,
    apiHandler: false,
    errorFormat: 'html',
    responses: { 200: { description: 'The step form, or the result page.', content: { kind: 'html' } } },
    errors: { 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'] },
  },
  SubmitAuthenticationPage: {
    operationId: 'submitAuthenticationPage',
    tag: 'Payer pages',
    summary: 'Submit the authentication step form',
    description:
      'The form of the step page, relayed exactly as `POST /payments/{payment_id}/authenticate`. Another step shows its form; 3-D Secure sends the payer there (303); otherwise the payer goes (303) to the return route.',
    pathParams: PAYMENT_ID,
    body: {
      schema: z
        .strictObject({
          pin: formField(/\d{4}/),
          otp: formField(/[0-9A-Za-z]{4,12}/),
          phone: formField(/\+?\d{7,15}/),
          birthday: formField(/\d{4}-\d{2}-\d{2}/),
          address_line1: z.string().max(200).optional(),
          address_city: z.string().max(100).optional(),
          address_state: z.string().max(100).optional(),
          address_zip: z.string().max(20).optional(),
          address_country: formField(/[A-Z]{2}/),
          card_number: z
            .string()
            .regex(/^[\d\s]*$/)
            .optional(),
          card_exp_month: formField(/0?[1-9]|1[0-2]/),
          card_exp_year: formField(/\d{2}|\d{4}/),
          card_cvc: formField(/\d{3,4}/),
        })
        // Empty fields count as absent (the page's inputs are one form): some answer must be filled in,
        // i.e. not every answer field absent or blank.
        .meta({
          not: {
            properties: Object.fromEntries(
              ['pin', 'otp', 'phone', 'birthday', 'address_line1'].map((field) => [field, { pattern: '^\\s*$' }]),
            ),
          },
          // Issue 26: the address is one answer: its five fields come together (JSON Schema `dependentRequired`).
          dependentRequired: Object.fromEntries(
            ADDRESS_FORM_FIELDS.map((field) => [field, ADDRESS_FORM_FIELDS.filter((other) => other !== field)]),
          ),
        })
        .describe('The step form: the one answer the step asks for, and the card fields only when the step needs the card again.'),
      required: true,
      mediaType: 'application/x-www-form-urlencoded',
      description: 'The step form (UTF-8), each field at most once.',
      fields: {
        pin: 'The 4-digit card PIN.',
        otp: 'The one-time code (or mobile-money voucher).',
        phone: 'The phone number.',
        birthday: 'The date of birth, `YYYY-MM-DD`.',
        address_line1: 'Street address.',
        address_city: 'City.',
        address_state: 'State.',
        address_zip: 'Postal code.',
        address_country: 'ISO 3166-1 alpha-2 country code.',
        card_number: 'Only when the step needs the card again: the card number (used for this call only, never stored).',
        card_exp_month: 'Only with the card: expiry month.',
        card_exp_year: 'Only with the card: expiry year.',
        card_cvc: 'Only with the card: the CVC (never stored).',
      },
    },
    idempotent: false,
    apiHandler: false,
    errorFormat: 'html',
    responses: {
      200: { description: "The next step's form.", content: { kind: 'html' } },
      303: { description: 'To 3-D Secure, or to the return route.', content: { kind: 'html' }, headers: ['Location'] },
    },
    errors: {
      400: ['parameter_invalid', 'parameter_missing'],
      402: ['authentication_failed'],
      404: ['resource_missing'],
      409: ['payment_unexpected_state'],
      429: ['rate_limit_exceeded'],
      500: ['internal_error'],
      502: ['connector_unavailable'],
      503: ['service_unavailable', 'connector_unreachable', 'outcome_unknown'],
    },
  },
  PayerReturn: {
    operationId: 'payerReturn',
    tag: 'Payer pages',
    summary: 'Payer return route',
    description:
      "Where every processor sends the payer back. Syncs the payment with its processor (best effort), then redirects (303) to the payment's `return_url` with `payment_id` and `status` added to its query, sends a payer still asked for a step to its page, or shows a plain result page. Fulfil orders from `GET /payments/{payment_id}` or the `payment.succeeded` event, never from the query.",
    pathParams: PAYMENT_ID,
    idempotent: false,
    apiHandler: false,
    errorFormat: 'html',
    responses: {
      200: { description: 'The result page (the payment has no `return_url`).', content: { kind: 'html' } },
      303: { description: "To the merchant's `return_url`, or to the step page.", content: { kind: 'html' }, headers: ['Location'] },
    },
    errors: { 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'] },
  },
  SandboxHostedPage: {
    operationId: 'sandboxHostedPage',
    tag: 'Sandbox',
    summary: 'Sandbox hosted page',
    description:
      "The sandbox's hosted page a `redirect_to_url` points to: a 3-D Secure challenge (`3ds`) or a checkout page (`checkout`), with Approve and Decline.",
    pathParams: { kind: '`3ds` or `checkout`.', ...PAYMENT_ID },
    idempotent: false,
    apiHandler: false,
    errorFormat: 'html',
    responses: { 200: { description: 'The page.', content: { kind: 'html' } } },
    errors: { 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'] },
  },
  SandboxCompletePage: {
    operationId: 'sandboxCompletePage',
    tag: 'Sandbox',
    summary: 'Approve or decline on the sandbox page',
    description:
      "The payer's decision: the sandbox delivers its signed webhook to `POST /webhooks/sandbox`, then sends the payer (303) to the payment's return route.",
    pathParams: { kind: '`3ds` or `checkout`.', ...PAYMENT_ID },
    body: {
      schema: z.strictObject({ decision: z.enum(['approve', 'decline']).describe("The payer's decision.") }),
      required: true,
      mediaType: 'application/x-www-form-urlencoded',
      description: "The page's form.",
      fields: { decision: "The payer's decision: `approve` or `decline`." },
    },
    idempotent: false,
    apiHandler: false,
    errorFormat: 'html',
    responses: { 303: { description: 'To the return route.', content: { kind: 'html' }, headers: ['Location'] } },
    errors: {
      400: ['parameter_invalid'],
      404: ['resource_missing'],
      409: ['payment_unexpected_state'],
      429: ['rate_limit_exceeded'],
      500: ['internal_error'],
      503: ['service_unavailable'],
    },
  },
  OpenApiDocument: {
    operationId: 'getOpenApiDocument',
    tag: 'Reference',
    summary: 'This OpenAPI document',
    description:
      'The OpenAPI 3.1 document of the API (docs/openapi.json), byte for byte. Public; cacheable for 5 minutes, then revalidated by its `ETag`.',
    idempotent: false,
    apiHandler: false,
    errorFormat: 'json',
    responses: {
      200: {
        description: 'The document.',
        content: { kind: 'json', schema: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document.') },
        headers: ['ETag', 'Cache-Control'],
      },
      304: { description: '`If-None-Match` named the current `ETag`.', content: { kind: 'none' }, headers: ['ETag', 'Cache-Control'] },
    },
    errors: { 500: ['internal_error'] },
  },
  ApiReference: {
    operationId: 'getApiReference',
    tag: 'Reference',
    summary: 'API reference page',
    description: 'This document rendered by Redoc, with its script served by this API (no CDN). Public.',
    idempotent: false,
    apiHandler: false,
    errorFormat: 'html',
    responses: {
      200: { description: 'The reference page.', content: { kind: 'html' }, headers: ['Cache-Control'] },
      308: { description: 'Asked for as `/docs/`: to `/docs`.', content: { kind: 'html' }, headers: ['Location'] },
    },
    errors: { 500: ['internal_error'] },
  },
  ApiReferenceScript: {
    operationId: 'getApiReferenceScript',
    tag: 'Reference',
    summary: "API reference page's script",
    description:
      "Redoc's standalone bundle, served by this API so the reference page loads nothing from a CDN. Cached for a year (`immutable`).",
    idempotent: false,
    apiHandler: false,
    errorFormat: 'json',
    responses: {
      200: { description: 'The script.', content: { kind: 'javascript' }, headers: ['ETag', 'Cache-Control'] },
      304: { description: '`If-None-Match` named the current `ETag`.', content: { kind: 'none' }, headers: ['ETag', 'Cache-Control'] },
    },
    errors: { 500: ['internal_error'] },
  },
  ReceiveAccountWebhook: {
    operationId: 'receiveAccountWebhook',
    tag: 'Processor webhooks',
    summary: "Receive a processor's webhook for one of your connector accounts",
    description:
      "A connector account's own inbound route, its `webhook_url` (no api-key): verified with that account's secret only (Stripe: its `connector_webhook_details.merchant_secret`; Flutterwave: its secret hash; Paystack: its secret key), then applied once to that account's payment or refund, as `POST /webhooks/{connector}` applies the stage's. An event signed with another account's secret is 401 and changes nothing; an unknown (or deleted) account, or a `connector` that is not the account's, is 404. Point the processor's dashboard here. Not for merchants' code.",
    pathParams: {
      connector: "The account's connector: `paystack`, `flutterwave`, `stripe` or `sandbox`.",
      ...CONNECTOR_ACCOUNT_ID,
    },
    body: {
      schema: z.record(z.string(), z.unknown()).describe("The processor's event, as it sends it."),
      required: true,
      mediaType: 'application/json',
      description: "The processor's event JSON, signed with the account's secret.",
    },
    requestHeaders: PROCESSOR_SIGNATURE_HEADERS,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(WebhookReceiptResource, 'The event was verified and taken (applied or not).') },
    errors: PROCESSOR_WEBHOOK_ERRORS,
  },
  CreateConnectorAccount: {
    operationId: 'createConnectorAccount',
    tag: 'Connector accounts',
    summary: 'Connect a processor account',
    description:
      "Connects one of your processor accounts (Hyperswitch's merchant connector account). The credentials are checked before anything is stored: their shape, the stage's mode (test keys everywhere but prod, live keys on prod only), then one read-only authenticated call at the processor (Stripe `GET /v1/balance`, Paystack `GET /balance`, Flutterwave `GET /v3/balances`; the sandbox takes no credentials and is not offered on prod). Refused, or the processor unreachable: nothing is stored. Then they are encrypted (AWS Encryption SDK, bound to your merchant and the account) and never answered again but masked. At most 50 accounts per merchant. Emits `connector_account.created`; routing may send payments to it within `CONNECTOR_CONFIG_CACHE_MS` (5 s).",
    body: jsonBody(
      createConnectorAccountSchema,
      true,
      '`connector_name` required; `connector_account_details` required except for the sandbox; everything else optional.',
      {
        connector_name:
          'The processor: `paystack`, `flutterwave`, `stripe`, or `sandbox` (the built-in test processor: not on prod). Cannot change later.',
        ...CONNECTOR_ACCOUNT_FIELDS,
      },
      { paystack: { summary: 'A Paystack test account', value: EXAMPLE_CREATE_CONNECTOR_ACCOUNT_REQUEST } },
    ),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(ConnectorAccountResource, 'The account, credentials masked, with the `webhook_url` to give the processor.', {
          paystack: { summary: 'A Paystack test account connected', value: EXAMPLE_CONNECTOR_ACCOUNT },
        }),
      ),
    },
    errors: mergeErrors(
      JSON_ROUTE,
      AUTHENTICATED,
      JSON_BODY,
      CONNECTOR_CREDENTIALS,
      { 400: ['connector_account_limit'], 409: ['connector_label_taken'] },
      IDEMPOTENT,
      CONCURRENT_WRITE,
    ),
  },
  ListConnectorAccounts: {
    operationId: 'listConnectorAccounts',
    tag: 'Connector accounts',
    summary: 'List connector accounts',
    description:
      'Your connector accounts, newest first, credentials masked; deleted ones are not listed. One read of your (at most 50) accounts.',
    query: listConnectorAccountsQuerySchema,
    queryDocs: {
      ...LIST_QUERY_DOCS,
      connector_name: { description: 'Only accounts of this connector (`paystack`, `flutterwave`, `stripe`, `sandbox`).' },
      disabled: { description: '`true`: only disabled accounts; `false`: only enabled ones.' },
    },
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(ConnectorAccountListResource, 'One page of connector accounts.', {
        one: { summary: 'One Paystack account', value: { data: [EXAMPLE_CONNECTOR_ACCOUNT], has_more: false } },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
  },
  GetConnectorAccount: {
    operationId: 'getConnectorAccount',
    tag: 'Connector accounts',
    summary: 'Retrieve a connector account',
    description: "The account, credentials masked. Another merchant's account, or a deleted one, is 404.",
    pathParams: CONNECTOR_ACCOUNT_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(ConnectorAccountResource, 'The account.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  UpdateConnectorAccount: {
    operationId: 'updateConnectorAccount',
    tag: 'Connector accounts',
    summary: 'Update a connector account',
    description:
      'Sets the fields given (`connector_name` cannot change). New credentials are verified at the processor like a new account\'s before anything is stored (pieces not sent are kept) and re-encrypted. `disabled: true` stops new payments at once in this container and within `CONNECTOR_CONFIG_CACHE_MS` (5 s) everywhere, and emits `connector_account.disabled`; any other change emits `connector_account.updated`. A new `api_key` is refused with 409 `connector_account_in_use` while the account holds open operations and its current key still works (docs/api.md "Changing the key"); any update while a delete of the account runs is 409 `connector_account_changed`.',
    pathParams: CONNECTOR_ACCOUNT_ID,
    body: jsonBody(updateConnectorAccountSchema, false, 'The fields to set (all optional, `null` refused).', CONNECTOR_ACCOUNT_FIELDS),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(ConnectorAccountResource, 'The updated account.') },
    errors: mergeErrors(
      JSON_ROUTE,
      AUTHENTICATED,
      JSON_BODY,
      CONNECTOR_CREDENTIALS,
      NOT_FOUND,
      { 409: ['connector_label_taken', 'connector_account_changed', 'connector_account_in_use'] },
      CONCURRENT_WRITE,
    ),
  },
  DeleteConnectorAccount: {
    operationId: 'deleteConnectorAccount',
    tag: 'Connector accounts',
    summary: 'Delete a connector account',
    description:
      'Refused (409 `connector_account_in_use`) while the active routing algorithm names the account, or while it holds open operations (payments processing, awaiting the payer or capture, a processor call unsettled, refunds pending): settle them, or disable it meanwhile. Otherwise the account is disabled, its credentials destroyed, and it answers 404 from then on; emits `connector_account.disabled`. The account is first marked (routing passes it over), then the delete waits out the configuration cache (`CONNECTOR_CONFIG_CACHE_MS`, 5 s) plus 1 s before it checks, so the answer takes about 6 s.',
    pathParams: CONNECTOR_ACCOUNT_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(DeletedConnectorAccountResource, '`{merchant_connector_id, deleted: true}`.') },
    errors: mergeErrors(
      JSON_ROUTE,
      AUTHENTICATED,
      NOT_FOUND,
      { 409: ['connector_account_in_use', 'connector_account_changed'] },
      CONCURRENT_WRITE,
    ),
  },
  CreateRoutingAlgorithm: {
    operationId: 'createRoutingAlgorithm',
    tag: 'Routing',
    summary: 'Create a routing algorithm',
    description:
      "Stores a routing algorithm (Hyperswitch's routing API, snake_case): `single`, `priority`, `volume_split` or `advanced`. It routes nothing until activated. Checked when written: every account it names is one of yours (disabled ones allowed), and can take at least one payment the rule can send it; a rule naming a currency or method none of its accounts takes is refused. Errors name the rule and the field (`param`, e.g. `algorithm.data.rules.0.connector_selection.data.1.merchant_connector_id`). At most 100 algorithms per merchant; algorithms cannot be changed (create another).",
    body: jsonBody(
      createRoutingAlgorithmSchema,
      true,
      '`{name, description?, algorithm: {type, data}}`.',
      {
        name: 'Your name for the algorithm: 1 to 64 characters.',
        description: 'What it is for: at most 1000 characters.',
        algorithm:
          '`{type, data}`: `single` `{merchant_connector_id}`, `priority` `[{merchant_connector_id}, …]`, `volume_split` `[{split, merchant_connector_id}, …]` (splits adding up to 100), or `advanced` `{default_selection, rules}`.',
      },
      {
        volume_split: { summary: '70 % to Paystack, 30 % to Flutterwave', value: EXAMPLE_CREATE_VOLUME_SPLIT_REQUEST },
        advanced: {
          summary: 'Large NGN payments to Flutterwave first, gold customers to Paystack',
          value: EXAMPLE_CREATE_ADVANCED_REQUEST,
        },
      },
    ),
    idempotent: true,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: replayed(
        json(RoutingAlgorithmResource, 'The algorithm (`is_active: false`).', {
          volume_split: { summary: 'The 70/30 split', value: EXAMPLE_ROUTING_ALGORITHM },
        }),
      ),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['routing_algorithm_limit'] }, IDEMPOTENT),
  },
  ListRoutingAlgorithms: {
    operationId: 'listRoutingAlgorithms',
    tag: 'Routing',
    summary: 'List routing algorithms',
    description: 'Your routing algorithms, newest first, each with `is_active`.',
    query: plainListQuerySchema,
    queryDocs: LIST_QUERY_DOCS,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(RoutingAlgorithmListResource, 'One page of routing algorithms.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
  },
  GetActiveRouting: {
    operationId: 'getActiveRouting',
    tag: 'Routing',
    summary: 'Which routing algorithm is active',
    description:
      'The algorithm routing your payments now, or `active: false` (and nulls) when none is: then your default fallback list routes them.',
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(RoutingActivationResource, 'The active algorithm, or none.', {
        active: { summary: 'The 70/30 split is active', value: EXAMPLE_ROUTING_ACTIVATION },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED),
  },
  GetDefaultFallback: {
    operationId: 'getDefaultFallback',
    tag: 'Routing',
    summary: 'Retrieve the default fallback list',
    description:
      "Your ordered fallback list: where payments go when no algorithm is active, and the accounts tried after the active algorithm's own. When you set none (`is_custom: false`), your accounts in the order you connected them.",
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: {
      200: json(DefaultFallbackResource, 'The list.', {
        connected_order: { summary: 'Not set: the accounts in the order they were connected', value: EXAMPLE_DEFAULT_FALLBACK },
      }),
    },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED),
  },
  SetDefaultFallback: {
    operationId: 'setDefaultFallback',
    tag: 'Routing',
    summary: 'Set the default fallback list',
    description:
      'Replaces your ordered fallback list: 1 to 50 of your connector accounts, each once. Accounts you leave out are not fallbacks any more (an active algorithm still uses the accounts it names).',
    body: jsonBody(defaultFallbackBodySchema, true, '`{default_fallback: [{merchant_connector_id}, …]}`, in the order to try them.', {
      default_fallback:
        'Your connector accounts in order (1 to 50, each once). An id that is not one of your accounts → 400 `resource_missing` naming the entry (`default_fallback.1.merchant_connector_id`).',
    }),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(DefaultFallbackResource, 'The list as stored (`is_custom: true`).') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['resource_missing'] }, ROUTING_RACE),
  },
  DeactivateRouting: {
    operationId: 'deactivateRouting',
    tag: 'Routing',
    summary: 'Deactivate routing',
    description:
      'No algorithm is active any more: your default fallback list routes your payments (within `CONNECTOR_CONFIG_CACHE_MS`, 5 s, everywhere). Emits `routing.activated` with `active: false`. No `Idempotency-Key` is kept: a second call answers 400 `routing_not_active`.',
    body: jsonBody(rotateSecretSchema, false, 'No fields: send nothing or `{}`.', {}),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(RoutingActivationResource, '`active: false`.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['routing_not_active'] }, ROUTING_RACE),
  },
  GetRoutingAlgorithm: {
    operationId: 'getRoutingAlgorithm',
    tag: 'Routing',
    summary: 'Retrieve a routing algorithm',
    description: 'One of your routing algorithms, with `is_active`.',
    pathParams: ROUTING_ALGORITHM_ID,
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(RoutingAlgorithmResource, 'The algorithm.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
  },
  ActivateRoutingAlgorithm: {
    operationId: 'activateRoutingAlgorithm',
    tag: 'Routing',
    summary: 'Activate a routing algorithm',
    description:
      'Makes the algorithm route your payments, in place of the active one: its choice first, the other accounts it names next, then your default fallback list. Checked again against your accounts now (400 `parameter_invalid` naming the field when it no longer fits them), and refused with 409 `routing_changed` when an account it names is being deleted or your routing changed meanwhile. Containers pick it up within `CONNECTOR_CONFIG_CACHE_MS` (5 s). Emits `routing.activated` (activating the active algorithm again emits it again). No `Idempotency-Key` is kept: a retry activates it again, which changes nothing else.',
    pathParams: ROUTING_ALGORITHM_ID,
    body: jsonBody(rotateSecretSchema, false, 'No fields: send nothing or `{}`.', {}),
    idempotent: false,
    apiHandler: true,
    errorFormat: 'json',
    responses: { 200: json(RoutingAlgorithmResource, 'The algorithm, `is_active: true`.') },
    errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, ROUTING_RACE),
  },
};
