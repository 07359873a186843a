/**
 * The request bodies and query of the payout routes (functions/payouts/*). Free text (description, account
 * name, metadata) goes through the card guard as every stored text does; the account number and the phone are not
 * free text: they are digits of a fixed shape, and a 10-digit Nigerian account number (NUBAN) or an E.164 phone is
 * never taken for a card number (a card number has 12 to 19 digits; a longer account number that reads as one is
 * refused, since it would be stored).
 */
import * as z from 'zod';
import { containsCardNumber } from '../domain/card';
import { MOBILE_MONEY_NETWORKS, PAYOUT_CURRENCIES, PAYOUT_STATUSES, PAYOUT_TYPES } from '../domain/payout';
import { NO_CARD_NUMBERS, noCardNumber, noCardNumberInId } from './card-number-refinement';
import { phoneSchema } from './contact-schemas';
import { countrySchema } from './country-schema';
import { listQuerySchema } from './list-query-schema';
import { amountSchema, metadataSchema, referenceIdSchema } from './scalar-schemas';
import { secret } from './secret-field';
import { text, wellFormedString } from './text-schemas';

/**
 * An account number: 6 to 20 digits (Nigeria: a 10-digit NUBAN, checked against the country below). One of 12 to 19
 * digits that reads as a card number is refused: the number is stored to send the payout, and card data is only
 * accepted in a payment's `payment_method_data.card`.
 */
const accountNumberSchema = z
  .string({ error: 'must be the account number as a string of digits' })
  .regex(/^\d{6,20}$/, { error: 'must be 6 to 20 digits with no spaces or separators' })
  .refine((v) => !containsCardNumber(v), { error: `reads as a card number: ${NO_CARD_NUMBERS}` });

/** A bank code as processors list them: 3 to 11 letters or digits (Flutterwave's `account_bank` bound). */
const bankCodeSchema = z.string({ error: 'must be the bank code as a string' }).regex(/^[0-9A-Za-z]{3,11}$/, {
  error: 'must be 3 to 11 letters or digits, e.g. 058 (the bank codes of GET /bank at Paystack or /v3/banks at Flutterwave)',
});

/** `payout_method_data.bank`. */
const bankDestinationSchema = z
  .strictObject({
    account_number: accountNumberSchema,
    bank_code: bankCodeSchema,
    country: countrySchema,
    account_name: text(200).optional(),
  })
  .superRefine((bank, ctx) => {
    if (bank.country === 'NG' && !/^\d{10}$/.test(bank.account_number)) {
      ctx.addIssue({ code: 'custom', path: ['account_number'], message: 'must be the 10-digit NUBAN for a Nigerian account' });
    }
  });

/** `merchant_connector_id`: the connector account to send from (`mca_…`); an id never carries a card number. */
const payoutConnectorIdSchema = z
  .string({ error: 'must be a connector account id (mca_…)' })
  .regex(/^mca_[0-9A-Za-z]{1,64}$/, { error: 'must be a connector account id (mca_…)' })
  .refine(noCardNumberInId, { error: NO_CARD_NUMBERS });

/** `payout_method_data.mobile_money`. */
const mobileMoneyDestinationSchema = z.strictObject({
  phone: phoneSchema,
  network: z.enum(MOBILE_MONEY_NETWORKS, { error: `must be one of ${MOBILE_MONEY_NETWORKS.join(', ')}` }),
});

/** `payout_method_data`: exactly one of `bank` or `mobile_money`, matching `payout_type`. */
const payoutMethodDataSchema = z.strictObject({
  bank: bankDestinationSchema.optional(),
  mobile_money: mobileMoneyDestinationSchema.optional(),
});

/** The merchant's own reference: 1 to 100 letters, digits, `-`, `_` or `.` (Paystack's reference alphabet and more). */
const merchantReferenceSchema = wellFormedString()
  .regex(/^[0-9A-Za-z._-]{1,100}$/, { error: 'must be 1 to 100 letters, digits, ".", "-" or "_"' })
  .refine((v) => !containsCardNumber(v), { error: NO_CARD_NUMBERS });

/** Body of `POST /payouts`. */
export const createPayoutBodySchema = z
  .strictObject({
    amount: amountSchema,
    currency: z.enum(PAYOUT_CURRENCIES, {
      error: `must be one of ${PAYOUT_CURRENCIES.join(', ')}: the currencies payouts are offered in`,
    }),
    payout_type: z.enum(PAYOUT_TYPES, { error: `must be one of ${PAYOUT_TYPES.join(', ')}` }),
    payout_method_data: payoutMethodDataSchema,
    description: wellFormedString()
      .min(1, { error: 'must not be empty: it is the narration the recipient sees' })
      .max(100, { error: 'must be at most 100 characters' })
      .refine(noCardNumber, { error: NO_CARD_NUMBERS }),
    reference: merchantReferenceSchema.optional(),
    customer_id: referenceIdSchema().optional(),
    merchant_connector_id: payoutConnectorIdSchema.optional(),
    metadata: metadataSchema.optional(),
    confirm: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .superRefine((body, ctx) => {
    const data = body.payout_method_data;
    const given = [data.bank, data.mobile_money].filter((v) => v !== undefined).length;
    if (given !== 1) {
      ctx.addIssue({ code: 'custom', path: ['payout_method_data'], message: 'must hold exactly one of bank or mobile_money' });
    } else if ((body.payout_type === 'bank') !== (data.bank !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['payout_method_data'],
        message: `must hold ${body.payout_type === 'bank' ? 'bank' : 'mobile_money'} for payout_type ${body.payout_type}`,
      });
    }
  });

/** Parsed body of `POST /payouts`. */
export type CreatePayoutBody = z.output<typeof createPayoutBodySchema>;

/** Body of `POST /payouts/{id}/authenticate`: the OTP the processor sent to the merchant (secret: never logged, stored or echoed). */
export const authenticatePayoutBodySchema = z.strictObject({
  otp: secret(
    z
      .string({ error: 'must be the one-time code as a string' })
      .regex(/^\d{4,8}$/, { error: 'must be the 4 to 8 digits of the one-time code' }),
  ),
});

/** Body of `POST /payouts/{id}/confirm` and `/cancel` (may be absent). */
export const emptyPayoutActionBodySchema = z.strictObject({});

/** Body of `POST /payouts/resolve_account`. */
export const resolveAccountBodySchema = z.strictObject({
  country: countrySchema,
  bank_code: bankCodeSchema,
  account_number: accountNumberSchema,
  merchant_connector_id: payoutConnectorIdSchema.optional(),
});

/** `GET /payouts`: the list parameters, `status` or `customer_id` (not both). */
export const listPayoutsQuerySchema = listQuerySchema({
  status: z.enum(PAYOUT_STATUSES, { error: `must be one of ${PAYOUT_STATUSES.join(', ')}` }).optional(),
  customer_id: z
    .string({ error: 'must be a customer id (cus_…)' })
    .min(1, { error: 'must be a customer id (cus_…)' })
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
});
