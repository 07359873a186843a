import isEmail from 'validator/lib/isEmail';
import * as z from 'zod';
import { containsCardNumber, fullExpiryYear, isExpired, passesLuhn } from '../domain/card';
import { USSD_BANK_CODES } from '../domain/ussd-banks';
import { WELL_FORMED_TEXT, WELL_FORMED_TEXT_MESSAGE } from '../domain/well-formed-text';
import { isDeployedStage } from '../webhooks/endpoint-url-rules';
import { NO_CARD_NUMBERS, noCardNumber, text, wellFormedString } from './scalar-schemas';

// Re-exported from their zod-free home, so modules needing only the rule (shared/http/request-body.ts, in every
// handler) do not build this file's schemas at import (issue 27).
export { isWellFormedText, WELL_FORMED_TEXT, WELL_FORMED_TEXT_MESSAGE } from '../domain/well-formed-text';
export { amountSchema, currencySchema, paymentMethodSchema, text } from './scalar-schemas';

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
 */
export const emailSchema = z
  .email({ pattern: EMAIL_PATTERN, error: 'must be a valid e-mail address, such as ada@example.com' })
  .max(254)
  .refine(isValidEmail, { error: 'must be a valid e-mail address, such as ada@example.com' })
  .refine(noCardNumber, { error: NO_CARD_NUMBERS });

/**
 * A telephone number in E.164 form: `+` then 7 to 15 digits (ITU-T E.164), which must not be a
 * card number (15 digits hold an American Express number, 14 a Diners Club one).
 */
export const phoneSchema = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, { error: 'must be in international E.164 format: + followed by 7 to 15 digits, e.g. +2348012345678' })
  .refine(noCardNumber, { error: 'must be a telephone number, not a card number: card data is only accepted in payment_method_data.card' });

/** The ids this service hands out (shared/domain/ids.ts): a prefix, `_`, 32 lowercase hex digits. */
const OWN_ID_SHAPE = /^[a-z]{2,3}_[0-9a-f]{32}$/;

/**
 * An id the caller gives in a body to refer to one of its resources (e.g. `customer_id`): a
 * string of at most `max` characters holding no card number. An id of exactly our own shape
 * (`cus_` + 32 hex digits) is not searched: random hex holds a digit run that reads as a card
 * number about 4 times in 10,000 (test/unit/card-detector.test.ts), which would refuse real
 * customers; such an id that does not exist is answered as unknown, and neither stored nor
 * repeated.
 */
export const referenceIdSchema = (max = 100) =>
  wellFormedString()
    .max(max, { error: `must be at most ${max} characters` })
    .refine((s) => OWN_ID_SHAPE.test(s) || noCardNumber(s), { error: NO_CARD_NUMBERS });

/**
 * Metadata: at most 50 keys, keys of 1–40 characters, string values of at most
 * 500 characters, no card number, NUL or lone surrogate in a key or a value. A `__proto__` key is refused
 * (it could not be kept as given).
 */
export const metadataSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: 'must not use the key __proto__' });
    }
  })
  .pipe(
    z
      .record(
        wellFormedString()
          .min(1, { error: 'keys must not be empty' })
          .max(40, { error: 'keys must be at most 40 characters' })
          .refine(noCardNumber, { error: NO_CARD_NUMBERS }),
        z
          .string({ error: 'values must be strings' })
          .regex(WELL_FORMED_TEXT, { error: WELL_FORMED_TEXT_MESSAGE })
          .max(500, { error: 'values must be at most 500 characters' })
          .refine(noCardNumber, { error: NO_CARD_NUMBERS }),
      )
      .refine((m) => Object.keys(m).length <= 50, { error: 'must have at most 50 keys' }),
  );

/**
 * ISO 3166-1 alpha-2 country codes (officially assigned), from the ISO 3166
 * Maintenance Agency's list.
 */
const ISO_3166_ALPHA2 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
    'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
    'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
    'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
    'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** An ISO 3166-1 alpha-2 country code, upper case (e.g. NG, GH, KE, ZA). */
