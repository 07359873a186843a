import { invalidRequest, resourceNotFound } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import {
  ALL_EVENTS,
  SECRET_ROTATION_OVERLAP_MS,
  type WebhookEndpoint,
  type WebhookEndpointFields,
  type WebhookEndpointWithSecret,
} from '../../domain/webhook-endpoint';
import {
  listWebhookEndpointIdsOldestFirst,
  listWebhookEndpoints as queryEndpoints,
  getWebhookEndpoint as readEndpoint,
  deleteWebhookEndpoint as removeEndpoint,
  createWebhookEndpoint as storeEndpoint,
  rotateWebhookEndpointSecret as storeRotation,
  updateWebhookEndpoint as writeEndpoint,
} from '../../storage/webhook-endpoints-repository';
import { answerWithSealedSecret, generateEndpointSecret, sealEndpointSecret } from '../../webhooks/endpoint-secrets';
import { checkEndpointUrl, urlRulesForStage } from '../../webhooks/endpoint-url-rules';
import { cursorItem } from '../list-cursor';

/**
 * Checks a URL against the current stage's rules (shared/webhooks/endpoint-url-rules.ts).
 * @throws ApiError 400 `parameter_invalid` (not an absolute URL) or `url_not_allowed`, param `url`;
 *   the message says what is allowed and never repeats the URL
 */
async function assertUrlAllowed(url: string): Promise<void> {
  const verdict = await checkEndpointUrl(url, urlRulesForStage());
  if (verdict.allowed) return;
  throw invalidRequest(verdict.reason === 'invalid_url' ? 'parameter_invalid' : 'url_not_allowed', verdict.message, 'url');
}

/** Most webhook endpoints a merchant can have, as Stripe: 16. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/** 400 `webhook_endpoint_limit`: the merchant already has {@link MAX_WEBHOOK_ENDPOINTS} endpoints. */
const endpointLimitReached = () =>
  invalidRequest(
    'webhook_endpoint_limit',
    `You already have ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints, the most an account can have: delete one you no longer use, ` +
      'or subscribe an existing endpoint to more event types (enabled_events).',
  );

/**
 * Registers a webhook endpoint: checks its URL, generates its signing secret (Standard
 * Webhooks `whsec_…`) and stores it sealed.
 * @param fields `url` (required), `enabled_events` (default `["*"]`), `description`
 * @returns the endpoint with `status: enabled`, `disabled_reason: null` and its `secret` — sealed
 *   in this value (so the idempotency record stores no secret in clear); the function's
 *   `revealingSecret` wrapper opens it for the client
 * The merchant may have at most {@link MAX_WEBHOOK_ENDPOINTS}: checked before the write, and again after it
 * so that concurrent creates cannot pass the cap together (of those beyond it, the newest are removed
 * again and refused; the merchant's list index is eventually consistent, so this holds once it caught up).
 * @throws ApiError 400 `url_not_allowed` / `parameter_invalid` (param `url`), `webhook_endpoint_limit`
 */
export async function createWebhookEndpoint(
  merchantId: string,
  fields: WebhookEndpointFields & { url: string },
): Promise<WebhookEndpointWithSecret> {
  await assertUrlAllowed(fields.url);
  if ((await listWebhookEndpointIdsOldestFirst(merchantId)).length >= MAX_WEBHOOK_ENDPOINTS) throw endpointLimitReached();
  const id = newId('webhookEndpoint');
  const secret = generateEndpointSecret();
  const now = new Date().toISOString();
  const endpoint = await storeEndpoint({
    webhook_endpoint_id: id,
    url: fields.url,
    enabled_events: fields.enabled_events ?? [ALL_EVENTS],
    description: fields.description ?? null,
    status: 'enabled',
    disabled_reason: null,
    created_at: now,
    updated_at: now,
    merchant_id: merchantId,
    secret_encrypted: await sealEndpointSecret(secret, id),
    previous_secret_encrypted: null,
    previous_secret_expires_at: null,
    failing_since: null,
  });
  const ids = await listWebhookEndpointIdsOldestFirst(merchantId);
  const rank = ids.indexOf(id);
  if (rank >= MAX_WEBHOOK_ENDPOINTS || (rank < 0 && ids.length >= MAX_WEBHOOK_ENDPOINTS)) {
    // A concurrent create took the last place first: this one is withdrawn (it was never answered).
    await removeEndpoint(merchantId, id);
    throw endpointLimitReached();
  }
  return answerWithSealedSecret(endpoint, secret);
}

