/**
 * The payment resource as the API answers it (`POST /payments`, `GET /payments/{id}`, confirm,
 * authenticate, cancel, capture, lists, `payment.*` events): the one definition of its shape.
 * shared/domain/payment.ts derives the `Payment` type (and its parts) from these schemas with
 * `import type`; scripts/openapi.ts turns them into the OpenAPI components. Fields and their
 * order follow `PAYMENT_FIELDS`; every field is always present (`null` when unset), as the
 * repository writes them (shared/storage/list-items.ts `pickFields`). docs/api.md "Payments".
 */
import * as z from 'zod';
import { AUTHENTICATION_STEPS, CAPTURE_METHODS, PAYMENT_METHODS } from '../domain/payment';
import { ACCEPTANCE_TYPES, SETUP_FUTURE_USAGES } from '../domain/payment-method';
import { PAYMENT_STATUSES } from '../domain/payment-status';
import { ROUTING_APPROACHES } from '../domain/routing-algorithm';
import { PaymentDisputeResource } from './dispute-resource-schema';
import { PendingOperationResource } from './pending-operation-resource-schema';
import {
  CurrencyResource,
  connectorField,
  idField,
  MetadataResource,
  merchantConnectorIdField,
  minorUnitsField,
  nullableText,
  timestampField,
} from './resource-fields';

/** Component `PaymentStatus`: the states of shared/domain/payment-status.ts. */
export const PaymentStatusResource = z.enum(PAYMENT_STATUSES).meta({
  id: 'PaymentStatus',
  description:
    'Where the payment is: `RequiresConfirmation` (created, not confirmed), `Processing` (a connector call or the payer is under way), `RequiresAction` (the payer must act: see `next_action`), `RequiresCapture` (authorized, manual capture), then the terminal `Succeeded`, `Failed` or `Cancelled`.',
});

/** Component `PaymentMethod`: card, bank_transfer, ussd, mobile_money. */
export const PaymentMethodResource = z.enum(PAYMENT_METHODS).meta({
  id: 'PaymentMethod',
  description: 'How the payer pays: `card`, `bank_transfer`, `ussd` or `mobile_money`.',
});

/** Component `CaptureMethod`: automatic or manual. */
export const CaptureMethodResource = z.enum(CAPTURE_METHODS).meta({
  id: 'CaptureMethod',
  description: '`automatic` captures at confirm; `manual` stops at `RequiresCapture` until `POST /payments/{payment_id}/capture`.',
});

/**
 * Card brands a summary names: `credit-card-type`'s ids with Stripe's short names for two of them
 * (`amex`, `diners`), `unknown` when no brand claims the prefix (shared/domain/card.ts `CardBrand`;
 * a unit test keeps the two equal).
 */
export const CARD_BRANDS = [
  'visa',
  'mastercard',
  'amex',
  'diners',
  'discover',
  'jcb',
  'unionpay',
  'maestro',
  'verve',
  'elo',
  'mir',
  'hiper',
  'hipercard',
  'troy',
  'naranja',
  'unknown',
] as const;

/** Component `CardSummary`: the only card data ever kept or returned (never the PAN or CVC). */
export const CardSummaryResource = z
  .strictObject({
    last4: z
      .string()
      .regex(/^\d{4}$/)
      .describe('The last 4 digits of the card number.'),
    brand: z.enum(CARD_BRANDS).describe('The card brand, from its issuer identification number.'),
    exp_month: z.int().min(1).max(12).describe('Expiry month, 1–12 (a number, not the string sent).'),
    exp_year: z.int().min(2000).max(9999).describe('Expiry year, four digits.'),
    fingerprint: z
      .string()
      .describe(
        "`fp_…`: a keyed hash of the card number, the same for the same card number across payments of this stage. For a charge of a saved method (`payment_method_id`), the method's own `card.fingerprint`.",
      ),
  })
  .meta({
    id: 'CardSummary',
    description:
      'What is kept of a card: last 4 digits, brand, expiry and fingerprint. The card number and CVC are never stored or returned.',
  });

/** Component `UssdBankSummary`: the payer's bank of a USSD payment. */
export const UssdBankSummaryResource = z
  .strictObject({
    bank_code: z.string().describe('The Nigerian (CBN) bank code, e.g. `058`.'),
    bank_name: z.string().describe('The bank\'s name, e.g. "Guaranty Trust Bank".'),
  })
  .meta({ id: 'UssdBankSummary', description: "The payer's bank chosen for a USSD payment." });

