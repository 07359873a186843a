import { apiHandler } from '../../shared/http/api-handler';
import { listWebhookEndpoints } from '../../shared/operations/webhook-endpoint-operations';
import { plainListQuerySchema } from '../../shared/schemas/handler-input-schemas';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /webhook_endpoints`: `{data, has_more}`, newest first (`limit`, `offset`, `starting_after`, `created[...]`); no secrets. */
export const handler = apiHandler({ query: plainListQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listWebhookEndpoints(req.merchantId, req.query.list),
}));
