import * as z from 'zod';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';
import { emailSchema, phoneSchema } from './contact-schemas';
import { metadataSchema } from './scalar-schemas';
import { text } from './text-schemas';

/**
 * Body of `POST /customers` and `PUT /customers/{id}`: every field optional. Every field is
 * stored, so none may hold a card number (`email`, `name`, `phone`, `description`, metadata
 * keys and values; shared/schemas/common.ts): such a body is refused with a 400 whose `param`
 * names the field and whose message never repeats the value.
 */
export const customerBodySchema = z.strictObject({
  email: emailSchema.optional(),
  name: text(256).optional(),
  phone: phoneSchema.optional(),
  description: text(1000).optional(),
  metadata: metadataSchema.optional(),
});

/**
 * Body of `POST /customers`: {@link customerBodySchema} and `test_clock` (non-prod stages, Stripe's test clocks:
 * the customer, its subscriptions and its payment methods then live by that clock; it cannot be changed later).
 */
export const createCustomerBodySchema = customerBodySchema.extend({
  test_clock: z
    .string({ error: 'must be a test clock id (clock_…)' })
    .min(1, { error: 'must be a test clock id (clock_…)' })
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
});
