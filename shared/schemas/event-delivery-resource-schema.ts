/**
 * The webhook delivery resource of `GET /events/{id}/deliveries` and `POST /events/{id}/redeliver`
 * (shared/storage/deliveries-repository.ts `publicDelivery`; its `WebhookDelivery` and
 * shared/webhooks/delivery.ts `DeliveryAttempt` are kept equal to these by a unit test).
 * docs/api.md "Webhook delivery".
 */
import * as z from 'zod';
import { idField, timestampField } from './resource-fields';

/** Delivery statuses: pending (an attempt is due), delivered (a 2xx came), failed (given up). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** Component `WebhookDeliveryAttempt`. */
export const DeliveryAttemptResource = z
  .strictObject({
    attempted_at: timestampField('When the attempt started.'),
    http_status: z.int().min(100).max(599).nullable().describe("The receiver's HTTP status; null when no answer came (see `error`)."),
    error: z
      .string()
      .nullable()
      .describe(
        'Why no usable answer came (a timeout, a system error code, the URL rules refused); null when one came. Never holds the URL.',
      ),
    duration_ms: z.int().min(0).describe('How long the attempt took, in milliseconds.'),
  })
  .meta({ id: 'WebhookDeliveryAttempt', description: 'One attempt to deliver an event to an endpoint.' });

/** Component `WebhookDelivery`. */
export const WebhookDeliveryResource = z
  .strictObject({
    webhook_endpoint_id: idField('we', 'The endpoint'),
    event_id: idField('evt', 'The event'),
    url: z.string().describe("The endpoint's URL at the last attempt."),
    status: z.enum(DELIVERY_STATUSES).describe('`pending` (an attempt is due), `delivered` (a 2xx within 15 s) or `failed` (given up).'),
    attempts: z.array(DeliveryAttemptResource).describe('Every attempt, oldest first.'),
    next_attempt_at: timestampField('When the next attempt is due.')
      .nullable()
      .describe('When the next attempt is due; null once delivered or failed.'),
    created_at: timestampField('When the delivery was created.'),
    updated_at: timestampField('When the delivery last changed.'),
  })
  .meta({
    id: 'WebhookDelivery',
    description:
      'The delivery of one event to one endpoint, at least once: retried after 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h seven times (about 3 days).',
  });
