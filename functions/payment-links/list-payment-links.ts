import { apiHandler } from '../../shared/http/api-handler';
import { listPaymentLinks } from '../../shared/operations/payment-links/payment-link-operations';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { listPaymentLinksQuerySchema } from '../../shared/schemas/payment-link-schemas';

/** `GET /payment_links`: `{data, has_more}`, newest first; filter `active`, `created[...]`; paging as every list. */
export const handler = apiHandler({ query: listPaymentLinksQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listPaymentLinks(req.merchantId, req.query.list, req.query.filters),
}));
