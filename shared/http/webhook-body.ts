import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The body of a webhook request as text, exactly as the processor sent it. API Gateway HTTP APIs
 * (payload 2.0) pass a body whose content type is not text base64-encoded with
 * `isBase64Encoded: true`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html);
 * signatures are over the sent bytes, so those are decoded back to the bytes, then read as UTF-8
 * (processors send JSON, which is UTF-8: RFC 8259 §8.1). Bytes that are not UTF-8 are read as
 * U+FFFD, so a body signature over them does not verify (401); Flutterwave's `verif-hash` does not
 * cover the body, and its events are re-read from Flutterwave before anything is applied.
 */
export function webhookRawBody(event: Pick<APIGatewayProxyEventV2, 'body' | 'isBase64Encoded'>): string {
  const raw = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
}