/**
 * Reads an endpoint of the merchant (never its secret).
 * @throws ApiError 404 when it does not exist for this merchant
 */
export async function getWebhookEndpoint(merchantId: string, endpointId: string): Promise<WebhookEndpoint> {
  const endpoint = isIdOf('webhookEndpoint', endpointId) ? await readEndpoint(merchantId, endpointId) : undefined;
  if (!endpoint) throw resourceNotFound('webhook endpoint', 'webhook_endpoint_id');
  return endpoint;
}

/**
 * Sets the given fields (`url` is checked again; `status` set by the merchant clears `disabled_reason`).
 * @throws ApiError 404 when it does not exist; 400 `url_not_allowed` (param `url`)
 */
export async function updateWebhookEndpoint(
  merchantId: string,
  endpointId: string,
  fields: WebhookEndpointFields,
): Promise<WebhookEndpoint> {
  if (!isIdOf('webhookEndpoint', endpointId)) throw resourceNotFound('webhook endpoint', 'webhook_endpoint_id');
  // Checks run fields (400) → existence (404), as everywhere in the API.
  if (fields.url !== undefined) await assertUrlAllowed(fields.url);
  const endpoint = await writeEndpoint(merchantId, endpointId, fields);
  if (!endpoint) throw resourceNotFound('webhook endpoint', 'webhook_endpoint_id');
  return endpoint;
}

/**
 * Deletes an endpoint: it receives nothing afterwards; GET, PUT, DELETE and rotate of it → 404.
 * @returns `{webhook_endpoint_id, deleted: true}`
 * @throws ApiError 404 when it does not exist
 */
export async function deleteWebhookEndpoint(
  merchantId: string,
  endpointId: string,
): Promise<{ webhook_endpoint_id: string; deleted: true }> {
  const deleted = isIdOf('webhookEndpoint', endpointId) && (await removeEndpoint(merchantId, endpointId));
  if (!deleted) throw resourceNotFound('webhook endpoint', 'webhook_endpoint_id');
  return { webhook_endpoint_id: endpointId, deleted: true };
}

/**
 * Gives an endpoint a new signing secret. The old one keeps signing beside it for
 * {@link SECRET_ROTATION_OVERLAP_MS} (24 h) from now; a secret rotated out earlier and still
 * in its overlap stops signing at once (two secrets at most).
 * @param nowMs the current time, Unix epoch milliseconds (default now)
 * @returns the endpoint with its new `secret` (sealed in this value, like create's)
 * @throws ApiError 404 when it does not exist
 */
export async function rotateWebhookEndpointSecret(
  merchantId: string,
  endpointId: string,
  nowMs = Date.now(),
): Promise<WebhookEndpointWithSecret> {
  if (!isIdOf('webhookEndpoint', endpointId)) throw resourceNotFound('webhook endpoint', 'webhook_endpoint_id');
  const secret = generateEndpointSecret();
  const endpoint = await storeRotation(
    merchantId,
    endpointId,
    await sealEndpointSecret(secret, endpointId),
    new Date(nowMs).toISOString(),
    new Date(nowMs + SECRET_ROTATION_OVERLAP_MS).toISOString(),
  );
  if (!endpoint) throw resourceNotFound('webhook endpoint', 'webhook_endpoint_id');
  return answerWithSealedSecret(endpoint, secret);
}

/**
 * Lists the merchant's endpoints, newest first (no secrets).
 * @throws ApiError 400 `resource_missing` for an unknown `starting_after`
 */
export async function listWebhookEndpoints(merchantId: string, query: ListQuery): Promise<ListPage<WebhookEndpoint>> {
  const after = await cursorItem(query, 'webhookEndpoint', { noun: 'webhook endpoint', idPhrase: 'a webhook endpoint id' }, (id) =>
    readEndpoint(merchantId, id),
  );
  return queryEndpoints(merchantId, query, after);
}
