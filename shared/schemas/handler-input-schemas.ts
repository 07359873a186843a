/**
 * The query-string schemas (and one body schema) of the handlers in functions/ that have no
 * schema module of their own. The handlers import them from here and the OpenAPI generator
 * (scripts/openapi.ts, through shared/api/openapi-operations.ts) documents the same objects, so
 * the validation and the contract cannot drift. Schemas outside the list family live in files of their own
 * (force-sync-schema.ts, customer-list-schema.ts, redeliver-event-schema.ts), so a handler builds only what it uses
 * at import (issue 27).
 */
import * as z from 'zod';
import { EVENT_TYPES } from '../domain/events';
import { PAYMENT_STATUSES } from '../domain/payment-status';
import { listQuerySchema } from './list-query-schema';

/** `GET /payments`: the list parameters, `status` or `customer_id` (not both; functions/payments/list-payments.ts). */
export const listPaymentsQuerySchema = listQuerySchema({
  status: z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
  customer_id: z.string({ error: 'must be a customer id (cus_…)' }).min(1, { error: 'must be a customer id (cus_…)' }).max(100).optional(),
});

/** `GET /events`: the list parameters and `type` (functions/events/list-events.ts). */
export const listEventsQuerySchema = listQuerySchema({
  type: z.enum(EVENT_TYPES as [string, ...string[]], { error: 'must be an event type of the catalogue (docs/api.md, Events)' }).optional(),
});

/** `GET /refunds`: the list parameters and `payment_id` (issue 26; functions/refunds/list-refunds.ts). */
export const listRefundsQuerySchema = listQuerySchema({
  payment_id: z.string({ error: 'must be a payment id (pay_…)' }).min(1, { error: 'must be a payment id (pay_…)' }).max(100).optional(),
});

/** `GET /payments/{payment_id}/refunds` and `GET /webhook_endpoints`: the list parameters only. */
export const plainListQuerySchema = listQuerySchema({});
