/**
 * What Switchyard routes to Stripe, apart from the adapter's transformers so the capability table
 * (shared/connectors/capabilities.ts) is built without loading them.
 */
import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';

/**
 * Currencies Switchyard routes to Stripe (docs/connectors.md "Support matrix": card; USD, NGN, KES, ZAR).
 * GHS is deliberately absent.
 */
export const STRIPE_CURRENCIES: readonly Currency[] = ['USD', 'NGN', 'KES', 'ZAR'];

/** Payment methods Switchyard routes to Stripe (docs/connectors.md "Support matrix": card only). */
export const STRIPE_PAYMENT_METHODS: readonly PaymentMethod[] = ['card'];

/**
 * Whether Stripe takes a payment in this currency with this method.
 * @returns true only for a card payment in USD, NGN, KES or ZAR
 */
export function stripeSupports(currency: Currency, paymentMethod: PaymentMethod): boolean {
  return STRIPE_CURRENCIES.includes(currency) && STRIPE_PAYMENT_METHODS.includes(paymentMethod);
}
