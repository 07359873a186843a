import * as z from 'zod';

/**
 * An id of a billing resource given in a body or a query (`cus_…`, `pm_…`, `sub_…`): 1 to 100
 * characters; `what` names it in the error (`must be a customer id (cus_…)`), never echoing the value.
 */
export const billingIdSchema = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .min(1, { error: `must be ${what}` })
    .max(100);
