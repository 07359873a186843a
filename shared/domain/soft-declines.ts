/**
 * Soft declines: the issuer or the network refused for a reason another acquirer, or the same card a moment later,
 * may not meet (unavailable, a processing error, "try again") — the declines an automatic retry on another of the
 * merchant's accounts may turn into an approval (docs/routing.md "Automatic retries"). Everything else an issuer
 * says is a hard decline and never retried: `insufficient_funds`, `stolen_card`, `lost_card`, `pickup_card`,
 * `incorrect_number`, `expired_card`, `invalid_cvc`, `fraudulent`, `do_not_honor`, `generic_decline`, … — retrying
 * those elsewhere is what card networks penalise (excessive retry rules) and cannot succeed.
 *
 * The codes are the `error_code` each adapter keeps for a decline: Stripe's `decline_code`
 * (shared/connectors/stripe/decline-codes.ts `stripeErrorCode`), Paystack's `gateway_response` slugged
 * (shared/connectors/paystack/decline-codes.ts `declineOf`), Flutterwave's `processor_response` slugged
 * (shared/connectors/flutterwave/decline-codes.ts `declineOf`). One list per processor; the sandbox has none.
 */

/** One soft decline code, with where the processor documents it as worth retrying. */
export interface SoftDecline {
  code: string;
  source: string;
}

const STRIPE_CODES = 'https://docs.stripe.com/declines/codes';
const PAYSTACK_CODES = 'https://paystack.com/docs/payments/gateway-responses/ (ISO 8583 code in brackets)';
const FLUTTERWAVE_CODES =
  'https://developer.flutterwave.com/docs/transaction-errors (processor_response: the issuer’s ISO 8583 text, code in brackets)';

/** The soft decline codes of each processor (one list per processor: the only source of truth). */
export const SOFT_DECLINES: Readonly<Record<string, readonly SoftDecline[]>> = Object.freeze({
  stripe: [
    // "The card was declined for an unknown reason. Ask the customer to attempt the payment again."
    { code: 'try_again_later', source: STRIPE_CODES },
    // "The card issuer couldn't be reached, so the payment couldn't be authorized. Attempt the payment again."
    { code: 'issuer_not_available', source: STRIPE_CODES },
    // "An error occurred while processing the card. The payment should be attempted again."
    { code: 'processing_error', source: STRIPE_CODES },
    // "The payment couldn't be processed by the issuer for an unknown reason. The payment should be attempted again."
    { code: 'reenter_transaction', source: STRIPE_CODES },
    // "The payment can't be authorized. The payment should be attempted again."
    { code: 'approve_with_id', source: STRIPE_CODES },
  ],
  paystack: [
    { code: 'processing_error', source: `${PAYSTACK_CODES} [06]` },
    { code: 'reenter_transaction', source: `${PAYSTACK_CODES} [19]` },
    { code: 'issuer_or_switch_inoperative', source: `${PAYSTACK_CODES} [91]` },
    { code: 'system_malfunction', source: `${PAYSTACK_CODES} [96]` },
    {
      code: 'error_please_try_again',
      source: 'https://support.paystack.com/hc/en-us/articles/360018678779 ("bank or processor downtime")',
    },
  ],
  flutterwave: [
    { code: 'issuer_or_switch_inoperative', source: `${FLUTTERWAVE_CODES} [91]` },
    { code: 'system_malfunction', source: `${FLUTTERWAVE_CODES} [96]` },
    { code: 're_enter_transaction', source: `${FLUTTERWAVE_CODES} [19]` },
    { code: 'error', source: `${FLUTTERWAVE_CODES} [06]` },
  ],
});

/**
 * Whether a decline of this processor is soft (in {@link SOFT_DECLINES}): only then may it be retried elsewhere.
 * @param connector the processor's name (`stripe`, `paystack`, `flutterwave`; any other: never soft)
 * @param errorCode the attempt's `error_code`, or null (never soft)
 */
export function isSoftDecline(connector: string, errorCode: string | null | undefined): boolean {
  if (!errorCode) return false;
  return (SOFT_DECLINES[connector] ?? []).some((d) => d.code === errorCode);
}
