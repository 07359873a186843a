/**
 * Request schemas of the payment links API: the create body and the list query. The rules follow Stripe Payment
 * Links (https://docs.stripe.com/api/payment_links/payment_links/create) where the issue is silent: a fixed amount, or
 * a payer-chosen one between `amount_min` and `amount_max` (Paystack pages without `fixed_amount`).
 */
import * as z from 'zod';
import { CUSTOMER_FIELDS, MAX_PAYMENTS_LIMIT } from '../domain/payment-link';
import { returnUrlSchema } from './common';
import { listQuerySchema } from './list-query-schema';
import { amountSchema, currencySchema, metadataSchema, paymentMethodSchema } from './scalar-schemas';
import { text } from './text-schemas';

/** How far ahead `expires_at` may be: one year, in ms. */
export const MAX_LINK_LIFETIME_MS = 366 * 86_400_000;

/** An ISO 8601 instant in the future, at most a year ahead; normalized to ISO 8601 UTC with milliseconds. */
const expiresAtSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 timestamp (2026-12-31T23:59:59Z) of a real date and time' })
  .transform((v) => new Date(Date.parse(v)).toISOString())
  .refine((v) => Date.parse(v) > Date.now(), { error: 'must be in the future' })
  .refine((v) => Date.parse(v) <= Date.now() + MAX_LINK_LIFETIME_MS, { error: 'must be at most a year ahead' });

/** Body of `POST /payment_links`. */
export const createPaymentLinkBodySchema = z
  .strictObject({
    amount: amountSchema.optional(),
    amount_min: amountSchema.optional(),
    amount_max: amountSchema.optional(),
    currency: currencySchema,
    description: text(500).optional(),
    payment_methods: z
      .array(paymentMethodSchema)
      .min(1, { error: 'must name at least one method (or be left out for every method)' })
      .max(4)
      .refine((m) => new Set(m).size === m.length, { error: 'must not name a method twice' })
      .optional(),
    expires_at: expiresAtSchema.optional(),
    max_payments: z
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(MAX_PAYMENTS_LIMIT, { error: `must be at most ${MAX_PAYMENTS_LIMIT}` })
      .optional(),
    return_url: returnUrlSchema.optional(),
    customer_fields: z
      .array(z.enum(CUSTOMER_FIELDS, { error: `must be one of ${CUSTOMER_FIELDS.join(', ')}` }))
      .max(CUSTOMER_FIELDS.length)
      .refine((f) => new Set(f).size === f.length, { error: 'must not name a field twice' })
      .optional(),
    metadata: metadataSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const range = body.amount_min !== undefined || body.amount_max !== undefined;
    if (body.amount !== undefined && range) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount_min'],
        message: 'cannot be sent with amount: give a fixed amount, or amount_min and amount_max for the payer to choose',
      });
    } else if (body.amount === undefined && (body.amount_min === undefined || body.amount_max === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [
          body.amount_min === undefined && body.amount_max !== undefined
            ? 'amount_min'
            : body.amount_min !== undefined
              ? 'amount_max'
              : 'amount',
        ],
        message: 'is required: give amount, or amount_min and amount_max for an amount the payer chooses',
      });
    } else if (body.amount_min !== undefined && body.amount_max !== undefined && body.amount_min > body.amount_max) {
      ctx.addIssue({ code: 'custom', path: ['amount_max'], message: 'must be at least amount_min' });
    }
  });

/** Parsed `POST /payment_links` body. */
export type CreatePaymentLinkBody = z.infer<typeof createPaymentLinkBodySchema>;

/** `GET /payment_links`: the list parameters and `active` (`true` or `false`). */
export const listPaymentLinksQuerySchema = listQuerySchema({
  active: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});
