import { apiHandler } from '../../shared/http/api-handler';
import { listWebhookEndpoints } from '../../shared/operations/events/webhook-endpoint-operations';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { plainListQuerySchema } from '../../shared/schemas/plain-list-schema';

/** `GET /webhook_endpoints`: `{data, has_more}`, newest first (`limit`, `offset`, `starting_after`, `created[...]`); no secrets. */
export const handler = apiHandler({ query: plainListQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listWebhookEndpoints(req.merchantId, req.query.list),
}));
