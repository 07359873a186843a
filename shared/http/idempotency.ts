import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import type { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import stableStringify from 'safe-stable-stringify';
import { maskCardData, maskCardNumbers } from '../domain/card-mask';
import { logger } from '../observability/logger';
import { keyedHash } from '../security/keyed-hash';
import { SpreadIdempotencyPersistence } from '../storage/idempotency-persistence';
import { IDEMPOTENCY_HEADER } from './idempotency-key';

/** How long a stored response is replayed: 24 hours. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** The response header set on a replayed response. */
const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * What makes two requests "the same request": the merchant, the route
 * (`requestContext.routeKey`, e.g. `POST /payments/{payment_id}/refunds`), the
 * decoded path parameters and the key — never `rawPath`, so `/payments/` and
 * `/payments`, or `pay_…` and `%70ay_…`, are one request when API Gateway routes
 * them alike. The selection is the keyed hash {@link idempotencyScope} (set on
 * `requestContext.authorizer.lambda.idempotency_scope` by {@link idempotentRequests}):
 * the key and the path are caller input, and Powertools would store an unkeyed
 * hash of its selection. Evaluates to null without the header, so requests
 * without a key skip idempotency entirely. Powertools' default would hash the
 * whole event (headers, timestamps), which never repeats.
 */
export const IDEMPOTENCY_KEY_JMESPATH = `headers."${IDEMPOTENCY_HEADER}" && requestContext.authorizer.lambda.idempotency_scope`;

/**
 * The scope of an Idempotency-Key: a keyed hash (HMAC, see shared/security/keyed-hash.ts) of
 * the merchant (put on `requestContext.authorizer.lambda.merchant_id` by the api-key
 * middleware), the route key, the decoded path parameters (as API Gateway passes them in
 * payload 2.0; keys sorted) and the key.
 * @returns undefined when the request carries no Idempotency-Key
 */
export async function idempotencyScope(event: APIGatewayProxyEventV2): Promise<string | undefined> {
  const key = event.headers?.[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  const merchantId =
    (event.requestContext as { authorizer?: { lambda?: { merchant_id?: unknown } } }).authorizer?.lambda?.merchant_id ?? null;
  return keyedHash(`idempotency:${stableStringify([merchantId, event.requestContext.routeKey, event.pathParameters ?? {}, key])}`);
}

/**
 * The response as it is answered and stored for replay: card numbers masked in every string
 * of the JSON body (parsed, masked value by value, serialised again only when something was
 * masked) and in every header value. A response should never hold card data; this makes sure
 * no Idempotency record (kept 24 hours) ever does.
 */
export function maskedResponse(response: APIGatewayProxyStructuredResultV2): APIGatewayProxyStructuredResultV2 {
  let body = response.body;
  if (typeof body === 'string' && body !== '') {
    try {
      const parsed: unknown = JSON.parse(body);
      const masked = maskCardData(parsed);
      if (stableStringify(masked) !== stableStringify(parsed)) body = JSON.stringify(masked);
    } catch {
      body = maskCardNumbers(body);
    }
  }
  const headers = response.headers
    ? Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k, typeof v === 'string' ? maskCardNumbers(v) : v]))
    : undefined;
  return { ...response, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) };
}

let persistence: DynamoDBPersistenceLayer | undefined;

function persistenceLayer(): DynamoDBPersistenceLayer {
  // One partition per record in the single table (shared/storage/idempotency-persistence.ts);
  // `expires_at` is the table's TTL attribute.
  persistence ??= new SpreadIdempotencyPersistence();
  return persistence;
}

/** Options of {@link idempotentRequests}. */
export interface IdempotentRequestOptions {
  /**
   * What two requests under one key are compared by, from the request: by default its body as received (JSON
   * routes: the parsed body, see {@link idempotentRequests}). `POST /files` gives its parsed multipart parts
   * (names, file names, content types, SHA-256 digests), so a retry whose client drew a new multipart boundary is
   * the same request. Only called for requests that carry an Idempotency-Key. May throw an API error (the request
   * is then refused and nothing is stored).
   */
  payload?: (event: APIGatewayProxyEventV2) => unknown;
}

