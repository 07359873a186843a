/**
 * E-mail and telephone fields (customers, and the `email` filter of `GET /customers`), apart from
 * shared/schemas/common.ts (which re-exports them), so the customer handlers do not build the payment method data
 * schemas at import (cold start).
 */
import isEmail from 'validator/lib/isEmail';
import * as z from 'zod';
import { NO_CARD_NUMBERS, noCardNumber } from './card-number-refinement';

/**
 * The shape of an e-mail address the API takes, as the OpenAPI document states it (`pattern` beside
 * `format: email`): a local part of 1 to 64 characters of letters, digits, `_`, `'`, `+`, `-` and
 * dots (not first, last or doubled), then a domain of LDH labels (1–63 characters, no `-` first or
 * last) ending in an alphabetic top-level label of 2 to 63 letters. Everything it matches is also
 * accepted by `validator`'s `isEmail` (which decides), so the document never promises more than the
 * API takes; a request the document refuses is refused by the API too.
 */
export const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** `isEmail`'s options: a plain address (no display name, no IP-literal domain, no UTF-8 local part), with a top-level domain. */
const IS_EMAIL_OPTIONS = {
  allow_display_name: false,
  allow_ip_domain: false,
  allow_utf8_local_part: false,
  require_tld: true,
  ignore_max_length: false,
} as const;

/**
 * `isEmail` on what {@link EMAIL_PATTERN} lets through (zod runs every check, even after the pattern
 * failed): `isEmail` throws on a lone surrogate (`encodeURI`), and bad input is a 400, never a 5xx.
 */
function isValidEmail(s: string): boolean {
  if (!EMAIL_PATTERN.test(s)) return false;
  try {
    return isEmail(s, IS_EMAIL_OPTIONS);
  } catch {
    return false;
  }
}

/**
 * An e-mail address (at most 254 characters, RFC 5321) holding no card number: validated by the
 * `validator` package's `isEmail` (RFC 5321/5322 lengths, domain labels as DNS takes them, so
 * `ada@example-.com` is refused) within {@link EMAIL_PATTERN}, which the OpenAPI document states.
 * Built on the first request that carries it (`z.lazy`: a handler's import builds none of it).
 */
export const emailSchema = z.lazy(() =>
  z
    .email({ pattern: EMAIL_PATTERN, error: 'must be a valid e-mail address, such as ada@example.com' })
    .max(254)
    .refine(isValidEmail, { error: 'must be a valid e-mail address, such as ada@example.com' })
    .refine(noCardNumber, { error: NO_CARD_NUMBERS }),
);

/**
 * A telephone number in E.164 form: `+` then 7 to 15 digits (ITU-T E.164), which must not be a
 * card number (15 digits hold an American Express number, 14 a Diners Club one).
 * Built on the first request that carries it (`z.lazy`: a handler's import builds none of it).
 */
export const phoneSchema = z.lazy(() =>
  z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, { error: 'must be in international E.164 format: + followed by 7 to 15 digits, e.g. +2348012345678' })
    .refine(noCardNumber, {
      error: 'must be a telephone number, not a card number: card data is only accepted in payment_method_data.card',
    }),
);
