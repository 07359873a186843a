/** The query of `GET /disputes`, apart from the evidence body so the list handler builds only it. docs/api.md "Disputes". */
import * as z from 'zod';
import { DISPUTE_STATUSES } from '../domain/dispute-vocabulary';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';
import { listQuerySchema } from './list-query-schema';

/** `GET /disputes`: the list parameters, `dispute_status` and `payment_id` (either or both), and `created` bounds. */
export const listDisputesQuerySchema = listQuerySchema({
  dispute_status: z.enum(DISPUTE_STATUSES, { error: `must be one of ${DISPUTE_STATUSES.join(', ')}` }).optional(),
  payment_id: z
    .string({ error: 'must be a payment id (pay_…)' })
    .min(1)
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
});