/**
 * Idempotent `POST`s with Powertools for AWS Lambda's idempotency utility and
 * its DynamoDB persistence layer: the first request's status and body are
 * stored once it has run and replayed for 24 hours (with `Idempotent-Replayed:
 * true`) to a retry with the same key and body (compared by a keyed hash of the
 * parsed body — or of what `options.payload` gives, see {@link IdempotentRequestOptions} — so no unkeyed hash of a
 * card number is ever stored; the key's scope is
 * {@link idempotencyScope}: merchant, route key, decoded path parameters); the response is masked
 * of card numbers before it is answered and stored ({@link maskedResponse}); the same key with another body
 * fails (`IdempotencyValidationError` → 422); a retry while the first still
 * runs fails (`IdempotencyAlreadyInProgressError` → 409). Responses of any
 * status the handler returned are stored (a 409 or 400 from the domain is an
 * answer); thrown errors (storage down, bugs) store nothing, so a retry runs again.
 *
 * Written around Powertools' middy middleware rather than used bare for one
 * reason: its `onError` deletes the idempotency record unconditionally, also
 * when its own `before` threw because the record belongs to ANOTHER request
 * (in progress, or a body mismatch) — which would erase the first request's
 * lock or its stored answer. This wrapper only lets `onError` run for a record
 * this invocation created.
 */
export function idempotentRequests(
  options: IdempotentRequestOptions = {},
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: IDEMPOTENCY_KEY_JMESPATH,
    // A keyed hash of the body (set in `before`), never the body: a request body can hold a PAN,
    // and Powertools would store an unkeyed hash of it.
    payloadValidationJmesPath: 'requestContext.authorizer.lambda.body_hmac',
    throwOnNoIdempotencyKey: false,
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    responseHook: (response) => {
      const r = response as unknown as APIGatewayProxyStructuredResultV2;
      return { ...r, headers: { ...(r.headers ?? {}), [REPLAYED_HEADER]: 'true' } } as never;
    },
  });
  let inner: ReturnType<typeof makeHandlerIdempotent> | undefined;
  const middleware = () => {
    inner ??= makeHandlerIdempotent({ persistenceStore: persistenceLayer(), config });
    return inner;
  };
  const OWNS = 'switchyard.ownsIdempotencyRecord';
  return {
    before: async (request) => {
      const scope = await idempotencyScope(request.event);
      // Without an Idempotency-Key nothing is stored or replayed: Powertools is not asked (its JMESPath search would
      // find no key), and `after` neither masks nor stores (~0.1 ms a request saved; docs/benchmarks.md "Speed per invocation").
      if (scope === undefined) return undefined;
      const context = request.event.requestContext as { authorizer?: { lambda?: Record<string, unknown> } };
      context.authorizer = {
        ...context.authorizer,
        lambda: {
          ...context.authorizer?.lambda,
          idempotency_scope: scope,
          body_hmac: await keyedHash(
            `body:${stableStringify(options.payload ? await options.payload(request.event) : (request.event.body ?? null))}`,
          ),
        },
      };
      const result = await middleware().before?.(request as never);
      if (result !== undefined) return result; // replay of a stored response
      (request.internal as Record<string, unknown>)[OWNS] = true;
      return undefined;
    },
    after: async (request) => {
      if (!(request.internal as Record<string, unknown>)[OWNS]) return;
      // What is answered is what is stored: masked of card numbers (see maskedResponse).
      if (request.response) request.response = maskedResponse(request.response);
      try {
        await middleware().after?.(request as never);
      } catch (err) {
        // The work is done and its answer computed; only storing it for replay failed (storage down).
        // Answer it anyway: replacing it with a 503 would tell the client nothing happened. The record
        // stays in progress until its expiry; a retry then runs again and finds what this one created
        // (ids derived from the key, claims), so nothing is charged or refunded twice.
        logger.error('idempotency record could not be completed; the answer is sent unstored', { error: err as Error });
      }
    },
    onError: async (request) => {
      if (!(request.internal as Record<string, unknown>)[OWNS]) return;
      try {
        await middleware().onError?.(request as never);
      } catch (err) {
        // Deleting the in-progress record failed (storage down): the request's own error is what the
        // client must see (mapped to a JSON error), not this one. The key is usable again once the
        // record's in-progress expiry (this invocation's remaining time) has passed.
        logger.warn('idempotency record could not be released after an error', { error: err as Error });
      }
    },
  };
}
