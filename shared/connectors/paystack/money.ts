/**
 * Amounts between Switchyard and Paystack: the only place that converts to and from Paystack's wire unit.
 *
 * Source: the Charge and Refund API references (https://paystack.com/docs/api/charge/,
 * https://paystack.com/docs/api/refund/): amounts are "in the subunit of the supported currency" (kobo, pesewas,
 * cents); all five of our currencies have two decimals, so that subunit is our minor unit.
 */

/**
 * Minor units → Paystack's wire unit. Paystack amounts are "in the subunit of the supported
 * currency" (kobo, pesewas, cents; Charge and Refund API references) and all five of our
 * currencies have two decimals, so the subunit IS our minor unit: the value is checked, not scaled.
 * @param minor a non-negative safe integer
 * @throws RangeError when `minor` is not a non-negative safe integer
 */
export function toPaystackAmount(minor: number): number {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError('Amounts are non-negative integers in minor units.');
  return minor;
}

/**
 * Paystack's wire amount (a number, or a digit string in some events) → minor units.
 * @returns the integer, or null when the value is not a non-negative integer
 */
export function fromPaystackAmount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return null;
}
