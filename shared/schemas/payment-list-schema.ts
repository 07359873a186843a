/** The query of `GET /payments` (one file per list, so a list handler builds only its own schema at import). */
import * as z from 'zod';
import { PAYMENT_STATUSES } from '../domain/payment-status';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';
import { listQuerySchema } from './list-query-schema';

/** `GET /payments`: the list parameters, `status`, `customer_id` or `payment_link_id` (one at most; functions/payments/list-payments.ts). */
export const listPaymentsQuerySchema = listQuerySchema({
  status: z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  customer_id: z
    .string({ error: 'must be a customer id (cus_…)' })
    .min(1, { error: 'must be a customer id (cus_…)' })
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
  payment_link_id: z
    .string({ error: 'must be a payment link id (plink_…)' })
    .min(1, { error: 'must be a payment link id (plink_…)' })
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
});