/** Component `PaymentMethodSummary`: `{card}` or `{ussd}`. */
export const PaymentMethodSummaryResource = z
  .union([
    z.strictObject({ card: CardSummaryResource }).meta({ id: 'CardMethodSummary', description: 'A card payment: its card summary.' }),
    z.strictObject({ ussd: UssdBankSummaryResource }).meta({ id: 'UssdMethodSummary', description: "A USSD payment: the payer's bank." }),
  ])
  .meta({
    id: 'PaymentMethodSummary',
    description: "What is kept of the method's details: `{card}` (a card summary) or `{ussd}` (the payer's bank).",
  });

/** Component `BillingAddress`: the billing address echoed as given (each field present only when sent). */
export const BillingAddressResource = z
  .strictObject({
    first_name: z.string().optional().describe('At most 200 characters.'),
    last_name: z.string().optional().describe('At most 200 characters.'),
    line1: z.string().optional().describe('At most 200 characters.'),
    city: z.string().optional().describe('At most 200 characters.'),
    state: z.string().optional().describe('At most 200 characters.'),
    zip: z.string().optional().describe('At most 40 characters.'),
    country: z.string().optional().describe('ISO 3166-1 alpha-2, upper case (`NG`).'),
  })
  .meta({ id: 'BillingAddress', description: 'A billing address, echoed as it was sent: absent fields are left out.' });

/** Component `Billing`: `{address?}`, echoed as sent on create. */
export const BillingResource = z
  .strictObject({ address: BillingAddressResource.optional() })
  .meta({ id: 'Billing', description: 'Billing details as sent at create.' });

/** `next_action` of type `redirect_to_url`: 3-D Secure or a hosted page. */
export const RedirectToUrlActionResource = z
  .strictObject({
    type: z.literal('redirect_to_url').describe('`redirect_to_url`.'),
    redirect_to_url: z
      .string()
      .describe(
        'Where to send the payer (3-D Secure, a processor or sandbox hosted page); they come back through `GET /pay/{payment_id}/return`.',
      ),
  })
  .meta({ id: 'RedirectToUrlAction', description: 'Send the payer to `redirect_to_url`.' });

/**
 * `next_action` of a `submit_*` type: a PIN, OTP, phone, birthday or address step
 * (Paystack `send_*` charge statuses, Flutterwave `meta.authorization.mode`).
 */
export const AuthenticationActionResource = z
  .strictObject({
    type: z
      .enum(AUTHENTICATION_STEPS)
      .describe('The step: `submit_pin`, `submit_otp`, `submit_phone`, `submit_birthday` or `submit_address`.'),
    display_text: nullableText('The processor\'s prompt to show the payer (e.g. "Dial *110# to generate a voucher"), or null.'),
    redirect_to_url: z
      .string()
      .describe(
        "Switchyard's hosted page for the step (`/pay/{payment_id}/authenticate`): send the payer there instead of collecting the value yourself.",
      ),
    card_required: z
      .boolean()
      .describe('True when the processor needs the same card sent again with this step (`payment_method_data.card` on authenticate).'),
  })
  .meta({
    id: 'AuthenticationAction',
    description:
      'The payer must answer an authentication step: collect the value and `POST /payments/{payment_id}/authenticate`, or send the payer to `redirect_to_url`.',
  });

/** `next_action` of type `bank_transfer_instructions`. */
export const BankTransferActionResource = z
  .strictObject({
    type: z.literal('bank_transfer_instructions').describe('`bank_transfer_instructions`.'),
    bank_transfer: z
      .strictObject({
        bank_name: z.string().describe('The bank of the account to pay into.'),
        account_number: z.string().describe('The account number to pay into.'),
        account_name: z.string().describe("The account's name (may be empty when the processor gives none)."),
        amount: minorUnitsField('What the payer must send (may include fees the payer bears).'),
        currency: CurrencyResource,
        reference: z.string().describe('The reference of the transfer.'),
        expires_at: timestampField('Until when the account takes the transfer.'),
      })
      .describe('The account the payer must transfer to.'),
  })
  .meta({ id: 'BankTransferAction', description: 'Show the payer the account to pay into.' });

