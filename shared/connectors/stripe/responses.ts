/**
 * Stripe's answers → Switchyard's results: a PaymentIntent → a payment result (status, amounts, next action, decline,
 * saved method), a Refund → a refund result, a 4xx body → the processor's code and message, the credential check's
 * Balance. Secrets Stripe might echo (API keys, webhook secrets) are masked out of every message kept.
 *
 * Sources: https://docs.stripe.com/api/payment_intents/object, https://docs.stripe.com/api/refunds/object,
 * https://docs.stripe.com/api/errors (402 for card errors), https://docs.stripe.com/payments/save-during-payment,
 * https://docs.stripe.com/api/balance/balance_object, https://docs.stripe.com/keys (key prefixes).
 */

import type { NextAction } from '../../domain/payment';
import type { PaymentResult, RefundResult, SavedMethodToken } from '../connector';
import { stripeErrorCode } from './decline-codes';
import { fromStripeAmount } from './money';
import { mapPaymentStatus, mapRefundStatus } from './statuses';
import type { StripeErrorBody, StripeNextAction, StripePaymentIntent, StripeRefund } from './wire-types';

/** The id of a PaymentIntent's `customer` (a string, or an expanded Customer), or null. */
export function customerIdOf(intent: Pick<StripePaymentIntent, 'customer'>): string | null {
  const customer = intent.customer;
  if (typeof customer === 'string') return customer || null;
  return customer && typeof customer.id === 'string' && customer.id ? customer.id : null;
}

/** The id of a PaymentIntent's `payment_method` (a string, or an expanded PaymentMethod), or null. */
export function paymentMethodIdOf(intent: Pick<StripePaymentIntent, 'payment_method'>): string | null {
  const pm = intent.payment_method;
  if (typeof pm === 'string') return pm || null;
  return pm && typeof pm.id === 'string' && pm.id ? pm.id : null;
}

/**
 * Whether a PaymentIntent saved (or is saving) its PaymentMethod for reuse and has come far enough for the method
 * to be attached: `setup_future_usage` set, a `customer`, a `payment_method`, and `succeeded` or `requires_capture`
 * (the PaymentMethod "attaches to the Customer after the PaymentIntent has been confirmed and any required actions
 * from the user are complete", [pkg] `PaymentIntentCreateParams.customer`).
 */
export function savesPaymentMethod(intent: StripePaymentIntent): boolean {
  return (
    (intent.status === 'succeeded' || intent.status === 'requires_capture') &&
    !!intent.setup_future_usage &&
    customerIdOf(intent) !== null &&
    paymentMethodIdOf(intent) !== null
  );
}

/**
 * The saved method a PaymentIntent carries, when {@link savesPaymentMethod} and its `payment_method` is
 * the expanded object of a card: token = the PaymentMethod id (`pm_…`), `processorCustomerId` = the intent's
 * Customer, `email` = the PaymentMethod's `billing_details.email`, `fingerprint` = `card.fingerprint`, `card` =
 * `brand` (lower-case), `last4`, `exp_month`, `exp_year`, `country` as the issuer country (Stripe gives no BIN:
 * `card.iin` is "For internal use only and not typically available", [pkg] `PaymentMethod.Card.iin`), `expiresAt`
 * null (a saved Stripe PaymentMethod does not expire; the card's expiry is the limit).
 * @returns the token, or null when the intent saves nothing or its PaymentMethod is not expanded (an id only: the
 *   caller reads it, see `StripeConnector.parseWebhook`) or not a card with its summary
 */
export function savedMethodFromIntent(intent: StripePaymentIntent): SavedMethodToken | null {
  if (!savesPaymentMethod(intent)) return null;
  const pm = intent.payment_method;
  if (!pm || typeof pm !== 'object') return null;
  const card = pm.card;
  if (!card || typeof card.brand !== 'string' || typeof card.last4 !== 'string') return null;
  if (typeof card.exp_month !== 'number' || typeof card.exp_year !== 'number') return null;
  return {
    token: pm.id,
    processorCustomerId: customerIdOf(intent),
    email: pm.billing_details?.email ?? null,
    fingerprint: card.fingerprint ?? null,
    card: {
      brand: card.brand.toLowerCase(),
      last4: card.last4,
      expMonth: card.exp_month,
      expYear: card.exp_year,
      bin: null,
      issuerCountry: card.country ?? null,
    },
    expiresAt: null,
  };
}

/**
 * Maps a 4xx error body to the processor's code and message, for `connectorFetch`.
 * The code is Stripe's `error.code` (e.g. `resource_missing`), else `error.type`,
 * else `http_<status>`; the message has API keys masked.
 */
export function stripeErrorOf(status: number, body: unknown): { code: string; message: string } {
  const error = (body as StripeErrorBody | null)?.error;
  return {
    code: error?.code || error?.type || `http_${status}`,
    message: redactKeys(error?.message || `Stripe refused the request (HTTP ${status}).`),
  };
}

