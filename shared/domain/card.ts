/**
 * Card rules: Luhn check, brand detection from the BIN, expiry, and the summary
 * that is the only card data ever stored or returned (last4, brand, expiry).
 * The PAN and CVC live only in memory for the duration of a connector call.
 */

/** Card details as the client sends them (PAN and CVC included: never persist this). */
export interface CardDetails {
  card_number: string;
  card_exp_month: string;
  card_exp_year: string;
  card_cvc: string;
}

/** Card brands we recognize from the leading digits. */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'verve' | 'discover' | 'unknown';

/**
 * The storable, returnable part of a card. `exp_month` is 1–12, `exp_year` four
 * digits, `fingerprint` a keyed hash of the PAN (same card, same fingerprint).
 */
export interface CardSummary {
  last4: string;
  brand: CardBrand;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
}

/** The fields of a {@link CardSummary}, in the order responses list them. */
export const CARD_SUMMARY_FIELDS: readonly (keyof CardSummary)[] = ['last4', 'brand', 'exp_month', 'exp_year', 'fingerprint'];

/**
 * Luhn (mod 10) check, ISO/IEC 7812-1 annex B.
 * @param digits a string of digits only
 * @returns true when the check digit is valid
 */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * Brand from the issuer identification number ranges published by the networks
 * (Visa 4; Mastercard 51–55 and 2221–2720; Amex 34/37; Verve 5060–5061, 6500;
 * Discover 6011, 644–649, 65).
 * @param pan the card number, digits only
 */
export function detectBrand(pan: string): CardBrand {
  const p2 = Number(pan.slice(0, 2));
  const p3 = Number(pan.slice(0, 3));
  const p4 = Number(pan.slice(0, 4));
  if (/^(5060|5061|6500)/.test(pan) && pan.length >= 16) return 'verve';
  if (pan.startsWith('4')) return 'visa';
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'mastercard';
  if (p2 === 34 || p2 === 37) return 'amex';
  if (p4 === 6011 || (p3 >= 644 && p3 <= 649) || p2 === 65) return 'discover';
  return 'unknown';
}

/**
 * Normalizes a 2- or 4-digit expiry year to four digits (`"30"` → 2030).
 */
export function fullExpiryYear(year: string): number {
  const n = Number(year);
  return year.length === 2 ? 2000 + n : n;
}

/**
 * @param month 1–12
 * @param year four digits
 * @param now the instant to compare with (default: the current time)
 * @returns true when the card's last valid day (end of its expiry month, UTC) is before `now`
 */
export function isExpired(month: number, year: number, now: Date = new Date()): boolean {
  const firstDayAfterExpiry = Date.UTC(year, month, 1); // month is 1-based: Date.UTC(y, 12) = Jan 1 of y+1
  return firstDayAfterExpiry <= now.getTime();
}

/**
 * Reduces card details to what may be stored and returned.
 * @param card validated card details (number digits only)
 * @param fingerprint the card's keyed fingerprint (see shared/security/keyed-hash.ts)
 * @returns last4, brand, expiry month (1–12), four-digit year and the fingerprint
 */
export function summarizeCard(card: CardDetails, fingerprint: string): CardSummary {
  return {
    last4: card.card_number.slice(-4),
    brand: detectBrand(card.card_number),
    exp_month: Number(card.card_exp_month),
    exp_year: fullExpiryYear(card.card_exp_year),
    fingerprint,
  };
}

const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;

/**
 * Whether free text holds something that looks like a card number: within a run
 * of digit groups (separated by single spaces or dashes), one or more
 * consecutive whole groups of 12–19 digits in total that pass Luhn — so a PAN
 * cannot hide by touching other numbers ("4242424242424242 123", "4242 4242 4242
 * 4242"). Used to keep card numbers out of free text and out of logs.
 */
export function containsCardNumber(text: string): boolean {
  return findCardNumbers(text).length > 0;
}

/**
 * The card-number-like spans in a text (see {@link containsCardNumber}), as
 * `[start, end)` character ranges of the original text.
 */
export function findCardNumbers(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const run of text.matchAll(DIGIT_RUN)) {
    const groups = [...run[0].matchAll(/\d+/g)].map((g) => ({ start: (run.index ?? 0) + (g.index ?? 0), digits: g[0] }));
    for (let i = 0; i < groups.length; i += 1) {
      let digits = '';
      for (let j = i; j < groups.length; j += 1) {
        digits += (groups[j] as { digits: string }).digits;
        if (digits.length > 19) break;
        if (digits.length >= 12 && passesLuhn(digits)) {
          const last = groups[j] as { start: number; digits: string };
          found.push([(groups[i] as { start: number }).start, last.start + last.digits.length]);
        }
      }
    }
  }
  return found;
}
