/** The query of `GET /payments` (one file per list, so a list handler builds only its own schema at import). */
import * as z from 'zod';
import { PAYMENT_STATUSES } from '../domain/payment-status';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';
import { listQuerySchema } from './list-query-schema';

/** `GET /payments`: the list parameters, `status` or `customer_id` (not both; functions/payments/list-payments.ts). */
export const listPaymentsQuerySchema = listQuerySchema({
  status: z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  customer_id: z
    .string({ error: 'must be a customer id (cus_…)' })
    .min(1, { error: 'must be a customer id (cus_…)' })
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
});
