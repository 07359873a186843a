import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** A payload-format-2.0 Lambda result with a JSON body and `content-type: application/json`. */
export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return { statusCode, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
