/**
 * Stripe's decline and error codes as the adapter reads them: the `error_code` a failed payment keeps, and the codes the
 * adapter acts on. The one place per processor for its decline codes (a table of retryable and final codes belongs
 * here).
 *
 * Sources: https://docs.stripe.com/api/errors (`{error: {type, code, decline_code, message}}`; `decline_code` on card
 * errors), https://docs.stripe.com/declines/codes (`authentication_required`),
 * https://docs.stripe.com/error-codes.
 */

import type { StripeApiError } from './wire-types';

/** The decline code (and error code) Stripe gives an off-session charge the issuer wants the payer to authenticate. */
export const AUTHENTICATION_REQUIRED_CODE = 'authentication_required';

/**
 * Whether a Stripe error asks for the payer: `code` or `decline_code` `authentication_required` ("The card was
 * declined because the transaction requires authentication such as 3D Secure … In some cases, such as off-session
 * payments, you might need to request the customer to retry", https://docs.stripe.com/declines/codes; the 402 of
 * an off-session charge, https://docs.stripe.com/payments/save-during-payment).
 */
export function isAuthenticationRequired(error: StripeApiError | null | undefined): boolean {
  return error?.code === AUTHENTICATION_REQUIRED_CODE || error?.decline_code === AUTHENTICATION_REQUIRED_CODE;
}

/** The `error_code` we keep for a Stripe error: the issuer's `decline_code` when present, else `code`, else `type`. */
export function stripeErrorCode(error: StripeApiError | null | undefined): string | null {
  return error?.decline_code || error?.code || error?.type || null;
}
