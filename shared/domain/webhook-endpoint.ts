import type { EventType } from './events';

/** Statuses of a webhook endpoint: `enabled` receives events, `disabled` receives none. */
export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;

/** One of {@link WEBHOOK_ENDPOINT_STATUSES}. */
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** The `enabled_events` entry that subscribes an endpoint to every event type (only ever alone). */
export const ALL_EVENTS = '*';

/** What an endpoint subscribes to: event types of the catalogue (shared/domain/events.ts), or `["*"]` for all. */
export type EnabledEvents = EventType[] | [typeof ALL_EVENTS];

/**
 * A webhook endpoint as the API returns it (never with its secret, except in the
 * answers of create and rotate_secret: see {@link WebhookEndpointWithSecret}): `webhook_endpoint_id`
 * (`we_…`), `url`, `enabled_events`, `description`, `status`, `disabled_reason` (why the system
 * disabled it, else null), timestamps ISO 8601 UTC with milliseconds. Component `WebhookEndpoint`
 * (shared/schemas/webhook-endpoint-resource-schema.ts).
 */
export interface WebhookEndpoint {
  webhook_endpoint_id: string;
  url: string;
  enabled_events: EnabledEvents;
  description: string | null;
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The answer of `POST /webhook_endpoints` and `POST /webhook_endpoints/{id}/rotate_secret`:
 * the endpoint with its signing secret in clear, `whsec_` + base64 of 32 random bytes
 * (Standard Webhooks symmetric secret format, https://www.standardwebhooks.com). Shown only
 * in these two answers; the table keeps it encrypted (shared/webhooks/endpoint-secrets.ts).
 */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

/** The answer of `DELETE /webhook_endpoints/{id}`: `{webhook_endpoint_id, deleted: true}`. */
export interface DeletedWebhookEndpoint {
  webhook_endpoint_id: string;
  deleted: true;
}

/**
 * An endpoint as stored, for the delivery worker: the API fields plus its sealed signing
 * secrets (never in clear). Open them with `signingSecrets()` in
 * shared/webhooks/endpoint-secrets.ts.
 */
export interface StoredWebhookEndpoint extends WebhookEndpoint {
  merchant_id: string;
  /** The current secret, sealed: base64 of iv (12 bytes) ‖ AES-256-GCM ciphertext ‖ tag (16 bytes). */
  secret_encrypted: string;
  /** The secret before the last rotation, sealed the same way; null when never rotated. */
  previous_secret_encrypted: string | null;
  /** ISO 8601 UTC: until when the previous secret still signs (rotation + 24 h); null when none. */
  previous_secret_expires_at: string | null;
  /** ISO 8601 UTC: since when every delivery to it has failed (the 5-day disable rule); null when its last attempt succeeded. */
  failing_since: string | null;
  /**
   * ISO 8601 UTC: until when the endpoint counts as slow (its deliveries go through its merchant's
   * slow lanes: shared/webhooks/delivery-endpoint-health.ts); absent or null when it never was.
   */
  slow_until?: string | null;
}

/** Fields a client sets on create (`url` required there) or update (all optional). */
export interface WebhookEndpointFields {
  url?: string;
  enabled_events?: EnabledEvents;
  description?: string;
  status?: WebhookEndpointStatus;
}

/** The fields of a {@link WebhookEndpoint}, in the order responses list them. */
export const WEBHOOK_ENDPOINT_FIELDS: readonly (keyof WebhookEndpoint)[] = [
  'webhook_endpoint_id',
  'url',
  'enabled_events',
  'description',
  'status',
  'disabled_reason',
  'created_at',
  'updated_at',
];

/** How long a rotated-out secret keeps signing beside the new one: 24 h, in milliseconds. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Whether an endpoint should receive an event of `type`: it is enabled and lists the type
 * (or `*`). The delivery worker's filter.
 */
export function endpointReceives(endpoint: Pick<WebhookEndpoint, 'status' | 'enabled_events'>, type: EventType): boolean {
  if (endpoint.status !== 'enabled') return false;
  return (endpoint.enabled_events as readonly string[]).some((e) => e === ALL_EVENTS || e === type);
}
