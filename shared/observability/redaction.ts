import { findCardNumbers } from '../domain/card';

/** What replaces a redacted value in logs. */
export const REDACTED = '[REDACTED]';

/** Keys whose values never reach a log line, matched case-insensitively wherever they appear. */
const SECRET_KEYS = new Set(['card_number', 'card_cvc', 'cvc', 'cvv', 'pin', 'otp', 'api-key', 'api_key', 'apikey', 'authorization', 'x-api-key']);

const API_KEY = /\bsk_(test|live)_[A-Za-z0-9_-]{4,}/g;
const JSON_SECRET_FIELD = /("(?:card_number|card_cvc|cvc|cvv|pin|otp|api-key)"\s*:\s*)"[^"]*"/gi;
/** The same fields in an `application/x-www-form-urlencoded` body (the hosted step page's form). */
const FORM_SECRET_FIELD = /(^|[&?])(card_number|card_cvc|cvc|cvv|pin|otp)=[^&\s"]*/gi;

/**
 * Masks card data and keys inside free text (a raw request body, an error
 * message): `"card_number"`/`"card_cvc"`/`"pin"`/`"otp"` JSON fields and form fields, any 12–19 digit window
 * that passes Luhn, and `sk_test_…`/`sk_live_…` keys.
 */
export function redactText(text: string): string {
  const masked = text
    .replace(JSON_SECRET_FIELD, `$1"${REDACTED}"`)
    .replace(FORM_SECRET_FIELD, `$1$2=${REDACTED}`)
    .replace(API_KEY, `sk_$1_${REDACTED}`);
  const ranges = findCardNumbers(masked);
  if (ranges.length === 0) return masked;
  const chars = [...masked];
  // Mask every digit of every card-number window (covers overlapping windows).
  for (const [start, end] of ranges) for (let i = start; i < end; i += 1) if (/\d/.test(chars[i] as string)) chars[i] = '*';
  return chars.join('').replace(/\*(?:[ -]?\*)+/g, REDACTED);
}

/**
 * The JSON replacer Powertools Logger runs on every log record
 * (`jsonReplacerFn`): drops the values of secret keys (`card_number`,
 * `card_cvc`, the `api-key` header …) at any depth and masks card numbers and
 * keys in every string.
 */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key && SECRET_KEYS.has(key.toLowerCase())) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  return value;
}
