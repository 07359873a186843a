import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  ApiError,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  invalidRequest,
  OutcomeUnknownError,
  storageUnavailable,
} from '../domain/errors';
import { logger } from '../observability/logger';
import { isStorageUnavailable } from '../storage/storage-errors';
import { jsonResponse } from './json-response';

/**
 * Maps any error to the API's error body:
 * - {@link ApiError}: its own status and body;
 * - Powertools idempotency: 422 `idempotency_key_reused` (same key, other body), 409 `idempotency_key_in_use`;
 * - a DynamoDB transaction cancelled by a concurrent one: 409 `concurrent_update` (nothing written, retry);
 * - middy's body-parser errors: 415 for a non-JSON content type, 400 `invalid_json` for malformed JSON;
 * - {@link OutcomeUnknownError} (a processor was called, its answer could not be recorded): 503 `outcome_unknown` with `Retry-After`;
 * - DynamoDB unreachable before any processor call: 503 `service_unavailable`;
 * - anything else: 500 `api_error` with a generic message, never echoed. A defect: logged at CRITICAL, the one level
 *   the test runs print (test/setup/global-setup.ts), so a 500 in any test shows its cause.
 *
 * Every answer is a {@link jsonResponse}, so it carries `Switchyard-Version` like a success does.
 */
export function toErrorResponse(err: unknown): APIGatewayProxyStructuredResultV2 {
  if (err instanceof ApiError) return jsonResponse(err.statusCode, err.toBody());
  if (err instanceof OutcomeUnknownError) {
    logger.error('processor outcome not recorded; left for the reconciler', {
      resource: err.resourceId,
      connector: err.connector,
      cause: err.cause as Error,
    });
    return jsonResponse(err.statusCode, err.toBody(), { 'Retry-After': String(err.retryAfterSeconds) });
  }
  const name = (err as { name?: string })?.name;
  if (name === 'IdempotencyValidationError') return jsonResponse(422, idempotencyKeyReused().toBody());
  if (name === 'IdempotencyAlreadyInProgressError') return jsonResponse(409, idempotencyKeyInUse().toBody());
  const http = err as { statusCode?: number; cause?: { package?: string; message?: string } };
  if (http?.cause?.package === '@middy/http-json-body-parser') {
    if (http.cause.message !== undefined) {
      return jsonResponse(
        400,
        invalidRequest(
          'invalid_json',
          'The request body is not valid JSON. Check for trailing commas, unquoted keys or truncated content.',
        ).toBody(),
      );
    }
    return jsonResponse(
      415,
      new ApiError(
        415,
        'invalid_request_error',
        'unsupported_media_type',
        'Send the body as JSON with the header content-type: application/json.',
      ).toBody(),
    );
  }
  const reasons = (err as { name?: string; CancellationReasons?: { Code?: string }[] })?.CancellationReasons;
  if (name === 'TransactionCanceledException' && reasons?.some((r) => r.Code === 'TransactionConflict')) {
    // DynamoDB cancelled a transaction because another one touched the same item at that moment.
    return jsonResponse(
      409,
      new ApiError(
        409,
        'api_error',
        'concurrent_update',
        'Another request changed this payment at the same moment; nothing was changed. Retry the request.',
      ).toBody(),
    );
  }
  if (isStorageUnavailable(err)) {
    logger.error('storage unavailable', { error: err as Error });
    return jsonResponse(503, storageUnavailable().toBody());
  }
  logger.critical('unhandled error', { error: err as Error });
  return jsonResponse(
    500,
    new ApiError(
      500,
      'api_error',
      'internal_error',
      'Something went wrong on our side. Retry later; if it persists, contact support with the request-id header.',
    ).toBody(),
  );
}

/** middy middleware: turns a thrown error into the error response and logs one line per request. */
export function errorMapper(): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  return {
    onError: async (request) => {
      const response = toErrorResponse(request.error);
      const requestId = request.event?.requestContext?.requestId;
      if (requestId) response.headers = { ...response.headers, 'request-id': requestId };
      request.response = response;
    },
  };
}
