import type { EVENT_TYPES } from '../../shared/domain/events';
import { apiHandler } from '../../shared/http/api-handler';
import { listEvents } from '../../shared/operations/events/event-operations';
import { listEventsQuerySchema } from '../../shared/schemas/event-list-schema';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /events`: `{data, has_more}`, newest first; filters `type`, `created[...]`; paging `limit`, `offset`, `starting_after`. */
export const handler = apiHandler({ query: listEventsQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listEvents(
    req.merchantId,
    req.query.list,
    req.query.filters as { type?: (typeof EVENT_TYPES)[number] },
    req.operation.listShards?.read,
  ),
}));
