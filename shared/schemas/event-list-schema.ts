/** The query of `GET /events` (one file per list, so a list handler builds only its own schema at import). */
import * as z from 'zod';
import { EVENT_TYPES } from '../domain/events';
import { listQuerySchema } from './list-query-schema';

/** `GET /events`: the list parameters and `type` (functions/events/list-events.ts). */
export const listEventsQuerySchema = listQuerySchema({
  type: z.enum(EVENT_TYPES as [string, ...string[]], { error: 'must be an event type of the catalogue (docs/api.md, Events)' }).optional(),
});
