import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { authenticationFailed } from '../domain/errors';
import { type ApiKeyRecord, findApiKey, touchApiKey } from '../storage/api-keys-repository';
import type { ListShards } from '../storage/list-shards';
import type { MerchantRateLimits } from '../storage/rate-limit-repository';

/** How long a key lookup is remembered in the function's memory: revocation takes effect within this bound. */
export const API_KEY_CACHE_MS = Number(process.env.API_KEY_CACHE_SECONDS ?? 10) * 1000;

const cache = new Map<string, { record: ApiKeyRecord | undefined; until: number }>();

/** The merchant a request acts for, set by {@link apiKeyAuth}. */
export interface AuthenticatedContext extends Context {
  merchantId: string;
  /**
   * The merchant's list shard counts, from its API-key item as cached (so at most
   * {@link API_KEY_CACHE_MS} old): lists read `read` shards, new items go to `write` (docs/sharding.md).
   */
  listShards: ListShards;
  /**
   * The merchant's own rate limits (requests per second per class; an absent class uses the stage
   * default), from its API-key item as cached, so a change takes effect within {@link API_KEY_CACHE_MS}:
   * read by the rate-limit middleware (shared/http/rate-limit.ts, docs/rate-limits.md) at no extra read.
   */
  rateLimits: MerchantRateLimits;
}

async function lookup(key: string): Promise<ApiKeyRecord | undefined> {
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) return hit.record;
  const record = await findApiKey(key);
  const recentlyUsed = record?.last_used_at && Date.now() - Date.parse(record.last_used_at) < 60_000;
  if (record && !record.revoked_at && !recentlyUsed) await touchApiKey(key);
  if (API_KEY_CACHE_MS > 0) cache.set(key, { record, until: Date.now() + API_KEY_CACHE_MS });
  if (cache.size > 1000) cache.delete(cache.keys().next().value as string);
  return record;
}

/**
 * Authenticates the `api-key` header: one read of the key's hash (cached for
 * {@link API_KEY_CACHE_MS}, so a revocation takes effect within that bound),
 * then puts the owning merchant, its list shard counts and its rate limits on the context. On a cache miss it also notes
 * the key's last use (a conditional write, at most once a minute).
 * @throws ApiError 401 `invalid_api_key`, the same body for a missing, malformed, unknown or revoked key
 */
export function apiKeyAuth(): MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, AuthenticatedContext> {
  return {
    before: async (request) => {
      const key = request.event.headers?.['api-key'];
      if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) throw authenticationFailed();
      const record = await lookup(key);
      if (!record || record.revoked_at) throw authenticationFailed();
      request.context.merchantId = record.merchant_id;
      request.context.listShards = record.list_shards;
      request.context.rateLimits = record.rate_limits;
      // Where a Lambda authorizer would put it, so event-level tools (idempotency keys) can scope by merchant.
      (request.event.requestContext as { authorizer?: unknown }).authorizer = { lambda: { merchant_id: record.merchant_id } };
    },
  };
}
