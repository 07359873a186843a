/**
 * The payment routes (`/payments…`, the refund of a payment and its refunds' list): each route's handler,
 * table access and OpenAPI metadata. Data read by shared/api/routes.ts (the route table): it imports schemas,
 * the domain and shared/api's route types only, never a handler or a use case.
 */
import {
  AUTHENTICATED,
  CARD_BODY,
  CONCURRENT_WRITE,
  IDEMPOTENT,
  JSON_BODY,
  JSON_ROUTE,
  LIST,
  MONEY_CALL,
  mergeErrors,
  NOT_FOUND,
  PAYMENT_STATE,
  QUERY,
  ROUTING_CIRCUITS,
  SYNC_CALL,
} from '../../api/operation-errors';
import { FORCE_SYNC, json, jsonBody, LIST_QUERY_DOCS, PAYMENT_ID, replayed } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { authenticatePaymentBodySchema } from '../../schemas/authentication-schemas';
import { forceSyncQuerySchema } from '../../schemas/force-sync-schema';
import { cancelPaymentBodySchema, capturePaymentBodySchema, refundPaymentBodySchema } from '../../schemas/payment-action-schemas';
import { listPaymentsQuerySchema } from '../../schemas/payment-list-schema';
import { PaymentResource } from '../../schemas/payment-resource-schema';
import { confirmPaymentBodySchema, createPaymentBodySchema } from '../../schemas/payment-schemas';
import { plainListQuerySchema } from '../../schemas/plain-list-schema';
import { RefundResource } from '../../schemas/refund-resource-schema';
import { PaymentListResource, RefundListResource } from '../../schemas/resource-lists-schema';

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

/** The saved-method fields of create and confirm (docs/api.md "Saved payment methods"). */
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
  payment_link:
    "true: answer a single-use link (`payment_link`) where the payer pays this payment on the hosted checkout page (not with `confirm: true`); Hyperswitch's `payment_link`.",
  session_expiry: 'With `payment_link: true`: how long the link takes payment, in seconds (60 to 7,890,000; default 900).',
  amount:
    'What to collect, an integer in minor units from 1 to 99,999,999,999 (`150000` NGN is ₦1,500.00). Strings and fractions are refused.',
  currency: 'ISO 4217, upper case: `NGN`, `USD`, `GHS`, `ZAR` or `KES`.',
  confirm: 'Process the payment now (default false: it waits in `RequiresConfirmation` for `POST /payments/{payment_id}/confirm`).',
  capture_method: '`automatic` (default) captures at confirm; `manual` stops at `RequiresCapture`.',
  ...PAYMENT_METHOD_FIELD,
  ...methodDataFields(''),
  'payment_method_data.card': `${CARD_FIELDS.card} Only with \`confirm: true\`.`,
  description: 'At most 1000 characters; no card number.',
  email:
    "The payer's e-mail address, at most 254 characters. When absent, a confirm routed where an e-mail is required (Paystack, Flutterwave) takes the customer's (`customer_id`), shown here.",
  customer_id: 'A customer of yours (`cus_…`); an unknown one → 400 `resource_missing`.',
  metadata: 'Your own key/value pairs, echoed (at most 50 keys of 1–40 characters, values of at most 500 characters).',
  ...BILLING_FIELDS,
  ...RETURN_URL_FIELD,
  ...PIN_FIELD,
};

const PAYMENT_BODY_ERRORS = mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, CARD_BODY, IDEMPOTENT);

