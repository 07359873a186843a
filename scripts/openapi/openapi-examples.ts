/**
 * The examples of the OpenAPI document: the README walk-through and the connector account and routing
 * walk-through, as request bodies and answers, with ids of the shape the API hands out; the bodies of a few
 * `webhooks`; and which route shows which ({@link OPERATION_EXAMPLES}). Documentation only, so it lives out of
 * the runtime tree: scripts/openapi/openapi-operations.ts joins it with each route's metadata
 * (shared/operations/<capability>/routes.ts `openapi`). One file, because the examples build on each other
 * (a payment's events carry the payment, a routing example names the connector accounts' examples).
 * No card data: a card payment's summary shows last4 and brand only.
 */
import type * as z from 'zod';
import type { EventType } from '../../shared/domain/events';
import type { ConnectorAccountResource } from '../../shared/schemas/connector-account-resource-schema';
import type { createConnectorAccountSchema } from '../../shared/schemas/connector-account-schemas';
import type { CustomerResource } from '../../shared/schemas/customer-resource-schema';
import type { customerBodySchema } from '../../shared/schemas/customer-schemas';
import type { EventResource } from '../../shared/schemas/event-resource-schema';
import type { refundPaymentBodySchema } from '../../shared/schemas/payment-action-schemas';
import type { PaymentMethodResource } from '../../shared/schemas/payment-method-resource-schema';
import type { PaymentResource } from '../../shared/schemas/payment-resource-schema';
import type { createPaymentBodySchema } from '../../shared/schemas/payment-schemas';
import type { RefundResource } from '../../shared/schemas/refund-resource-schema';
import type { DefaultFallbackResource, RoutingActivationResource } from '../../shared/schemas/routing-activation-schema';
import type { RoutingAlgorithmResource } from '../../shared/schemas/routing-algorithm-resource-schema';
import type { createRoutingAlgorithmSchema } from '../../shared/schemas/routing-schemas';
import type { InvoiceResource, SubscriptionResource } from '../../shared/schemas/subscription-resource-schema';
import type { createSubscriptionBodySchema } from '../../shared/schemas/subscription-schemas';
import type { TestClockResource } from '../../shared/schemas/test-clock-resource-schema';
import type { createTestClockBodySchema } from '../../shared/schemas/test-clock-schemas';

/** A named example of a JSON body: what the README walk-through sends or receives. */
export interface BodyExample {
  summary: string;
  value: unknown;
}

/** Named examples of one body, in the order the reference shows them. */
export type Examples = Readonly<Record<string, BodyExample>>;

/** The examples one route shows: of its request body, and of its JSON success answers by status. */
export interface OperationExamples {
  body?: Examples;
  responses?: Readonly<Record<number, Examples>>;
}

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
  payment_link_id: null,
  payment_link: null,
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

