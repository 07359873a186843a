import * as z from 'zod';
import { EVENT_TYPES } from '../../shared/domain/events';
import { apiHandler } from '../../shared/http/api-handler';
import { listEvents } from '../../shared/operations/event-operations';
import { listQuerySchema, nestCreatedParams } from '../../shared/schemas/list-query-schema';

const querySchema = listQuerySchema({
  type: z.enum(EVENT_TYPES as [string, ...string[]], { error: 'must be an event type of the catalogue (docs/api.md, Events)' }).optional(),
});

/** `GET /events`: `{data, has_more}`, newest first; filters `type`, `created[...]`; paging `limit`, `offset`, `starting_after`. */
export const handler = apiHandler({ query: querySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listEvents(req.merchantId, req.query.list, req.query.filters as { type?: (typeof EVENT_TYPES)[number] }),
}));
