import { IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency/middleware';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import stableStringify from 'safe-stable-stringify';
import { ApiError } from '../domain/errors';
import { logger } from '../observability/logger';
import { keyedHash } from '../security/keyed-hash';
import { baseClient } from '../storage/client';
import { TABLE_DEFINITION, tableName } from '../storage/table-definition';

/** How long a stored response is replayed: 24 hours. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** The request header carrying the idempotency key (matched case-insensitively; API Gateway lower-cases it). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The response header set on a replayed response. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * What makes two requests "the same request": the merchant (put on
 * `requestContext.authorizer.lambda.merchant_id` by the api-key middleware),
 * the route, the concrete path and the key. Evaluates to null without the
 * header, so requests without a key skip idempotency entirely. Powertools'
 * default would hash the whole event (headers, timestamps), which never repeats.
 */
export const IDEMPOTENCY_KEY_JMESPATH =
  `headers."${IDEMPOTENCY_HEADER}" && [requestContext.authorizer.lambda.merchant_id, requestContext.routeKey, rawPath, headers."${IDEMPOTENCY_HEADER}"]`;

/**
 * Checks the `Idempotency-Key` header: 1–255 printable ASCII characters.
 * @throws ApiError 400 `idempotency_key_invalid` otherwise
 */
export function checkIdempotencyKeyHeader(event: APIGatewayProxyEventV2): void {
  const key = event.headers?.[IDEMPOTENCY_HEADER];
  if (key !== undefined && !/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new ApiError(
      400,
      'invalid_request_error',
      'idempotency_key_invalid',
      'The Idempotency-Key header must be 1 to 255 printable ASCII characters (a UUID is a good choice).',
      'Idempotency-Key',
    );
  }
}

let persistence: DynamoDBPersistenceLayer | undefined;

function persistenceLayer(): DynamoDBPersistenceLayer {
  // Records live in the single table: PK = "idempotency#<function name>", SK = hash of the key
  // selection; `expires_at` is the table's TTL attribute.
  persistence ??= new DynamoDBPersistenceLayer({
    tableName: tableName(),
    keyAttr: TABLE_DEFINITION.partitionKey.name,
    sortKeyAttr: TABLE_DEFINITION.sortKey.name,
    expiryAttr: TABLE_DEFINITION.timeToLiveAttribute,
    awsSdkV3Client: baseClient(),
  });
  return persistence;
}

/**
 * Idempotent `POST`s with Powertools for AWS Lambda's idempotency utility and
 * its DynamoDB persistence layer: the first request's status and body are
 * stored once it has run and replayed for 24 hours (with `Idempotent-Replayed:
 * true`) to a retry with the same key and body (compared by a keyed hash of the
 * parsed body, so no unkeyed hash of a card number is ever stored); the same key with another body
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
export function idempotentRequests(): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
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
  const middleware = () => (inner ??= makeHandlerIdempotent({ persistenceStore: persistenceLayer(), config }));
  const OWNS = 'switchyard.ownsIdempotencyRecord';
  return {
    before: async (request) => {
      if (request.event.headers?.[IDEMPOTENCY_HEADER] !== undefined) {
        const context = request.event.requestContext as { authorizer?: { lambda?: Record<string, unknown> } };
        context.authorizer = { ...context.authorizer, lambda: { ...context.authorizer?.lambda, body_hmac: await keyedHash(`body:${stableStringify(request.event.body ?? null)}`) } };
      }
      const result = await middleware().before?.(request as never);
      if (result !== undefined) return result; // replay of a stored response
      (request.internal as Record<string, unknown>)[OWNS] = true;
      return undefined;
    },
    after: async (request) => {
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
