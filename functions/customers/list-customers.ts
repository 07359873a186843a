import { apiHandler } from '../../shared/http/api-handler';
import { listCustomers } from '../../shared/operations/customer-operations';
import { emailSchema } from '../../shared/schemas/common';
import { listQuerySchema, nestCreatedParams } from '../../shared/schemas/list-query-schema';

const querySchema = listQuerySchema({ email: emailSchema.optional() });

/** `GET /customers`: `{data, has_more}`, newest first; filter `email` (exact, case-insensitive), `created[...]`. */
export const handler = apiHandler({ query: querySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listCustomers(req.merchantId, req.query.list, req.query.filters),
}));
