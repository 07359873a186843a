import { apiHandler } from '../../shared/http/api-handler';
import { listRefunds } from '../../shared/operations/refunds/list-refunds';
import { plainListQuerySchema } from '../../shared/schemas/handler-input-schemas';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /payments/{payment_id}/refunds`: `{data, has_more}` of the payment's refunds, newest first. */
export const handler = apiHandler({ query: plainListQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listRefunds(req.merchantId, req.path.payment_id ?? '', req.query.list),
}));
