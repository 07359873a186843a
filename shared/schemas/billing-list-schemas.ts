/**
 * The queries of `GET /subscriptions` and `GET /invoices`, apart from the subscription bodies
 * (./subscription-schemas.ts), so the list handlers do not build the body schemas at import (cold start).
 */
import * as z from 'zod';
import { SUBSCRIPTION_STATUSES } from '../domain/billing-statuses';
import { billingIdSchema as idString } from './billing-id-schema';
import { listQuerySchema } from './list-query-schema';

/** `GET /subscriptions`: the list parameters, `customer_id` or `status` (not both). */
export const listSubscriptionsQuerySchema = listQuerySchema({
  customer_id: idString('a customer id (cus_…)').optional(),
  status: z.enum(SUBSCRIPTION_STATUSES, { error: `must be one of ${SUBSCRIPTION_STATUSES.join(', ')}` }).optional(),
});

/** `GET /invoices`: the list parameters and the (required) `subscription_id`. */
export const listInvoicesQuerySchema = listQuerySchema({ subscription_id: idString('a subscription id (sub_…)') });
