/**
 * The webhook endpoint resource as the API answers it, with and without its signing secret, and
 * the answer of its deletion: the one definition of their shape. shared/domain/webhook-endpoint.ts
 * derives `WebhookEndpoint` and `WebhookEndpointWithSecret` from them (`import type`).
 * docs/api.md "Webhook endpoints".
 */
import * as z from 'zod';
import { EVENT_TYPES, type EventType } from '../domain/events';
import { ALL_EVENTS, WEBHOOK_ENDPOINT_STATUSES } from '../domain/webhook-endpoint';
import { deletedAnswer, idField, nullableText, timestampField } from './resource-fields';

/** Component `EventType`: every type of the event catalogue (shared/domain/events.ts). */
export const EventTypeResource = z.enum(EVENT_TYPES as [EventType, ...EventType[]]).meta({
  id: 'EventType',
  description: 'A type of the event catalogue (docs/api.md, "Events").',
});

/** `enabled_events`: catalogue types, or `["*"]` for every type. */
export const EnabledEventsResource = z
  .union([
    z.array(EventTypeResource).min(1).describe('The event types the endpoint receives.'),
    z.tuple([z.literal(ALL_EVENTS)]).describe('`["*"]`: every event type.'),
  ])
  .meta({ id: 'EnabledEvents', description: 'The event types sent to the endpoint: a list of catalogue types, or `["*"]` for all.' });

/** Component `WebhookEndpoint` (never with its secret). */
export const WebhookEndpointResource = z
  .strictObject({
    webhook_endpoint_id: idField('we', 'The endpoint'),
    url: z.string().describe('Where events are POSTed (https only on deployed stages).'),
    enabled_events: EnabledEventsResource,
    description: nullableText('Description, or null.'),
    status: z.enum(WEBHOOK_ENDPOINT_STATUSES).describe('`enabled` receives events; `disabled` receives none.'),
    disabled_reason: nullableText(
      'Why the system disabled the endpoint (its deliveries failed for 5 days, or it answered 410); null when enabled or disabled by you.',
    ),
    created_at: timestampField('When the endpoint was created (it receives no event from before).'),
    updated_at: timestampField('When the endpoint last changed.'),
  })
  .meta({
    id: 'WebhookEndpoint',
    description:
      'Where Switchyard sends your events, signed the Standard Webhooks way (https://www.standardwebhooks.com). Its secret is shown only when it is created or rotated.',
  });

/** Component `WebhookEndpointWithSecret`: the answer of create and rotate_secret. */
export const WebhookEndpointWithSecretResource = WebhookEndpointResource.extend({
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
    .describe(
      'The signing secret: `whsec_` then the base64 of 32 random bytes (Standard Webhooks format). Shown only in this answer: store it now. Pass it as is to `new Webhook(secret)` of the `standardwebhooks` package.',
    ),
}).meta({
  id: 'WebhookEndpointWithSecret',
  description: 'A webhook endpoint with its signing `secret`: the answer of create and `rotate_secret` only.',
});

/** Component `DeletedWebhookEndpoint`: `{webhook_endpoint_id, deleted: true}`. */
export const DeletedWebhookEndpointResource = deletedAnswer('webhook_endpoint_id', 'we', 'webhook endpoint', 'DeletedWebhookEndpoint');