/** The examples each route shows, by its ROUTES `name` (routes without examples are absent). */
export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  CreatePayment: {
    body: {
      walkthrough: {
        summary: 'NGN 1,500.00 by card for a customer, confirmed later (README step 2)',
        value: EXAMPLE_CREATE_PAYMENT_REQUEST,
      },
      pinned: {
        summary: 'The same payment pinned to one of your connector accounts',
        value: { ...EXAMPLE_CREATE_PAYMENT_REQUEST, merchant_connector_id: EXAMPLE_PAYSTACK_ACCOUNT_ID },
      },
    },
    responses: {
      200: {
        walkthrough: { summary: 'Created, waiting for confirm (README step 2)', value: EXAMPLE_CREATED_PAYMENT },
      },
    },
  },
  ListPayments: {
    responses: {
      200: {
        walkthrough: {
          summary: '`?limit=5&status=Succeeded` (README step 5)',
          value: { data: [EXAMPLE_SUCCEEDED_PAYMENT], has_more: false },
        },
      },
    },
  },
  GetPayment: {
    responses: {
      200: {
        succeeded: { summary: 'A confirmed card payment (README step 3): card summary only', value: EXAMPLE_SUCCEEDED_PAYMENT },
      },
    },
  },
  ConfirmPayment: {
    responses: {
      200: {
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
      },
    },
  },
  RefundPayment: {
    body: {
      walkthrough: { summary: 'Refund NGN 500.00 (README step 4)', value: EXAMPLE_REFUND_REQUEST },
    },
    responses: {
      200: {
        walkthrough: { summary: 'NGN 500.00 refunded (README step 4)', value: EXAMPLE_REFUND },
      },
    },
  },
  CreateCustomer: {
    body: {
      walkthrough: { summary: 'Ada Obi (README step 1)', value: EXAMPLE_CREATE_CUSTOMER_REQUEST },
    },
    responses: { 200: { walkthrough: { summary: 'Ada Obi (README step 1)', value: EXAMPLE_CUSTOMER } } },
  },
  ListCustomerPaymentMethods: {
    responses: {
      200: {
        saved_card: { summary: 'A card saved by an off-session payment', value: { data: [EXAMPLE_PAYMENT_METHOD], has_more: false } },
      },
    },
  },
  GetPaymentMethod: {
    responses: { 200: { saved_card: { summary: 'A saved card', value: EXAMPLE_PAYMENT_METHOD } } },
  },
  DeletePaymentMethod: {
    responses: {
      200: {
        detached: { summary: 'The saved card, detached', value: EXAMPLE_DETACHED_PAYMENT_METHOD },
      },
    },
  },
  CreateSubscription: {
    body: {
      monthly: { summary: 'Monthly, on a saved card', value: EXAMPLE_CREATE_SUBSCRIPTION_REQUEST },
    },
    responses: { 200: { active: { summary: 'First invoice paid', value: EXAMPLE_SUBSCRIPTION } } },
  },
  GetSubscription: {
    responses: { 200: { active: { summary: 'Active', value: EXAMPLE_SUBSCRIPTION } } },
  },
  ListInvoices: {
    responses: {
      200: {
        paid: { summary: 'The first invoice, paid', value: { data: [EXAMPLE_INVOICE], has_more: false } },
      },
    },
  },
  GetInvoice: {
    responses: { 200: { paid: { summary: 'Paid', value: EXAMPLE_INVOICE } } },
  },
  CreateTestClock: {
    body: {
      clock: { summary: 'Start of a year', value: EXAMPLE_CREATE_TEST_CLOCK_REQUEST },
    },
    responses: { 200: { ready: { summary: 'Ready', value: EXAMPLE_TEST_CLOCK } } },
  },
  GetTestClock: {
    responses: { 200: { ready: { summary: 'Ready', value: EXAMPLE_TEST_CLOCK } } },
  },
  AdvanceTestClock: {
    body: {
      month: { summary: 'One month on', value: { frozen_time: '2026-02-01T00:00:00.000Z' } },
    },
    responses: { 200: { ready: { summary: 'Ready', value: EXAMPLE_TEST_CLOCK } } },
  },
  GetEvent: {
    responses: {
      200: {
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
      },
    },
  },
  CreateConnectorAccount: {
    body: { paystack: { summary: 'A Paystack test account', value: EXAMPLE_CREATE_CONNECTOR_ACCOUNT_REQUEST } },
    responses: {
      200: {
        paystack: { summary: 'A Paystack test account connected', value: EXAMPLE_CONNECTOR_ACCOUNT },
      },
    },
  },
  ListConnectorAccounts: {
    responses: {
      200: {
        one: { summary: 'One Paystack account', value: { data: [EXAMPLE_CONNECTOR_ACCOUNT], has_more: false } },
      },
    },
  },
  CreateRoutingAlgorithm: {
    body: {
      volume_split: { summary: '70 % to Paystack, 30 % to Flutterwave', value: EXAMPLE_CREATE_VOLUME_SPLIT_REQUEST },
      advanced: {
        summary: 'Large NGN payments to Flutterwave first, gold customers to Paystack',
        value: EXAMPLE_CREATE_ADVANCED_REQUEST,
      },
    },
    responses: {
      200: {
        volume_split: { summary: 'The 70/30 split', value: EXAMPLE_ROUTING_ALGORITHM },
      },
    },
  },
  GetActiveRouting: {
    responses: {
      200: {
        active: { summary: 'The 70/30 split is active', value: EXAMPLE_ROUTING_ACTIVATION },
      },
    },
  },
  GetDefaultFallback: {
    responses: {
      200: {
        connected_order: { summary: 'Not set: the accounts in the order they were connected', value: EXAMPLE_DEFAULT_FALLBACK },
      },
    },
  },
};