export const countrySchema = z
  .string()
  .refine((c) => ISO_3166_ALPHA2.has(c), { error: 'must be an ISO 3166-1 alpha-2 country code in upper case, e.g. NG' });

/** The billing object of a payment: `{address: {first_name, …, country}}`. */
export const billingSchema = z.strictObject({
  address: z
    .strictObject({
      first_name: text(200).optional(),
      last_name: text(200).optional(),
      line1: text(200).optional(),
      city: text(200).optional(),
      state: text(200).optional(),
      zip: text(40).optional(),
      country: countrySchema.optional(),
    })
    .optional(),
});

/**
 * Card details: number of 12–19 digits passing Luhn, month 01–12, 2- or 4-digit
 * year, CVC of 3–4 digits, and an expiry that is not in the past.
 */
export const cardSchema = z
  .strictObject({
    card_number: z
      .string()
      .regex(/^\d{12,19}$/, { error: 'must be 12 to 19 digits with no spaces' })
      .refine(passesLuhn, { error: 'is not a valid card number (Luhn check failed)' }),
    card_exp_month: z.string().regex(/^(0?[1-9]|1[0-2])$/, { error: 'must be a month from 01 to 12' }),
    card_exp_year: z.string().regex(/^(\d{2}|\d{4})$/, { error: 'must be a 2- or 4-digit year' }),
    card_cvc: z.string().regex(/^\d{3,4}$/, { error: 'must be 3 or 4 digits' }),
  })
  .superRefine((card, ctx) => {
    const year = fullExpiryYear(card.card_exp_year);
    if (year < new Date().getUTCFullYear()) {
      ctx.addIssue({ code: 'custom', path: ['card_exp_year'], message: 'is in the past: the card has expired' });
    } else if (isExpired(Number(card.card_exp_month), year)) {
      ctx.addIssue({ code: 'custom', path: ['card_exp_month'], message: 'is in the past: the card has expired' });
    }
  });

/**
 * `ussd`: the payer's bank for a USSD payment, by its Nigerian (CBN/NIBSS) bank code (one of
 * {@link USSD_BANK_CODES}; the banks each processor serves are listed in docs/connectors.md).
 */
export const ussdDataSchema = z.strictObject({
  bank_code: z.enum(USSD_BANK_CODES as [string, ...string[]], { error: `must be one of ${USSD_BANK_CODES.join(', ')} (CBN bank codes)` }),
});

/**
 * `payment_method_data`: exactly one of `{card: {...}}` (card details, never stored) or
 * `{ussd: {bank_code}}` (the payer's bank for USSD).
 */
export const paymentMethodDataSchema = z
  .strictObject({ card: cardSchema.optional(), ussd: ussdDataSchema.optional() })
  .superRefine((data, ctx) => {
    const given = [data.card, data.ussd].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'must hold exactly one of card or ussd' });
  });

/** Parsed `payment_method_data`. */
export type PaymentMethodData = z.infer<typeof paymentMethodDataSchema>;

/**
 * A `return_url`: where Switchyard sends the payer (303) once they come back from a 3DS page, a
 * processor's hosted page or an authentication step, with `payment_id` and `status` added to its
 * query. An absolute URL of at most 2,048 characters without credentials; `https:` on deployed
 * stages (`STAGE` set and not `local`), `http:` also allowed on the local stack. No card number
 * in it, as written or percent-decoded.
 */
export const returnUrlSchema = wellFormedString()
  .max(2048, { error: 'must be at most 2048 characters' })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an absolute URL such as https://shop.example.com/checkout/done' });
      return;
    }
    const allowed = isDeployedStage() ? ['https:'] : ['https:', 'http:'];
    if (!allowed.includes(url.protocol)) {
      ctx.addIssue({ code: 'custom', message: `must use ${allowed.join(' or ')}` });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
    } else if (containsCardNumber(value) || containsCardNumber(percentDecoded(value))) {
      ctx.addIssue({ code: 'custom', message: NO_CARD_NUMBERS });
    }
  });

/** A URL with its percent-escapes decoded (`%34%32…` spells digits), or as given when it cannot be decoded. */
function percentDecoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
