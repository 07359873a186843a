/**
 * The `Idempotency-Key` header's name and shape, apart from the idempotency layer (shared/http/idempotency.ts), so
 * every handler checks the header without loading Powertools Idempotency; only the handlers that honour the key
 * (`idempotency` in their apiHandler spec) load that at cold start.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '../domain/errors';

/** The request header carrying the idempotency key (matched case-insensitively; API Gateway lower-cases it). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

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