/** `next_action` of type `display_ussd_code`. */
export const UssdCodeActionResource = z
  .strictObject({
    type: z.literal('display_ussd_code').describe('`display_ussd_code`.'),
    ussd: z
      .strictObject({
        code: z.string().describe('The code the payer dials, e.g. `*737*000*1234#`.'),
        reference: z.string().describe('The reference of the USSD payment.'),
        expires_at: timestampField('Until when the code can be used.'),
      })
      .describe('The USSD code to show.'),
  })
  .meta({ id: 'UssdCodeAction', description: 'Show the payer the USSD code to dial.' });

/** `next_action` of type `await_mobile_money_approval`. */
export const MobileMoneyActionResource = z
  .strictObject({
    type: z.literal('await_mobile_money_approval').describe('`await_mobile_money_approval`.'),
    mobile_money: z
      .strictObject({
        message: z.string().describe('What to tell the payer, e.g. "Approve the payment prompt sent to your phone."'),
        reference: z.string().describe('The reference of the mobile-money charge.'),
      })
      .describe('The prompt sent to the payer.'),
  })
  .meta({ id: 'MobileMoneyAction', description: 'Tell the payer to approve the prompt on their phone.' });

/** Component `NextAction`: what the payer must do, by `type`. */
export const NextActionResource = z
  .discriminatedUnion('type', [
    RedirectToUrlActionResource,
    AuthenticationActionResource,
    BankTransferActionResource,
    UssdCodeActionResource,
    MobileMoneyActionResource,
  ])
  .meta({
    id: 'NextAction',
    description:
      'What the payer must do next (docs/api.md, "Next actions"); present while the payment is `RequiresAction` (or `Processing` for mobile money).',
  });

/** Component `PaymentAttempt`: one try of the payment at one connector. */
export const AttemptResource = z
  .strictObject({
    attempt_id: idField('att', 'The attempt'),
    connector: connectorField('The connector tried.'),
    merchant_connector_id: merchantConnectorIdField('The connector account tried'),
    status: PaymentStatusResource,
    connector_transaction_id: nullableText("The connector's transaction id, or null when it has none."),
    error_code: nullableText(
      'Why the try failed (e.g. `card_declined`, `connector_unreachable`; `circuit_open`: routing passed over this connector, its circuit breaker open, and never called it), or null.',
    ),
    error_message: nullableText('The reason in words, or null.'),
    routing_approach: z
      .enum(ROUTING_APPROACHES)
      .nullable()
      .describe(
        "Why routing chose this account: `success_rate_exploit` (best recent authorization rate in the payment's segment), `success_rate_explore` (an exploration share, or an account not yet known in the segment), `elimination` (best rate once accounts under the elimination threshold were passed over), `single`, `priority`, `volume_split`, `rule` (an advanced rule's selection), `default_fallback`, `straight_through` (the account named in the request, or a saved method's), `auto_retry`; null for a try routing did not choose (a webhook's or the reconciler's outcome).",
      ),
    routing_segment: z
      .string()
      .max(200)
      .nullable()
      .describe(
        "The success-rate segment this try's outcome counts in, e.g. `payment_method=card|card_network=visa|currency=NGN` (a card by its BIN: 6 digits at most), or null when success rate did not choose the account.",
      ),
    created_at: timestampField('When the try started.'),
  })
  .meta({
    id: 'PaymentAttempt',
    description:
      'One try of the payment at one connector (routing fallbacks, webhook and reconciler outcomes included). A try whose outcome is unknown is `Processing` with `error_code: connector_unreachable`.',
  });

/** Component `CustomerAcceptance` (Hyperswitch's): the payer's agreement to have the method charged without them. */
export const CustomerAcceptanceResource = z
  .strictObject({
    acceptance_type: z.enum(ACCEPTANCE_TYPES).describe('`online` (accepted on a page: give `online`) or `offline` (on paper, by phone).'),
    accepted_at: timestampField('When the payer accepted.'),
    online: z
      .strictObject({
        ip_address: z.string().max(45).describe("The payer's IP address (IPv4 or IPv6) when they accepted."),
        user_agent: z.string().max(512).describe("The payer's browser user agent when they accepted."),
      })
      .nullable()
      .describe('Where the payer accepted online; null for `offline`.'),
  })
  .meta({ id: 'CustomerAcceptance', description: "The payer's agreement to later charges without them (off-session)." });

/** Component `PaymentLinkOfPayment`: a payment's single-use link (Hyperswitch's `PaymentLinkResponse`). */
const PaymentLinkOfPaymentResource = z
  .strictObject({
    payment_link_id: idField('plink', 'The single-use payment link'),
    link: z.string().describe('The hosted checkout page that pays this payment (and no other): share it with the payer.'),
    expires_at: timestampField('When the link stops taking payment (`session_expiry` seconds after the create). The payment itself stays.'),
  })
  .meta({ id: 'PaymentLinkOfPayment', description: 'The single-use link of a payment: its page confirms this payment.' });

