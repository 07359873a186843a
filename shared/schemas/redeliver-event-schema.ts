/** The body of `POST /events/{event_id}/redeliver`. */
import * as z from 'zod';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';

/** Body of `POST /events/{event_id}/redeliver`: optionally one endpoint (functions/events/redeliver-event.ts). */
export const redeliverEventBodySchema = z.strictObject({
  webhook_endpoint_id: z
    .string({ error: 'must be a webhook endpoint id (we_…)' })
    .min(1)
    .max(100)
    .refine(noCardNumberInId, { error: NO_CARD_NUMBERS })
    .optional(),
});
