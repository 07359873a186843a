/**
 * Switchyard's requests → Stripe's request parameters: PaymentMethods, PaymentIntents (create and confirm, saved
 * methods, capture, cancel, retrieve), Customers, Refunds, detach, and their form encoding.
 *
 * Sources:
 * - https://docs.stripe.com/api/payment_intents (create, confirm, capture, cancel, retrieve),
 *   https://docs.stripe.com/api/payment_methods/create (`type=card`, `card[number|exp_month|exp_year|cvc]`,
 *   `billing_details`; raw card data access only), https://docs.stripe.com/api/refunds/create,
 *   https://docs.stripe.com/api/customers/create, https://docs.stripe.com/api/payment_methods/detach,
 *   https://docs.stripe.com/api/expanding_objects (`expand[]`)
 * - Saved methods: https://docs.stripe.com/payments/save-during-payment (`setup_future_usage` with a `customer`;
 *   off-session charges with `off_session=true, confirm=true`) and Stripe support's "Manual confirmation for
 *   off-session payments requiring Strong Customer Authentication (SCA)"
 *   (https://support.stripe.com/questions/manual-confirmation-for-off-session-payments-requiring-strong-customer-authentication-sca)
 * - Parameter types: the installed `stripe` package (stripe-node 23.1.0, OpenAPI spec v2596,
 *   `node_modules/stripe/cjs/resources/*.d.ts`), imported type-only so nothing of the package reaches a Lambda bundle;
 *   form encoding as stripe-node's `stringifyRequestData` (`node_modules/stripe/cjs/utils.js`)
 */

import type Stripe from 'stripe';
import { type CardDetails, fullExpiryYear } from '../../domain/card';
import type { CaptureMethod } from '../../domain/payment';
import type { AuthorizeRequest, ProcessorCustomerRef } from '../connector';
import { toStripeAmount, toStripeCurrency } from './money';

/** Metadata key carrying our payment id on PaymentMethods, PaymentIntents (searchable) and Refunds. */
export const PAYMENT_ID_METADATA_KEY = 'payment_id';

/** Metadata key carrying our refund id on Refunds. */
export const REFUND_ID_METADATA_KEY = 'refund_id';

/** Metadata key carrying our customer id (`cus_…` of Switchyard) on the Stripe Customers the adapter creates. */
const CUSTOMER_ID_METADATA_KEY = 'customer_id';

/**
 * Stripe's `capture_method` for ours (https://docs.stripe.com/api/payment_intents/create#create_payment_intent-capture_method).
 */
export function toStripeCaptureMethod(captureMethod: CaptureMethod): 'automatic' | 'manual' {
  return captureMethod === 'manual' ? 'manual' : 'automatic';
}

/** A request parameter value as the `stripe` package's param types allow it (before form encoding). */
type StripeParamValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | Date
  | readonly StripeParamValue[]
  | { readonly [key: string]: StripeParamValue };

/**
 * Form-encodes request parameters exactly as stripe-node does (`stringifyRequestData` in
 * `node_modules/stripe/cjs/utils.js`, stripe 23.1.0): nested objects as `a[b][c]=…`, arrays as
 * `a[0]=…`, booleans as `true`/`false`, numbers in decimal, `null` as the empty string (Stripe's way
 * of unsetting), `undefined` left out, dates as Unix seconds. Keys keep the order of the object.
 * @param params a typed parameter object, e.g. a `Stripe.PaymentIntentCreateParams`
 * @returns the `application/x-www-form-urlencoded` pairs (used as a POST body or a GET query)
 */
export function encodeStripeForm(params: object): URLSearchParams {
  const form = new URLSearchParams();
  const encode = (key: string, value: StripeParamValue): void => {
    if (value === undefined) return;
    if (value === null) {
      form.append(key, '');
      return;
    }
    if (value instanceof Date) {
      form.append(key, String(Math.floor(value.getTime() / 1000)));
      return;
    }
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) encode(`${key}[${i}]`, item as StripeParamValue);
      return;
    }
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) encode(`${key}[${k}]`, v as StripeParamValue);
      return;
    }
    form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(params)) encode(key, value as StripeParamValue);
  return form;
}

/**
 * The payer's billing details for the PaymentMethod, from what the merchant gave us: `email`, `phone`
 * (E.164) and the address (`line1`, `city`, `state`, `postal_code` from our `zip`, `country` ISO 3166-1
 * alpha-2; https://docs.stripe.com/api/payment_methods/create#create_payment_method-billing_details).
 * Empty values are left out.
 * @returns the details, or undefined when we know none of them
 */