/** The payment routes, in the route table's order. */
export const PAYMENT_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/payments',
    entry: 'functions/payments/create-payment.ts',
    name: 'CreatePayment',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
      operationId: 'createPayment',
      tag: 'Payments',
      summary: 'Create a payment',
      description:
        'Creates a payment intent, routed to one of your connector accounts (an explicit `merchant_connector_id`, else your active routing algorithm, else your default fallback list; the stage\'s own rules when you have no connector accounts). With `confirm: true` it is processed before the answer returns (`payment_method` then required, or implied by `payment_method_data`). A card in `payment_method_data` is only accepted with `confirm: true`: card numbers are never stored. Send an `Idempotency-Key`: a payment created with one gets an id derived from it, so a retry never charges twice. Answers 200 (not 201), as Stripe does; a decline is a 200 with `status: Failed`. With `payment_link: true` the answer carries `payment_link: {payment_link_id, link, expires_at}`: a hosted checkout page that confirms this payment only (docs/api.md "Payment links").',
      body: jsonBody(createPaymentBodySchema, true, 'The payment to create. Amounts in minor units.', CREATE_PAYMENT_FIELDS),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: replayed(json(PaymentResource, 'The payment (`RequiresConfirmation`, or the outcome of the confirm).')),
      },
      errors: mergeErrors(
        PAYMENT_BODY_ERRORS,
        { 400: ['resource_missing', 'no_connector_available', 'payment_method_unusable'], 409: ['payment_unexpected_state'] },
        CONCURRENT_WRITE,
        MONEY_CALL,
        ROUTING_CIRCUITS,
      ),
    },
  },
  {
    method: 'GET',
    path: '/payments',
    entry: 'functions/payments/list-payments.ts',
    name: 'ListPayments',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listPayments',
      tag: 'Payments',
      summary: 'List payments',
      description:
        "The merchant's payments, newest first, optionally of one `status`, one `customer_id` or one `payment_link_id` (one of them at most: 400 `parameter_invalid`) and in a `created` range. A DynamoDB Query on an index, never a scan; no total count.",
      query: listPaymentsQuerySchema,
      queryDocs: {
        ...LIST_QUERY_DOCS,
        status: { description: 'Only payments in this status.' },
        customer_id: { description: 'Only the payments linked to this customer (`cus_…`).' },
        payment_link_id: { description: 'Only the payments created on this payment link’s checkout page (`plink_…`).' },
      },
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(PaymentListResource, 'One page of payments.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
    },
  },
  {
    method: 'GET',
    path: '/payments/{payment_id}',
    entry: 'functions/payments/get-payment.ts',
    name: 'GetPayment',
    access: 'reconcile',
    auth: true,
    connectors: true,
    openapi: {
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
        200: json(PaymentResource, 'The payment.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, QUERY, NOT_FOUND, CONCURRENT_WRITE, SYNC_CALL),
    },
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/confirm',
    entry: 'functions/payments/confirm-payment.ts',
    name: 'ConfirmPayment',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
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
        200: replayed(json(PaymentResource, 'The updated payment.')),
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
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/authenticate',
    entry: 'functions/payments/authenticate-payment.ts',
    name: 'AuthenticatePayment',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
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
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/cancel',
    entry: 'functions/payments/cancel-payment.ts',
    name: 'CancelPayment',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
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
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/capture',
    entry: 'functions/payments/capture-payment.ts',
    name: 'CapturePayment',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
      operationId: 'capturePayment',
      tag: 'Payments',
      summary: 'Capture a payment',
      description: 'Captures a manual-capture payment: `RequiresCapture` → `Succeeded`, `amount_captured` set.',
      pathParams: PAYMENT_ID,
      body: jsonBody(
        capturePaymentBodySchema,
        false,
        'Optional `amount_to_capture` (minor units, at most the amount; default the amount).',
        {
          amount_to_capture: 'Minor units to capture, at most the amount (default: the amount); above it → 400 `amount_too_large`.',
        },
      ),
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
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/refund',
    entry: 'functions/payments/refund-payment.ts',
    name: 'RefundPayment',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
      operationId: 'refundPayment',
      tag: 'Refunds',
      summary: 'Refund a payment',
      description:
        'Refunds all or part of a `Succeeded` payment (it stays `Succeeded`; its `amount_refunded` grows). The amount is reserved in the same transaction that writes the refund, so refunds never exceed what was captured. A processor timeout leaves the refund `Pending` with its `pending_operation`.',
      pathParams: PAYMENT_ID,
      body: jsonBody(refundPaymentBodySchema, false, 'Optional `amount` (minor units; default all that is left) and `reason`.', {
        amount: 'Minor units to refund (default: all that is left); above what is left → 400 `refund_exceeds_amount`.',
        reason: 'Why, at most 500 characters; echoed in the refund.',
      }),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: replayed(json(RefundResource, 'The refund (`Succeeded`, `Pending` or `Failed`).')),
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
  },
  {
    method: 'GET',
    path: '/payments/{payment_id}/refunds',
    entry: 'functions/payments/list-payment-refunds.ts',
    name: 'ListPaymentRefunds',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
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
  },
];
