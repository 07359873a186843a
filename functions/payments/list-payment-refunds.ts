import { apiHandler } from '../../shared/http/api-handler';
import { listRefunds } from '../../shared/operations/refunds/list-refunds';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { plainListQuerySchema } from '../../shared/schemas/plain-list-schema';

/** `GET /payments/{payment_id}/refunds`: `{data, has_more}` of the payment's refunds, newest first. */
export const handler = apiHandler({ query: plainListQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listRefunds(req.merchantId, req.path.payment_id ?? '', req.query.list),
}));