export function billingDetailsOf(
  request: Pick<AuthorizeRequest, 'email' | 'phone' | 'billingAddress'>,
): Stripe.PaymentMethodCreateParams.BillingDetails | undefined {
  const details: Stripe.PaymentMethodCreateParams.BillingDetails = {};
  if (request.email) details.email = request.email;
  if (request.phone) details.phone = request.phone;
  const a = request.billingAddress;
  if (a) {
    const address: Stripe.AddressParam = {};
    if (a.line1) address.line1 = a.line1;
    if (a.city) address.city = a.city;
    if (a.state) address.state = a.state;
    if (a.zip) address.postal_code = a.zip;
    if (a.country) address.country = a.country.toUpperCase();
    if (Object.keys(address).length > 0) details.address = address;
  }
  return Object.keys(details).length > 0 ? details : undefined;
}

/**
 * The parameters of `POST /v1/payment_methods` that turns the raw card into a PaymentMethod
 * (https://docs.stripe.com/api/payment_methods/create; Stripe's documented path for raw card numbers,
 * open only to accounts with raw card data access): `type=card`, `card[number]`, `card[exp_month]`
 * (1–12), `card[exp_year]` (four digits), `card[cvc]`, `billing_details` when we know any
 * ({@link billingDetailsOf}) and `metadata[payment_id]` (our id, for operators). A PaymentMethod alone
 * moves no money. The result holds the PAN and CVC: send it, never log or keep it.
 * @throws RangeError when the request has no card
 */
export function buildPaymentMethodParams(request: AuthorizeRequest): Stripe.PaymentMethodCreateParams {
  const card: CardDetails | undefined = request.card;
  if (!card) throw new RangeError('Stripe needs card details to authorize a card payment.');
  const params: Stripe.PaymentMethodCreateParams = {
    type: 'card',
    card: {
      number: card.card_number,
      exp_month: Number(card.card_exp_month),
      exp_year: fullExpiryYear(card.card_exp_year),
      cvc: card.card_cvc,
    },
    metadata: { [PAYMENT_ID_METADATA_KEY]: request.paymentId },
  };
  const billing = billingDetailsOf(request);
  if (billing) params.billing_details = billing;
  return params;
}

/**
 * The payment method types the PaymentIntent allows: cards only (docs/connectors.md "Support matrix"). Sent as
 * `allowed_payment_method_types`, the documented replacement of `payment_method_types`, which
 * API version 2026-09-30.endive removed ("Passing `payment_method_types` on this API version returns a
 * 400 error with the code `payment_method_types_no_longer_supported`… If you need more control… use
 * `allowed_payment_method_types`", https://docs.stripe.com/changelog/endive/2026-09-30/removes-the-payment-method-types-parameter-from-payment-intents-and-setup-intents;
 * the parameter itself: https://docs.stripe.com/changelog/dahlia/2026-07-29/allowed-payment-method-types-parameter,
 * mutually exclusive with `automatic_payment_methods` and `payment_method_configuration`, so neither is sent).
 */
export const STRIPE_ALLOWED_PAYMENT_METHOD_TYPES: readonly Stripe.PaymentIntentCreateParams.AllowedPaymentMethodType[] = ['card'];

/**
 * The parameters of `POST /v1/payment_intents` that creates and confirms a card PaymentIntent
 * with the PaymentMethod made by {@link buildPaymentMethodParams}
 * (https://docs.stripe.com/api/payment_intents/create): `amount` (smallest unit), `currency`
 * (lower-case), `confirm=true`, `capture_method`, `payment_method=pm_…`,
 * `allowed_payment_method_types[0]=card` (see {@link STRIPE_ALLOWED_PAYMENT_METHOD_TYPES}; never
 * `payment_method_types`), `return_url` (Switchyard's own return route for the payment, so 3DS answers
 * `redirect_to_url`) and `metadata[payment_id]` (our id, for search and webhooks). No card data.
 *
 * Saving the card (`request.setupFutureUsage`): also `setup_future_usage` (`on_session` |
 * `off_session`), `customer=cus_…` (the Stripe Customer the PaymentMethod is attached to once the payment
 * succeeds and any authentication is done: "If you provide a Customer with the PaymentIntent, you can use this
 * parameter to attach the payment method to the Customer after the PaymentIntent is confirmed", [pkg]
 * `PaymentIntentCreateParams.setup_future_usage`; https://docs.stripe.com/payments/save-during-payment) and
 * `expand[0]=payment_method`, so the answer carries the PaymentMethod object (card summary and fingerprint)
 * in the same call (https://docs.stripe.com/api/expanding_objects).
 * @param processorCustomerId the Stripe Customer (`cus_…`); required with `setupFutureUsage`, ignored without
 * @throws RangeError when the amount is not a non-negative integer, or `setupFutureUsage` comes without a Customer
 */
