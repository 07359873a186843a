import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { WebhookEndpointWithSecret } from '../domain/webhook-endpoint';
import { openEndpointSecret, SEALED_IN_ANSWER } from '../webhooks/endpoint-secrets';
import { toErrorResponse } from './error-mapper';

/**
 * Wraps a Lambda handler whose answers may carry a sealed secret (see
 * `answerWithSealedSecret` (shared/webhooks/endpoint-secrets.ts)) so the client receives it in clear. Errors and answers
 * without a sealed `secret` pass through unchanged.
 * @param handler the middy handler built by `apiHandler`
 * @returns a handler with the same signature
 */
export function revealingSecret<E, C>(
  handler: (event: E, context: C) => Promise<APIGatewayProxyStructuredResultV2>,
): (event: E, context: C) => Promise<APIGatewayProxyStructuredResultV2> {
  return async (event, context) => {
    const result = await handler(event, context);
    if (result.statusCode !== 200 || typeof result.body !== 'string' || !result.body.includes(SEALED_IN_ANSWER)) return result;
    const body = JSON.parse(result.body) as Partial<WebhookEndpointWithSecret>;
    if (typeof body.secret !== 'string' || !body.secret.startsWith(SEALED_IN_ANSWER) || typeof body.webhook_endpoint_id !== 'string')
      return result;
    try {
      body.secret = await openEndpointSecret(body.secret.slice(SEALED_IN_ANSWER.length), body.webhook_endpoint_id);
    } catch (err) {
      // The stage's key changed between the answer and its replay (or a fault): a JSON 500, logged without the secret.
      const mapped = toErrorResponse(err);
      return { ...mapped, headers: { ...(result.headers ?? {}), ...(mapped.headers ?? {}) } };
    }
    return { ...result, body: JSON.stringify(body) };
  };
}