/**
 * Whether a body is the Balance object `GET /v1/balance` answers (https://docs.stripe.com/api/balance/balance_object;
 * stripe-node 23.1.0 `resources/Balance.d.ts` `Balance`: `object: 'balance'`, `available` and `pending` arrays,
 * `livemode`), e.g. `resources.balance` of Stripe's OpenAPI fixtures. Anything else (a proxy's page, another API
 * behind a wrong base URL) is not an answer about the key.
 */
export function isStripeBalance(body: unknown): boolean {
  const b = body as { object?: unknown; available?: unknown; pending?: unknown; livemode?: unknown } | null;
  return (
    !!b &&
    typeof b === 'object' &&
    b.object === 'balance' &&
    Array.isArray(b.available) &&
    Array.isArray(b.pending) &&
    typeof b.livemode === 'boolean'
  );
}

/**
 * Masks anything shaped like a Stripe API key or webhook secret
 * (`sk_`, `rk_`, `pk_`, `whsec_` prefixes) in a text that may reach logs or clients.
 */
export function redactKeys(text: string): string {
  return text.replace(/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9*]+/g, '$1_$2_[redacted]').replace(/\bwhsec_[A-Za-z0-9*]+/g, 'whsec_[redacted]');
}

/**
 * What the customer must do for a `requires_action` PaymentIntent:
 * `next_action.redirect_to_url.url`, or for `use_stripe_sdk` the `stripe_js`
 * redirect URL when Stripe gives one; otherwise null (nothing we can relay).
 */
export function nextActionOf(nextAction: StripeNextAction | null | undefined): NextAction | null {
  if (!nextAction) return null;
  if (nextAction.type === 'redirect_to_url' && nextAction.redirect_to_url?.url) {
    return { type: 'redirect_to_url', redirect_to_url: nextAction.redirect_to_url.url };
  }
  if (nextAction.type === 'use_stripe_sdk') {
    const url = nextAction.use_stripe_sdk?.stripe_js;
    if (typeof url === 'string' && /^https:\/\//.test(url)) return { type: 'redirect_to_url', redirect_to_url: url };
  }
  return null;
}

/**
 * Maps a PaymentIntent to our result through `STRIPE_PAYMENT_STATUS` (./statuses.ts).
 * `amountCaptured` is `amount_received` (what Stripe has captured on the intent);
 * a `Failed` result carries `last_payment_error` (code via {@link stripeErrorCode}, message).
 * A `Succeeded` or `RequiresCapture` intent that saved its card, with its PaymentMethod expanded, carries
 * `savedMethod` ({@link savedMethodFromIntent}); no other result has the key.
 */
export function paymentResultFromIntent(intent: StripePaymentIntent): PaymentResult {
  const status = mapPaymentStatus(intent.status);
  const result: PaymentResult = {
    status,
    connectorTransactionId: intent.id,
    amountCaptured: status === 'Succeeded' ? fromStripeAmount(intent.amount_received) : 0,
  };
  if (status === 'RequiresAction') result.nextAction = nextActionOf(intent.next_action);
  if (status === 'Failed') {
    result.errorCode = stripeErrorCode(intent.last_payment_error);
    result.errorMessage = intent.last_payment_error?.message ? redactKeys(intent.last_payment_error.message) : null;
  }
  const saved = savedMethodFromIntent(intent);
  if (saved) result.savedMethod = saved;
  return result;
}

/**
 * A declined card on create+confirm: Stripe answers HTTP 402 with
 * `error.type = card_error` and the PaymentIntent in `error.payment_intent`
 * (https://docs.stripe.com/api/errors). That is a business outcome, so it becomes a
 * `Failed` result with the decline code and message.
 * @returns the `Failed` result, or null when the body is not a card error
 */
export function declineFromErrorBody(body: unknown): PaymentResult | null {
  const error = (body as StripeErrorBody | null)?.error;
  if (error?.type !== 'card_error') return null;
  return {
    status: 'Failed',
    connectorTransactionId: error.payment_intent?.id ?? null,
    amountCaptured: 0,
    errorCode: stripeErrorCode(error),
    errorMessage: error.message ? redactKeys(error.message) : null,
  };
}

/**
 * Maps a Refund to our result through `STRIPE_REFUND_STATUS` (./statuses.ts); a failed or
 * canceled refund carries `failure_reason` (or `canceled`) as its error code.
 */
export function refundResultFromRefund(refund: StripeRefund): RefundResult {
  const status = mapRefundStatus(refund.status);
  const result: RefundResult = { status, connectorRefundId: refund.id };
  if (status === 'Failed') {
    result.errorCode = refund.failure_reason ?? refund.status ?? null;
    result.errorMessage = refund.status === 'canceled' ? 'The refund was canceled at Stripe.' : 'The refund failed at Stripe.';
  }
  return result;
}