export function buildPaymentIntentParams(
  request: AuthorizeRequest,
  paymentMethodId: string,
  processorCustomerId?: string | null,
): Stripe.PaymentIntentCreateParams {
  const params: Stripe.PaymentIntentCreateParams = {
    amount: toStripeAmount(request.amount),
    currency: toStripeCurrency(request.currency),
    confirm: true,
    capture_method: toStripeCaptureMethod(request.captureMethod),
    payment_method: paymentMethodId,
    allowed_payment_method_types: [...STRIPE_ALLOWED_PAYMENT_METHOD_TYPES],
    return_url: request.returnUrl,
    metadata: { [PAYMENT_ID_METADATA_KEY]: request.paymentId },
  };
  if (request.setupFutureUsage) {
    if (!processorCustomerId) throw new RangeError('Saving a card at Stripe needs a Stripe Customer.');
    params.setup_future_usage = request.setupFutureUsage;
    params.customer = processorCustomerId;
    params.expand = [...EXPAND_PAYMENT_METHOD];
  }
  return params;
}

/**
 * `expand[]` of a PaymentIntent request whose answer must carry the PaymentMethod object instead of its id:
 * `payment_method` ("Many objects allow you to request additional information as an expanded response by using
 * the `expand` request parameter", https://docs.stripe.com/api/expanding_objects; [pkg]
 * `PaymentIntentCreateParams.expand`, `PaymentIntentRetrieveParams.expand`: `Array<string>`).
 */
export const EXPAND_PAYMENT_METHOD: readonly string[] = ['payment_method'];

/**
 * `expand[]` of a PaymentIntent search: the same field inside each result, `data.payment_method` (expanding in
 * lists and search results goes through `data`, https://docs.stripe.com/api/expanding_objects; [pkg]
 * `PaymentIntentSearchParams.expand`).
 */
export const EXPAND_SEARCH_PAYMENT_METHOD: readonly string[] = ['data.payment_method'];

/**
 * The parameters of `POST /v1/customers` (https://docs.stripe.com/api/customers/create) that makes the Stripe
 * Customer a saved card is attached to: `email` (our customer's, else the payment's, when known) and
 * `metadata[customer_id]` = our customer id, so an operator finds our customer from Stripe's dashboard.
 * One Customer per our customer and account; the core keeps its id (`SavedMethodToken.processorCustomerId`, ../connector.ts)
 * and passes it back as `ProcessorCustomerRef.processorCustomerId`.
 */
export function buildCustomerParams(customer: ProcessorCustomerRef, email?: string | null): Stripe.CustomerCreateParams {
  const params: Stripe.CustomerCreateParams = {};
  const address = customer.email || email;
  if (address) params.email = address;
  params.metadata = { [CUSTOMER_ID_METADATA_KEY]: customer.customerId };
  return params;
}

/**
 * The parameters of `POST /v1/payment_intents` that charges a saved PaymentMethod (
 * https://docs.stripe.com/payments/save-during-payment, "Charge the saved payment method later"):
 * `amount`, `currency`, `confirm=true`, `capture_method`, `payment_method=pm_…` (the saved token), `customer=cus_…`
 * (required by Stripe for a PaymentMethod attached to a Customer: "If the payment method is attached to a Customer,
 * you must also provide the ID of that Customer", [pkg] `PaymentIntentCreateParams.payment_method`),
 * `allowed_payment_method_types[0]=card`, `metadata[payment_id]` (the same reference as every other intent of the
 * adapter, so `sync` finds a charge whose answer was lost), and:
 * - off-session (`request.offSession`): `off_session=true` ("the customer isn't in your checkout flow during this
 *   payment attempt and can't authenticate", [pkg] `PaymentIntentCreateParams.off_session`), no `return_url`
 *   (nothing to redirect; {@link buildAuthenticationRecoveryParams} carries it when the issuer asks for the payer);
 * - on-session: `return_url`, so a 3DS the issuer asks for answers `redirect_to_url`.
 * No `setup_future_usage`: the method is already saved.
 * @throws RangeError when there is no saved method, no Stripe Customer, or the amount is not a non-negative integer
 */
