import * as z from 'zod';
import { PAYMENT_STATUSES } from '../../shared/domain/payment-status';
import { apiHandler } from '../../shared/http/api-handler';
import { listPayments } from '../../shared/operations/payment-operations';
import { listQuerySchema, nestCreatedParams } from '../../shared/schemas/list-query-schema';

const querySchema = listQuerySchema({
  status: z.enum(PAYMENT_STATUSES, { error: `must be one of ${PAYMENT_STATUSES.join(', ')}` }).optional(),
});

/** `GET /payments`: `{data, has_more}`, newest first; filters `status`, `created[...]`; paging `limit`, `offset`, `starting_after`. */
export const handler = apiHandler({ query: querySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listPayments(req.merchantId, req.query.list, req.query.filters),
}));
