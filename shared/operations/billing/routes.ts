/**
 * The billing routes: subscriptions and their invoices, and the test clocks (stages with the sandbox only).
 * Data read by shared/api/routes.ts: schemas, the domain and shared/api's route types only.
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
import { INVOICE_ID, json, jsonBody, LIST_QUERY_DOCS, replayed, SUBSCRIPTION_ID, TEST_CLOCK_ID } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { listInvoicesQuerySchema, listSubscriptionsQuerySchema } from '../../schemas/billing-list-schemas';
import { InvoiceListResource, SubscriptionListResource } from '../../schemas/resource-lists-schema';
import { InvoiceResource, SubscriptionResource } from '../../schemas/subscription-resource-schema';
import { createSubscriptionBodySchema, updateSubscriptionBodySchema } from '../../schemas/subscription-schemas';
import { TestClockResource } from '../../schemas/test-clock-resource-schema';
import { advanceTestClockBodySchema, createTestClockBodySchema } from '../../schemas/test-clock-schemas';

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

const TEST_CLOCK_FIELDS = {
  frozen_time: 'ISO 8601 UTC: where the clock starts.',
  name: 'A name for it, at most 256 characters.',
};

const ADVANCE_TEST_CLOCK_FIELDS = {
  frozen_time: 'ISO 8601 UTC: where the clock goes (later than its time, by at most 2 years).',
};

/** The subscription and invoice routes, in the route table's order. */
export const SUBSCRIPTION_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/subscriptions',
    entry: 'functions/subscriptions/create-subscription.ts',
    name: 'CreateSubscription',
    access: 'write',
    auth: true,
    // Bills the first period: an off-session charge of the customer's saved method (createPayment).
    connectors: true,
    openapi: {
      operationId: 'createSubscription',
      tag: 'Subscriptions',
      summary: 'Create a subscription',
      description:
        "Checks the customer and that the saved method is its own, active and saved for off-session use. With `trial_period_days`: `trialing`, the trial is the first period, nothing is charged, and its invoice is a paid one of 0. Without: the first period's invoice is created (`open`) and charged at once, off-session, by a payment like `POST /payments` with `payment_method_id`, `off_session: true`, `confirm: true` and `metadata: {subscription_id, invoice_id}`: Succeeded → invoice `paid`, subscription `active`; Failed → invoice `open` with one attempt, subscription `incomplete` (not retried: the first charge needs a working method); RequiresAction or Processing → both stay so until the payment settles (3-D Secure completed, a sync, a webhook or the reconciler). Renewals follow at each period's end (the renewal worker). A retry with the same `Idempotency-Key` answers the same subscription and never charges twice (the payment's own key is derived from the invoice).",
      body: jsonBody(createSubscriptionBodySchema, true, 'The customer, its saved method, the price and the period.', SUBSCRIPTION_FIELDS),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: replayed(json(SubscriptionResource, 'The subscription.')),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, CONCURRENT_WRITE, MONEY_CALL, {
        400: ['resource_missing', 'payment_method_unusable'],
      }),
    },
  },
  {
    method: 'GET',
    path: '/subscriptions',
    entry: 'functions/subscriptions/list-subscriptions.ts',
    name: 'ListSubscriptions',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
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
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}',
    entry: 'functions/subscriptions/get-subscription.ts',
    name: 'GetSubscription',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getSubscription',
      tag: 'Subscriptions',
      summary: 'Retrieve a subscription',
      description: 'The subscription.',
      pathParams: SUBSCRIPTION_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(SubscriptionResource, 'The subscription.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}',
    entry: 'functions/subscriptions/update-subscription.ts',
    name: 'UpdateSubscription',
    access: 'write',
    auth: true,
    // A new payment method is checked as at create (its token opened: KMS).
    connectors: true,
    openapi: {
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
  },
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/cancel',
    entry: 'functions/subscriptions/cancel-subscription.ts',
    name: 'CancelSubscription',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
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
  },
  {
    method: 'GET',
    path: '/invoices',
    entry: 'functions/invoices/list-invoices.ts',
    name: 'ListInvoices',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
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
        200: json(InvoiceListResource, 'One page of invoices.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST, { 400: ['parameter_missing'] }),
    },
  },
  {
    method: 'GET',
    path: '/invoices/{invoice_id}',
    entry: 'functions/invoices/get-invoice.ts',
    name: 'GetInvoice',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getInvoice',
      tag: 'Subscriptions',
      summary: 'Retrieve an invoice',
      description: 'The invoice, with the payments attempted for it.',
      pathParams: INVOICE_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(InvoiceResource, 'The invoice.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
];

/** The test clock routes (`sandboxOnly`: not on prod), in the route table's order. */
export const TEST_CLOCK_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/test_helpers/test_clocks',
    entry: 'functions/test-clocks/create-test-clock.ts',
    name: 'CreateTestClock',
    access: 'write',
    auth: true,
    connectors: false,
    sandboxOnly: true,
    openapi: {
      operationId: 'createTestClock',
      tag: 'Test clocks',
      summary: 'Create a test clock',
      description:
        'Stages with the sandbox only (absent on prod: 404). A clock at `frozen_time` (from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z); customers created with `test_clock` live on it.',
      body: jsonBody(createTestClockBodySchema, true, 'Where the clock starts.', TEST_CLOCK_FIELDS),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: replayed(json(TestClockResource, 'The test clock.')) },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT, { 400: ['test_clock_time_invalid'] }),
    },
  },
  {
    method: 'GET',
    path: '/test_helpers/test_clocks/{test_clock_id}',
    entry: 'functions/test-clocks/get-test-clock.ts',
    name: 'GetTestClock',
    access: 'read',
    auth: true,
    connectors: false,
    sandboxOnly: true,
    openapi: {
      operationId: 'getTestClock',
      tag: 'Test clocks',
      summary: 'Retrieve a test clock',
      description: 'Stages with the sandbox only. The clock, its time and whether its last advance finished.',
      pathParams: TEST_CLOCK_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(TestClockResource, 'The test clock.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'POST',
    path: '/test_helpers/test_clocks/{test_clock_id}/advance',
    entry: 'functions/test-clocks/advance-test-clock.ts',
    name: 'AdvanceTestClock',
    access: 'write',
    auth: true,
    // Runs the renewals that fall due: off-session charges of saved methods (createPayment).
    connectors: true,
    sandboxOnly: true,
    openapi: {
      operationId: 'advanceTestClock',
      tag: 'Test clocks',
      summary: 'Advance a test clock',
      description:
        "Stages with the sandbox only. Moves the clock to `frozen_time` (later than its own, by at most 2 years), running on the way, in due order and each at its own time, every renewal, dunning retry and payment method expiry notice of its customers that falls due: invoices, off-session charges and events as they would have happened. Answers `ready` when all ran; `advancing` with `frozen_time` where it stopped when the advance reached its bound (400 pieces of work, or the request's time): advance again (to the same `frozen_time` or a later one) to go on. One advance at a time: the clock is claimed before any billing, and an advance while another runs answers 409 `test_clock_advancing` having changed nothing. `frozen_time` is at most 9999-12-31T23:59:59Z, where billing time ends.",
      pathParams: TEST_CLOCK_ID,
      body: jsonBody(advanceTestClockBodySchema, true, 'The time to advance to.', ADVANCE_TEST_CLOCK_FIELDS),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(TestClockResource, 'The test clock after the advance.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, CONCURRENT_WRITE, {
        400: ['test_clock_time_invalid'],
        409: ['test_clock_advancing'],
      }),
    },
  },
];
