import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { API_VERSION, API_VERSION_HEADER } from '../api/api-version';

/**
 * A payload-format-2.0 Lambda result with a JSON body, `content-type: application/json` and
 * `Switchyard-Version: <API_VERSION>` (shared/api/api-version.ts): every JSON answer of the API, success
 * and error alike, names the version that produced it. The header is part of the result, so an answer
 * stored for Idempotency-Key replay is replayed with the version it was produced under.
 * @param statusCode the HTTP status
 * @param body any JSON-serialisable value (serialised with `JSON.stringify`)
 * @param headers headers to add; they override the defaults
 */
export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', [API_VERSION_HEADER]: API_VERSION, ...headers },
    body: JSON.stringify(body),
  };
}
