import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError } from '../domain/errors';

/** Largest accepted request body: 64 KiB (decoded). */
export const MAX_BODY_BYTES = 64 * 1024;

function bodyBytes(event: APIGatewayProxyEventV2): number {
  if (!event.body) return 0;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body, 'utf8');
}

/**
 * Rejects bodies over {@link MAX_BODY_BYTES} with 413 `body_too_large`.
 * Runs before authentication so an oversized request costs no read.
 */
export function bodySizeLimit(): MiddlewareObj<APIGatewayProxyEventV2> {
  return {
    before: async (request) => {
      if (bodyBytes(request.event) > MAX_BODY_BYTES) {
        throw new ApiError(413, 'invalid_request_error', 'body_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes (64 KiB). Send a smaller body.`);
      }
    },
  };
}

/**
 * Parses a JSON body with middy's official parser; an absent or empty body is
 * taken as `{}` (so `POST /payments/{id}/cancel` needs none). Errors are left for
 * the error mapper: middy answers 415 both for a non-JSON content type and for
 * malformed JSON; the mapper tells them apart (415 vs 400 `invalid_json`).
 */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEventV2> {
  const parser = httpJsonBodyParser();
  return {
    before: async (request) => {
      const { body } = request.event;
      if (body === undefined || body === null || body === '') {
        (request.event as { body: unknown }).body = {};
        return;
      }
      await parser.before?.(request as never);
    },
  };
}
