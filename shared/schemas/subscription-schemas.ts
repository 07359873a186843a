/** The bodies of `POST /subscriptions` and `PUT /subscriptions/{subscription_id}` (the list queries: ./billing-list-schemas.ts). */
import * as z from 'zod';
import { BILLING_INTERVALS, MAX_INTERVAL_COUNT } from '../domain/billing-period';
import { billingIdSchema as idString } from './billing-id-schema';
import { amountSchema, currencySchema, metadataSchema } from './scalar-schemas';

/**
 * Body of `POST /subscriptions`. A period (`interval_count` × `interval`) is at most one year: 365 days,
 * 52 weeks, 12 months or 1 year (Stripe's bound).
 */
export const createSubscriptionBodySchema = z
  .strictObject({
    customer_id: idString('a customer id (cus_…)'),
    payment_method_id: idString("a saved payment method id (pm_…) of the customer's"),
    amount: amountSchema,
    currency: currencySchema,
    interval: z.enum(BILLING_INTERVALS, { error: `must be one of ${BILLING_INTERVALS.join(', ')}` }),
    interval_count: z
      .int({ error: 'must be a whole number of intervals' })
      .min(1, { error: 'must be at least 1' })
      .max(365, { error: 'must be at most 365' })
      .default(1),
    trial_period_days: z
      .int({ error: 'must be a whole number of days' })
      .min(1, { error: 'must be at least 1' })
      .max(730, { error: 'must be at most 730' })
      .optional(),
    metadata: metadataSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.interval_count > MAX_INTERVAL_COUNT[body.interval]) {
      ctx.addIssue({
        code: 'custom',
        path: ['interval_count'],
        message: `must be at most ${MAX_INTERVAL_COUNT[body.interval]} for interval ${body.interval}: a period is at most one year`,
      });
    }
  });

/** Parsed `POST /subscriptions` body. */
export type CreateSubscriptionBody = z.infer<typeof createSubscriptionBodySchema>;

/** Body of `PUT /subscriptions/{subscription_id}`: every field optional. */
export const updateSubscriptionBodySchema = z.strictObject({
  payment_method_id: idString("a saved payment method id (pm_…) of the customer's").optional(),
  cancel_at_period_end: z.boolean({ error: 'must be true or false' }).optional(),
  metadata: metadataSchema.optional(),
});

/** Parsed `PUT /subscriptions/{subscription_id}` body. */
export type UpdateSubscriptionBody = z.infer<typeof updateSubscriptionBodySchema>;