export function buildSavedMethodIntentParams(request: AuthorizeRequest): Stripe.PaymentIntentCreateParams {
  const saved = request.savedMethod;
  if (!saved?.token) throw new RangeError('No saved payment method to charge.');
  if (!saved.processorCustomerId) throw new RangeError('A saved Stripe PaymentMethod is charged with its Customer.');
  const params: Stripe.PaymentIntentCreateParams = {
    amount: toStripeAmount(request.amount),
    currency: toStripeCurrency(request.currency),
    confirm: true,
    capture_method: toStripeCaptureMethod(request.captureMethod),
    payment_method: saved.token,
    customer: saved.processorCustomerId,
    allowed_payment_method_types: [...STRIPE_ALLOWED_PAYMENT_METHOD_TYPES],
    metadata: { [PAYMENT_ID_METADATA_KEY]: request.paymentId },
  };
  if (request.offSession) params.off_session = true;
  else params.return_url = request.returnUrl;
  return params;
}

/**
 * The parameters of `POST /v1/payment_intents/{id}/confirm` that asks the payer to authenticate an off-session
 * charge the issuer refused with `authentication_required` (https://docs.stripe.com/api/payment_intents/confirm):
 * `payment_method` = the same saved PaymentMethod (the failed attempt left the intent in `requires_payment_method`
 * without one), `off_session=false` and `return_url` = Switchyard's return route. Stripe support's documented way
 * to bring such an intent to `requires_action` ("Use an update PaymentIntent API call to set payment_method to the
 * same payment method ID that failed. Attempt confirmation with off_session set to false. Confirmation should fail
 * with PaymentIntent in requires_action status", https://support.stripe.com/questions/manual-confirmation-for-off-session-payments-requiring-strong-customer-authentication-sca;
 * `confirm` takes `payment_method` itself, so one call does both); with a `return_url` the action is
 * `redirect_to_url`, a link the payer can follow whenever the merchant brings them back.
 */
export function buildAuthenticationRecoveryParams(paymentMethodId: string, returnUrl: string): Stripe.PaymentIntentConfirmParams {
  return { payment_method: paymentMethodId, off_session: false, return_url: returnUrl };
}

/**
 * The parameters of `GET /v1/payment_intents/{id}` of a sync: `expand[0]=payment_method`
 * ({@link EXPAND_PAYMENT_METHOD}), so a PaymentIntent that saved its card answers with the card summary in the same
 * call ([pkg] `PaymentIntentRetrieveParams`).
 */
export function retrieveIntentParams(): Stripe.PaymentIntentRetrieveParams {
  return { expand: [...EXPAND_PAYMENT_METHOD] };
}

/**
 * The parameters of `POST /v1/payment_methods/{id}/detach` (https://docs.stripe.com/api/payment_methods/detach:
 * "Detaches a PaymentMethod object from a Customer. After a PaymentMethod is detached, it can no longer be used
 * for a payment or re-attached to a Customer"): none ([pkg] `PaymentMethodDetachParams` has only `expand`).
 */
export function buildDetachParams(): Stripe.PaymentMethodDetachParams {
  return {};
}

/**
 * The parameters of `POST /v1/payment_intents/{id}/capture`: `amount_to_capture` in the smallest unit
 * (https://docs.stripe.com/api/payment_intents/capture).
 */
export function buildCaptureParams(amount: number): Stripe.PaymentIntentCaptureParams {
  return { amount_to_capture: toStripeAmount(amount) };
}

/**
 * The parameters of `POST /v1/payment_intents/{id}/cancel` (https://docs.stripe.com/api/payment_intents/cancel):
 * none (no `cancellation_reason`: Stripe's optional reasons describe the payer or fraud, which a void
 * through our API does not tell us).
 */
export function buildCancelParams(): Stripe.PaymentIntentCancelParams {
  return {};
}

/**
 * The parameters of `POST /v1/refunds` (https://docs.stripe.com/api/refunds/create): `payment_intent`,
 * `amount` (smallest unit), and our ids in `metadata[refund_id]` and `metadata[payment_id]` so a
 * webhook or a lookup can be matched to our refund.
 */
export function buildRefundParams(input: {
  connectorTransactionId: string;
  amount: number;
  refundId: string;
  paymentId: string;
}): Stripe.RefundCreateParams {
  return {
    payment_intent: input.connectorTransactionId,
    amount: toStripeAmount(input.amount),
    metadata: { [REFUND_ID_METADATA_KEY]: input.refundId, [PAYMENT_ID_METADATA_KEY]: input.paymentId },
  };
}

/**
 * The read of the credential check: Retrieve balance, `GET /v1/balance`
 * (https://docs.stripe.com/api/balance/balance_retrieve): "Retrieves the current account balance, based on the
 * authentication that was used to make the request". It takes no parameters the adapter sends (stripe-node
 * 23.1.0 `BalanceRetrieveParams` has only `expand`), changes nothing, and any secret key may make it; a
 * restricted key needs read access to the balance.
 */
export const STRIPE_BALANCE_PATH = '/v1/balance';
