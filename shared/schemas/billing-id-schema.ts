import * as z from 'zod';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';

/**
 * An id of a billing resource given in a body or a query (`cus_…`, `pm_…`, `sub_…`): 1 to 100
 * characters, no card number in it (unless of our own id shape: ./card-number-refinement.ts); `what` names
 * it in the error (`must be a customer id (cus_…)`), never echoing the value.
 */
export const billingIdSchema = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .min(1, { error: `must be ${what}` })
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS });
