import type { ListShards } from '../storage/list-shards';

/** Per-request facts an operation may need that do not come from the body. */
export interface RequestContext {
  merchantId: string;
  /**
   * The merchant's list shard counts, from its API key (shared/http/authentication.ts): lists read
   * `read` shards, items created by the request go to one of `write` shards (docs/sharding.md).
   * Undefined without a request (reconciler, connector webhooks, payer pages): one shard for new
   * items, while changes to an existing payment or refund use the count kept on it.
   */
  listShards?: ListShards;
  /** Public base URL of the API, for redirect URLs. */
  publicBaseUrl: string;
  /** The request's `Idempotency-Key`, when sent: created resources take ids derived from it. */
  idempotencyKey?: string;
  /**
   * Epoch ms by which processor calls must have ended so the answer still reaches the
   * client (API Gateway stops waiting at 30 s; the Lambda's own timeout). A call still
   * running then is abandoned: its outcome is unknown and left to the reconciler.
   * Undefined: no budget beyond each processor's own timeout (the reconciler).
   */
  deadlineMs?: number;
}

/**
 * API Gateway HTTP APIs end an integration after 30 000 ms
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html).
 */
export const API_GATEWAY_TIMEOUT_MS = 30_000;

/** Time kept back from the budget for the writes and the answer after the last processor call: 3 000 ms. */
export const ANSWER_RESERVE_MS = 3_000;

/**
 * The processor-call deadline of an API request: the smaller of API Gateway's limit
 * and the Lambda's remaining time, less {@link ANSWER_RESERVE_MS}.
 * @param remainingMs the Lambda context's `getRemainingTimeInMillis()`
 * @returns epoch ms
 */
export function requestDeadline(remainingMs: number, nowMs = Date.now()): number {
  return nowMs + Math.min(remainingMs, API_GATEWAY_TIMEOUT_MS) - ANSWER_RESERVE_MS;
}
