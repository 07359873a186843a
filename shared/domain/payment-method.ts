/**
 * Saved payment methods (Stripe's and Hyperswitch's vocabulary): a card a customer
 * agreed to have kept, saved when a payment with `setup_future_usage` succeeded, charged again
 * later through the connector account that issued its token (the processor's reusable token:
 * Paystack `authorization_code`, Flutterwave card `token`, Stripe `pm_…`), which is stored
 * encrypted and never returned.
 */

/** `setup_future_usage` values, in the order the API documents them (Stripe, Hyperswitch). */
export const SETUP_FUTURE_USAGES = ['on_session', 'off_session'] as const;

/** `setup_future_usage`: who will be present when the saved method is charged again. */
export type SetupFutureUsage = (typeof SETUP_FUTURE_USAGES)[number];

/** `customer_acceptance.acceptance_type` values (Hyperswitch's mandate acceptance). */
export const ACCEPTANCE_TYPES = ['online', 'offline'] as const;

/** One of {@link ACCEPTANCE_TYPES}. */
export type AcceptanceType = (typeof ACCEPTANCE_TYPES)[number];

/** A saved method's statuses: `active`; `detached` once deleted (it can no longer be charged). */
export const SAVED_METHOD_STATUSES = ['active', 'detached'] as const;

/** One of {@link SAVED_METHOD_STATUSES}. */
export type SavedMethodStatus = (typeof SAVED_METHOD_STATUSES)[number];

/**
 * A saved payment method as the API shows it (component `SavedPaymentMethod`,
 * shared/schemas/payment-method-resource-schema.ts); timestamps ISO 8601 UTC.
 */
export interface PaymentMethodResource {
  /** `pm_…` */
  payment_method_id: string;
  customer_id: string | null;
  type: 'card';
  card: {
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    fingerprint: string;
    bin: string | null;
    /** ISO 3166-1 alpha-2. */
    issuer_country: string | null;
  };
  connector: string;
  merchant_connector_id: string | null;
  /** Whether it may be charged without the payer (`off_session`). */
  recurring_enabled: boolean;
  status: SavedMethodStatus;
  default: boolean;
  /** The payment that saved it. */
  payment_id: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** The end of a card's expiry month, ISO 8601 UTC (the last millisecond of its last day). */
export function cardExpiryEnd(expMonth: number, expYear: number): string {
  return new Date(Date.UTC(expYear, expMonth, 1) - 1).toISOString();
}
