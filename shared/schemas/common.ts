import * as z from 'zod';
import { containsCardNumber, fullExpiryYear, isExpired, passesLuhn } from '../domain/card';
import { USSD_BANK_CODES } from '../domain/ussd-banks';
import { isDeployedStage } from '../settings/deployed-stage';
import { NO_CARD_NUMBERS } from './card-number-refinement';
import { countrySchema } from './country-schema';
import { secret } from './secret-field';
import { text, wellFormedString } from './text-schemas';

// Re-exported from their zod-free home, so modules needing only the rule (shared/http/request-body.ts, in every
// handler) do not build this file's schemas at import.
export { isWellFormedText, WELL_FORMED_TEXT, WELL_FORMED_TEXT_MESSAGE } from '../domain/well-formed-text';
export { amountSchema, currencySchema, metadataSchema, paymentMethodSchema, referenceIdSchema } from './scalar-schemas';
export { text } from './text-schemas';
export { countrySchema };

/** The billing object of a payment: `{address: {first_name, …, country}}`. Built on the first request that carries it (`z.lazy`: a handler's import builds none of it). */
export const billingSchema = z.lazy(() =>
  z.strictObject({
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
  }),
);

/**
 * Card details: number of 12–19 digits passing Luhn, month 01–12, 2- or 4-digit
 * year, CVC of 3–4 digits, and an expiry that is not in the past.
 * Built on the first request that carries it (`z.lazy`: a handler's import builds none of it).
 */
export const cardSchema = z.lazy(() =>
  z
    .strictObject({
      card_number: secret(
        z
          .string()
          .regex(/^\d{12,19}$/, { error: 'must be 12 to 19 digits with no spaces' })
          .refine(passesLuhn, { error: 'is not a valid card number (Luhn check failed)' }),
      ),
      card_exp_month: z.string().regex(/^(0?[1-9]|1[0-2])$/, { error: 'must be a month from 01 to 12' }),
      card_exp_year: z.string().regex(/^(\d{2}|\d{4})$/, { error: 'must be a 2- or 4-digit year' }),
      card_cvc: secret(z.string().regex(/^\d{3,4}$/, { error: 'must be 3 or 4 digits' })),
    })
    .superRefine((card, ctx) => {
      const year = fullExpiryYear(card.card_exp_year);
      if (year < new Date().getUTCFullYear()) {
        ctx.addIssue({ code: 'custom', path: ['card_exp_year'], message: 'is in the past: the card has expired' });
      } else if (isExpired(Number(card.card_exp_month), year)) {
        ctx.addIssue({ code: 'custom', path: ['card_exp_month'], message: 'is in the past: the card has expired' });
      }
    }),
);

/**
 * `ussd`: the payer's bank for a USSD payment, by its Nigerian (CBN/NIBSS) bank code (one of
 * {@link USSD_BANK_CODES}; the banks each processor serves are listed in docs/connectors.md).
 * Built on the first request that carries it (`z.lazy`: a handler's import builds none of it).
 */
export const ussdDataSchema = z.lazy(() =>
  z.strictObject({
    bank_code: z.enum(USSD_BANK_CODES as [string, ...string[]], { error: `must be one of ${USSD_BANK_CODES.join(', ')} (CBN bank codes)` }),
  }),
);

/**
 * `payment_method_data`: exactly one of `{card: {...}}` (card details, never stored) or
 * `{ussd: {bank_code}}` (the payer's bank for USSD).
 * Built on the first request that carries it (`z.lazy`: a handler's import builds none of it).
 */
export const paymentMethodDataSchema = z.lazy(() =>
  z.strictObject({ card: cardSchema.optional(), ussd: ussdDataSchema.optional() }).superRefine((data, ctx) => {
    const given = [data.card, data.ussd].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'must hold exactly one of card or ussd' });
  }),
);

/** Parsed `payment_method_data`. */
export type PaymentMethodData = z.infer<typeof paymentMethodDataSchema>;

/**
 * A `return_url`: where Switchyard sends the payer (303) once they come back from a 3DS page, a
 * processor's hosted page or an authentication step, with `payment_id` and `status` added to its
 * query. An absolute URL of at most 2,048 characters without credentials; `https:` on deployed
 * stages (`STAGE` set and not `local`), `http:` also allowed on the local stack. No card number
 * in it, as written or percent-decoded.
 * Built on the first request that carries it (`z.lazy`: a handler's import builds none of it).
 */
export const returnUrlSchema = z.lazy(() =>
  wellFormedString()
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
    }),
);

/** A URL with its percent-escapes decoded (`%34%32…` spells digits), or as given when it cannot be decoded. */
function percentDecoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
