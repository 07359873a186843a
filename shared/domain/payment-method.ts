/**
 * Saved payment methods (issue 24; Stripe's and Hyperswitch's vocabulary): a card a customer
 * agreed to have kept, saved when a payment with `setup_future_usage` succeeded, charged again
 * later through the connector account that issued its token (the processor's reusable token:
 * Paystack `authorization_code`, Flutterwave card `token`, Stripe `pm_…`), which is stored
 * encrypted and never returned.
 */
import type * as z from 'zod';
import type { PaymentMethodResource as PaymentMethodResourceSchema } from '../schemas/payment-method-resource-schema';

/** `setup_future_usage` values, in the order the API documents them (Stripe, Hyperswitch). */
export const SETUP_FUTURE_USAGES = ['on_session', 'off_session'] as const;

/** `setup_future_usage`: who will be present when the saved method is charged again. */
export type SetupFutureUsage = (typeof SETUP_FUTURE_USAGES)[number];

/** `customer_acceptance.acceptance_type` values (Hyperswitch's mandate acceptance). */
export const ACCEPTANCE_TYPES = ['online', 'offline'] as const;

/** A saved payment method as the API shows it (derived from component `SavedPaymentMethod`). */
export type PaymentMethodResource = z.output<typeof PaymentMethodResourceSchema>;

/** The end of a card's expiry month, ISO 8601 UTC (the last millisecond of its last day). */
export function cardExpiryEnd(expMonth: number, expYear: number): string {
  return new Date(Date.UTC(expYear, expMonth, 1) - 1).toISOString();
}
