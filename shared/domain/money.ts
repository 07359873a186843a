/**
 * Money rules of the payment domain. Every amount in Switchyard is an integer
 * in minor units (kobo for NGN, cents for USD, pesewas for GHS, cents for ZAR and KES);
 * no float ever carries money.
 */

/** ISO 4217 codes the service accepts. */
export const CURRENCIES = ['NGN', 'USD', 'GHS', 'ZAR', 'KES'] as const;

/** One of {@link CURRENCIES}. */
export type Currency = (typeof CURRENCIES)[number];

/** Smallest accepted amount, in minor units. */
export const MIN_AMOUNT = 1;

/** Largest accepted amount, in minor units (99,999,999,999: below 2^53, so exact in JSON numbers). */
export const MAX_AMOUNT = 99_999_999_999;

/**
 * What can still be refunded on a payment.
 * @param amountCaptured minor units captured (the refund ceiling)
 * @param amountRefunded minor units already refunded or reserved by pending refunds
 * @returns the refundable remainder in minor units, never negative
 */
export function refundableAmount(amountCaptured: number, amountRefunded: number): number {
  return Math.max(0, amountCaptured - amountRefunded);
}

/** Why {@link checkRefundAmount} refused an amount. */
export type RefundAmountProblem = 'nothing_left' | 'exceeds_refundable';

/**
 * Decides the amount of a new refund.
 * @param requested the caller's `amount` in minor units, or undefined for "all that is left"
 * @param amountCaptured minor units captured on the payment
 * @param amountRefunded minor units already refunded (including pending refunds)
 * @returns `{ok: true, amount}` with the amount to refund, or `{ok: false, problem, refundable}`
 *   when nothing is left or the request exceeds the refundable remainder.
 */
export function checkRefundAmount(
  requested: number | undefined,
  amountCaptured: number,
  amountRefunded: number,
): { ok: true; amount: number } | { ok: false; problem: RefundAmountProblem; refundable: number } {
  const refundable = refundableAmount(amountCaptured, amountRefunded);
  if (refundable === 0) return { ok: false, problem: 'nothing_left', refundable };
  const amount = requested ?? refundable;
  if (amount > refundable) return { ok: false, problem: 'exceeds_refundable', refundable };
  return { ok: true, amount };
}

/**
 * An amount for people to read, e.g. `NGN 1,500.00` for 150000: every supported currency has two
 * decimal places (ISO 4217 minor unit 2), formatted with integer arithmetic (no float).
 * @param amount minor units (a non-negative integer)
 */
export function formatMinorUnits(amount: number, currency: Currency): string {
  return `${currency} ${Math.floor(amount / 100).toLocaleString('en')}.${String(amount % 100).padStart(2, '0')}`;
}
