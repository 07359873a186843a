import { z } from 'zod';
import { containsCardNumber, passesLuhn, fullExpiryYear, isExpired } from '../domain/card';
import { CURRENCIES, MAX_AMOUNT, MIN_AMOUNT } from '../domain/money';
import { PAYMENT_METHODS } from '../domain/payment';

const NO_CARD_NUMBERS = 'must not contain a card number: card data is only accepted in payment_method_data.card';

/** An amount in minor units: an integer from 1 to 99,999,999,999. */
export const amountSchema = z
  .int({ error: 'must be an integer amount in minor units (for example 10000 for 100.00)' })
  .min(MIN_AMOUNT, { error: `must be at least ${MIN_AMOUNT} (minor units)` })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT} (minor units)` });

/** Upper-case ISO 4217 code among the supported currencies. */
export const currencySchema = z.enum(CURRENCIES, { error: `must be one of ${CURRENCIES.join(', ')}` });

/** One of card, bank_transfer, ussd, mobile_money. */
export const paymentMethodSchema = z.enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` });

/** An e-mail address (at most 254 characters, RFC 5321). */
export const emailSchema = z
  .email({ error: 'must be a valid e-mail address' })
  .max(254)
  .refine((s) => !containsCardNumber(s), { error: 'must not contain a card number' });

/** A telephone number in E.164 form: `+` then 7 to 15 digits (ITU-T E.164). */
export const phoneSchema = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, { error: 'must be in international E.164 format: + followed by 7 to 15 digits, e.g. +2348012345678' });

/** Free text of at most `max` characters, which must not carry a card number (it would be stored). */
export const text = (max: number) =>
  z
    .string()
    .max(max, { error: `must be at most ${max} characters` })
    .refine((s) => !containsCardNumber(s), { error: NO_CARD_NUMBERS });

/**
 * Metadata: at most 50 keys, keys of 1–40 characters, string values of at most
 * 500 characters. A `__proto__` key is refused (it could not be kept as given).
 */
export const metadataSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: 'must not use the key __proto__' });
    }
  })
  .pipe(
    z.record(
    z
      .string()
      .min(1, { error: 'keys must not be empty' })
      .max(40, { error: 'keys must be at most 40 characters' })
      .refine((s) => !containsCardNumber(s), { error: NO_CARD_NUMBERS }),
    z
      .string({ error: 'values must be strings' })
      .max(500, { error: 'values must be at most 500 characters' })
      .refine((s) => !containsCardNumber(s), { error: NO_CARD_NUMBERS }),
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

/** `payment_method_data`: currently only `{card: {...}}`. */
export const paymentMethodDataSchema = z.strictObject({ card: cardSchema });