/** Component `Payment`: a payment intent. Fields in the order of `PAYMENT_FIELDS`. */
export const PaymentResource = z
  .strictObject({
    payment_id: idField('pay', 'The payment'),
    status: PaymentStatusResource,
    pending_operation: PendingOperationResource.nullable().describe(
      'The processor call (authorize, capture, void) whose answer is not recorded yet, or null.',
    ),
    amount: minorUnitsField('The amount to collect, 1 to 99,999,999,999.', 1),
    currency: CurrencyResource,
    amount_captured: minorUnitsField('Captured so far; equals `amount` once an automatic-capture payment succeeds. The refund ceiling.'),
    amount_refunded: minorUnitsField('Refunded so far, pending refunds included; with `amount_disputed`, never above `amount_captured`.'),
    amount_disputed: minorUnitsField(
      'Withheld by disputes: while a dispute is open, and for good when it is lost, accepted or expired; back to 0 for one won or withdrawn. Refunds are refused beyond `amount_captured − amount_refunded − amount_disputed`.',
    ),
    disputes: z.array(PaymentDisputeResource).describe('The disputes of the payment, oldest first (empty when none).'),
    capture_method: CaptureMethodResource,
    payment_method: PaymentMethodResource.nullable().describe('The method, or null until one is given.'),
    payment_method_data: PaymentMethodSummaryResource.nullable().describe(
      "What is kept of the method's details (never a card number or CVC), or null. A charge of a saved method (`payment_method_id`) shows the saved card's summary.",
    ),
    payment_method_id: idField('pm', 'The saved payment method')
      .nullable()
      .describe(
        'The saved payment method this payment charges (`payment_method_id` at create or confirm), or the one it saved (`setup_future_usage`), or null.',
      ),
    setup_future_usage: z
      .enum(SETUP_FUTURE_USAGES)
      .nullable()
      .describe('`on_session` or `off_session` when the card is to be saved on the customer once the payment succeeds; null otherwise.'),
    customer_acceptance: CustomerAcceptanceResource.nullable().describe(
      "The payer's agreement to later charges without them, as sent with `setup_future_usage: off_session`; null otherwise.",
    ),
    connector: connectorField('The connector routing chose (`sandbox` by default).'),
    merchant_connector_id: merchantConnectorIdField(
      'The connector account routing chose; every later operation (capture, void, refund, sync, webhooks) uses its credentials',
    ),
    connector_transaction_id: nullableText("The connector's transaction id; null until the connector has a transaction."),
    customer_id: idField('cus', 'The customer').nullable().describe('The customer, or null when none (or after the customer was deleted).'),
    description: nullableText('Echoed from create, or null.'),
    email: nullableText("The payer's e-mail, echoed from create, or null."),
    metadata: MetadataResource,
    billing: BillingResource.nullable().describe('Billing details as sent at create, or null.'),
    next_action: NextActionResource.nullable().describe('What the payer must do next, or null.'),
    return_url: nullableText(
      'Where the payer is sent back (303, with `payment_id` and `status` in the query) after 3-D Secure, a hosted page or a step; null: a plain result page.',
    ),
    payment_link_id: idField('plink', 'The payment link')
      .nullable()
      .describe(
        'The payment link (`plink_…`) whose hosted checkout page created the payment, or the single-use link that pays it (`payment_link.payment_link_id`), or null.',
      ),
    payment_link: PaymentLinkOfPaymentResource.nullable().describe(
      'The single-use link that pays this payment (created with `payment_link: true`), or null.',
    ),
    cancellation_reason: nullableText('Echoed from cancel, or null.'),
    error_code: nullableText(
      'Why the connector declined or refused (e.g. `card_declined`, `insufficient_funds`, `incorrect_otp`), or null.',
    ),
    error_message: nullableText('The reason in words, or null.'),
    attempts: z.array(AttemptResource).describe('Every connector try, oldest first.'),
    created_at: timestampField('When the payment was created.'),
    updated_at: timestampField('When the payment last changed.'),
  })
  .meta({
    id: 'Payment',
    description:
      'A payment intent. Amounts are integers in minor units; timestamps ISO 8601 UTC. No card number or CVC ever appears here. Statuses and transitions: docs/api.md.',
  });
