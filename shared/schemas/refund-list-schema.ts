/** The query of `GET /refunds` (one file per list, so a list handler builds only its own schema at import). */
import * as z from 'zod';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';
import { listQuerySchema } from './list-query-schema';

/** `GET /refunds`: the list parameters and `payment_id` (functions/refunds/list-refunds.ts). */
export const listRefundsQuerySchema = listQuerySchema({
  payment_id: z
    .string({ error: 'must be a payment id (pay_…)' })
    .min(1, { error: 'must be a payment id (pay_…)' })
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
});
