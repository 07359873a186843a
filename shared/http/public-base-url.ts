import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/**
 * The API's public base URL as the client reached it, from an API Gateway
 * payload-2.0 event: `X-Forwarded-Proto` (API Gateway and the local gateway set
 * it), the domain name, and the stage path unless it is `$default`.
 * @returns e.g. `https://abc123.execute-api.eu-west-1.amazonaws.com` or `http://127.0.0.1:3000`
 */
export function publicBaseUrl(event: APIGatewayProxyEventV2): string {
  const proto = event.headers?.['x-forwarded-proto'] ?? 'https';
  const stage = event.requestContext.stage && event.requestContext.stage !== '$default' ? `/${event.requestContext.stage}` : '';
  return `${proto}://${event.requestContext.domainName}${stage}`;
}
