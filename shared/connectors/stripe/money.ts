/**
 * Amounts and currencies between Switchyard and Stripe: the only place that converts to Stripe's wire unit.
 *
 * Source: https://docs.stripe.com/currencies (amounts in the currency's smallest unit; USD, NGN, KES and ZAR are
 * two-decimal currencies there, as in ISO 4217, so the minor units are the same; codes are lower-case).
 */

import { CURRENCIES, type Currency } from '../../domain/money';

/**
 * Our minor units → Stripe's `amount` (the smallest currency unit, https://docs.stripe.com/currencies).
 * For the four two-decimal currencies Stripe takes here the units are the same, so this only checks
 * the value.
 * @param minor a non-negative safe integer (cents, kobo)
 * @returns the same integer
 * @throws RangeError when `minor` is not a non-negative safe integer
 */
export function toStripeAmount(minor: number): number {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError('Amounts are non-negative integers in minor units.');
  return minor;
}

/**
 * Stripe's smallest-unit amount → our minor units (same unit for our currencies).
 * @returns the integer, or 0 when absent or not a non-negative safe integer
 */
export function fromStripeAmount(amount: number | null | undefined): number {
  return typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0 ? amount : 0;
}

/** Our ISO 4217 code → Stripe's lower-case `currency`. */
export function toStripeCurrency(currency: Currency): string {
  return currency.toLowerCase();
}

/** Our currency for Stripe's lower-case code, or null when it is none we take. */
export function fromStripeCurrency(currency: string | null | undefined): Currency | null {
  const upper = typeof currency === 'string' ? currency.toUpperCase() : '';
  return (CURRENCIES as readonly string[]).includes(upper) ? (upper as Currency) : null;
}
