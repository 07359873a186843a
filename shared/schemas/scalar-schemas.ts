/**
 * The scalar field schemas most request bodies share (amounts, currencies, methods, reference ids, metadata;
 * free text is in ./text-schemas.ts, for the bodies that need only it), apart from the
 * larger ones of shared/schemas/common.ts (payment method data, addresses, e-mail), which re-exports these: a handler
 * whose body holds only scalars (refund, capture, cancel) builds only these at import.
 */
import * as z from 'zod';
import { CURRENCIES, MAX_AMOUNT, MIN_AMOUNT } from '../domain/money';
import { PAYMENT_METHODS } from '../domain/payment';
import { WELL_FORMED_TEXT, WELL_FORMED_TEXT_MESSAGE } from '../domain/well-formed-text';
import { NO_CARD_NUMBERS, noCardNumber, noCardNumberInId } from './card-number-refinement';
import { wellFormedString } from './text-schemas';

/** An amount in minor units: an integer from 1 to 99,999,999,999. */
export const amountSchema = z
  .int({ error: 'must be an integer amount in minor units (for example 10000 for 100.00)' })
  .min(MIN_AMOUNT, { error: `must be at least ${MIN_AMOUNT} (minor units)` })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT} (minor units)` });

/** Upper-case ISO 4217 code among the supported currencies. */
export const currencySchema = z.enum(CURRENCIES, { error: `must be one of ${CURRENCIES.join(', ')}` });

/** One of card, bank_transfer, ussd, mobile_money. */
export const paymentMethodSchema = z.enum(PAYMENT_METHODS, { error: `must be one of ${PAYMENT_METHODS.join(', ')}` });

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
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS });

/**
 * Metadata: at most 50 keys, keys of 1–40 characters, string values of at most
 * 500 characters, no card number, NUL or lone surrogate in a key or a value. A `__proto__` key is refused
 * (it could not be kept as given).
 * Built on the first request that carries it (`z.lazy`: a handler's import builds none of it).
 */
export const metadataSchema = z.lazy(() =>
  z
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
    ),
);
