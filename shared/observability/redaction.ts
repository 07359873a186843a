import { passesLuhn } from '../domain/card';

/** What replaces a redacted value in logs. */
export const REDACTED = '[REDACTED]';

/** Keys whose values never reach a log line, matched case-insensitively wherever they appear. */
const SECRET_KEYS = new Set(['card_number', 'card_cvc', 'cvc', 'cvv', 'api-key', 'api_key', 'apikey', 'authorization', 'x-api-key']);

const PAN_CANDIDATE = /\b\d(?:[ -]?\d){11,18}\b/g;
const API_KEY = /\bsk_(test|live)_[A-Za-z0-9_-]{4,}/g;
const JSON_SECRET_FIELD = /("(?:card_number|card_cvc|cvc|cvv|api-key)"\s*:\s*)"[^"]*"/gi;

/**
 * Masks card data and keys inside free text (a raw request body, an error
 * message): `"card_number"`/`"card_cvc"` JSON fields, any 12–19 digit run that
 * passes Luhn (kept: last 4), and `sk_test_…`/`sk_live_…` keys.
 */
export function redactText(text: string): string {
  return text
    .replace(JSON_SECRET_FIELD, `$1"${REDACTED}"`)
    .replace(API_KEY, `sk_$1_${REDACTED}`)
    .replace(PAN_CANDIDATE, (match) => {
      const digits = match.replace(/[ -]/g, '');
      return passesLuhn(digits) ? `${REDACTED}${digits.slice(-4)}` : match;
    });
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
