import * as z from 'zod';
import { EVENT_TYPES, isEventType } from '../domain/events';
import { ALL_EVENTS, type EnabledEvents, WEBHOOK_ENDPOINT_STATUSES } from '../domain/webhook-endpoint';
import { text } from './text-schemas';

/** Longest accepted endpoint URL: 2048 characters. */
export const MAX_URL_LENGTH = 2048;

/** Most entries accepted in `enabled_events` (duplicates included): 100. */
export const MAX_ENABLED_EVENTS = 100;

/**
 * An endpoint URL as a string of 1–2048 characters (no card number in it: it is stored).
 * Whether the URL itself is allowed (scheme, host) is decided by
 * shared/webhooks/endpoint-url-rules.ts in the operation, since it may need a DNS lookup.
 */
const urlSchema = z.string().min(1, { error: 'must not be empty' }).pipe(text(MAX_URL_LENGTH));

/**
 * `enabled_events`: a non-empty list of event types of the catalogue
 * (shared/domain/events.ts), or `["*"]` for every type; `*` only alone. Duplicates are
 * dropped (first occurrence kept). An unknown entry fails at `enabled_events.<index>`;
 * messages list the valid types, never the value sent.
 */
export const enabledEventsSchema = z
  .array(
    z.string().refine((s) => s === ALL_EVENTS || isEventType(s), {
      error: `must be an event type (${EVENT_TYPES.join(', ')}) or "${ALL_EVENTS}"`,
    }),
  )
  .min(1, { error: `must list at least one event type, or ["${ALL_EVENTS}"] for all` })
  .max(MAX_ENABLED_EVENTS, { error: `must list at most ${MAX_ENABLED_EVENTS} entries` })
  .superRefine((events, ctx) => {
    const star = events.indexOf(ALL_EVENTS);
    if (star !== -1 && events.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [star],
        message: `"${ALL_EVENTS}" must be the only entry: it already enables every event type`,
      });
    }
  })
  .transform((events) => [...new Set(events)] as EnabledEvents);

/** `enabled` or `disabled`. */
const statusSchema = z.enum(WEBHOOK_ENDPOINT_STATUSES, { error: `must be one of ${WEBHOOK_ENDPOINT_STATUSES.join(', ')}` });

/** Body of `POST /webhook_endpoints`: `url` required; `enabled_events` (default `["*"]`) and `description` optional. */
export const createWebhookEndpointSchema = z.strictObject({
  url: urlSchema,
  enabled_events: enabledEventsSchema.optional(),
  description: text(1000).optional(),
});

/** Body of `PUT /webhook_endpoints/{id}`: `url`, `enabled_events`, `description`, `status`, all optional (null refused). */
export const updateWebhookEndpointSchema = z.strictObject({
  url: urlSchema.optional(),
  enabled_events: enabledEventsSchema.optional(),
  description: text(1000).optional(),
  status: statusSchema.optional(),
});

/** Body of `POST /webhook_endpoints/{id}/rotate_secret`: empty (an absent body counts as `{}`). */
export { emptyBodySchema as rotateSecretSchema } from './empty-body-schema';
