/**
 * The route table: every HTTP route of the API, the handler module that serves
 * it, and what that handler may do to the table. The one source read by the
 * local gateway (scripts/local/gateway.ts) and by the CDK stack (lib/).
 */

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Table access a handler needs: drives least-privilege IAM in the stack.
 * `read`: reads and queries; `reconcile`: reads plus conditional updates and the event written with a
 * status change (retrieve with force_sync);
 * `write`: everything the write paths use.
 */
export type TableAccess = 'read' | 'reconcile' | 'write';

/** One route: `METHOD path` (API Gateway syntax, `{name}` for a path parameter) → handler module. */
export interface RouteDefinition {
  method: HttpMethod;
  path: string;
  /** Handler module path from the repository root; it exports `handler`. */
  entry: string;
  /** A short PascalCase name, unique: the Lambda function's logical name. */
  name: string;
  access: TableAccess;
  /** Whether the `api-key` header is required (documentation; enforced in the handler). */
  auth: boolean;
  /** Whether the handler calls connectors (gets the processors' keys and the routing rules). */
  connectors: boolean;
}

/** Every route of the API. */
export const ROUTES: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/payments',
    entry: 'functions/payments/create-payment.ts',
    name: 'CreatePayment',
    access: 'write',
    auth: true,
    connectors: true,
  },
  {
    method: 'GET',
    path: '/payments',
    entry: 'functions/payments/list-payments.ts',
    name: 'ListPayments',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/payments/{payment_id}',
    entry: 'functions/payments/get-payment.ts',
    name: 'GetPayment',
    access: 'reconcile',
    auth: true,
    connectors: true,
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/confirm',
    entry: 'functions/payments/confirm-payment.ts',
    name: 'ConfirmPayment',
    access: 'write',
    auth: true,
    connectors: true,
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/authenticate',
    entry: 'functions/payments/authenticate-payment.ts',
    name: 'AuthenticatePayment',
    access: 'write',
    auth: true,
    connectors: true,
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/cancel',
    entry: 'functions/payments/cancel-payment.ts',
    name: 'CancelPayment',
    access: 'write',
    auth: true,
    connectors: true,
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/capture',
    entry: 'functions/payments/capture-payment.ts',
    name: 'CapturePayment',
    access: 'write',
    auth: true,
    connectors: true,
  },
  {
    method: 'POST',
    path: '/payments/{payment_id}/refund',
    entry: 'functions/payments/refund-payment.ts',
    name: 'RefundPayment',
    access: 'write',
    auth: true,
    connectors: true,
  },
  {
    method: 'GET',
    path: '/payments/{payment_id}/refunds',
    entry: 'functions/payments/list-payment-refunds.ts',
    name: 'ListPaymentRefunds',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/refunds/{refund_id}',
    entry: 'functions/refunds/get-refund.ts',
    name: 'GetRefund',
    access: 'reconcile',
    auth: true,
    connectors: true,
  },
  {
    method: 'POST',
    path: '/customers',
    entry: 'functions/customers/create-customer.ts',
    name: 'CreateCustomer',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/customers',
    entry: 'functions/customers/list-customers.ts',
    name: 'ListCustomers',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/customers/{customer_id}',
    entry: 'functions/customers/get-customer.ts',
    name: 'GetCustomer',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'PUT',
    path: '/customers/{customer_id}',
    entry: 'functions/customers/update-customer.ts',
    name: 'UpdateCustomer',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'DELETE',
    path: '/customers/{customer_id}',
    entry: 'functions/customers/delete-customer.ts',
    name: 'DeleteCustomer',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'POST',
    path: '/webhook_endpoints',
    entry: 'functions/webhook-endpoints/create-webhook-endpoint.ts',
    name: 'CreateWebhookEndpoint',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/webhook_endpoints',
    entry: 'functions/webhook-endpoints/list-webhook-endpoints.ts',
    name: 'ListWebhookEndpoints',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/webhook_endpoints/{webhook_endpoint_id}',
    entry: 'functions/webhook-endpoints/get-webhook-endpoint.ts',
    name: 'GetWebhookEndpoint',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'PUT',
    path: '/webhook_endpoints/{webhook_endpoint_id}',
    entry: 'functions/webhook-endpoints/update-webhook-endpoint.ts',
    name: 'UpdateWebhookEndpoint',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'DELETE',
    path: '/webhook_endpoints/{webhook_endpoint_id}',
    entry: 'functions/webhook-endpoints/delete-webhook-endpoint.ts',
    name: 'DeleteWebhookEndpoint',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'POST',
    path: '/webhook_endpoints/{webhook_endpoint_id}/rotate_secret',
    entry: 'functions/webhook-endpoints/rotate-webhook-endpoint-secret.ts',
    name: 'RotateWebhookEndpointSecret',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/events',
    entry: 'functions/events/list-events.ts',
    name: 'ListEvents',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/events/{event_id}',
    entry: 'functions/events/get-event.ts',
    name: 'GetEvent',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/events/{event_id}/deliveries',
    entry: 'functions/events/list-event-deliveries.ts',
    name: 'ListEventDeliveries',
    access: 'read',
    auth: true,
    connectors: false,
  },
  {
    method: 'POST',
    path: '/events/{event_id}/redeliver',
    entry: 'functions/events/redeliver-event.ts',
    name: 'RedeliverEvent',
    access: 'write',
    auth: true,
    connectors: false,
  },
  {
    method: 'GET',
    path: '/health',
    entry: 'functions/health/get-health.ts',
    name: 'GetHealth',
    access: 'read',
    auth: false,
    connectors: false,
  },
  {
    method: 'POST',
    path: '/webhooks/{connector}',
    entry: 'functions/webhooks/receive-webhook.ts',
    name: 'ReceiveWebhook',
    access: 'write',
    auth: false,
    connectors: true,
  },
  {
    method: 'GET',
    path: '/pay/{payment_id}/authenticate',
    entry: 'functions/pay/authentication-page.ts',
    name: 'AuthenticationPage',
    access: 'read',
    auth: false,
    connectors: false,
  },
  {
    method: 'POST',
    path: '/pay/{payment_id}/authenticate',
    entry: 'functions/pay/submit-authentication-page.ts',
    name: 'SubmitAuthenticationPage',
    access: 'write',
    auth: false,
    connectors: true,
  },
  {
    method: 'GET',
    path: '/pay/{payment_id}/return',
    entry: 'functions/pay/payer-return.ts',
    name: 'PayerReturn',
    access: 'reconcile',
    auth: false,
    connectors: true,
  },
  {
    method: 'GET',
    path: '/sandbox/{kind}/{payment_id}',
    entry: 'functions/sandbox/hosted-page.ts',
    name: 'SandboxHostedPage',
    access: 'read',
    auth: false,
    connectors: false,
  },
  {
    method: 'POST',
    path: '/sandbox/{kind}/{payment_id}',
    entry: 'functions/sandbox/complete-hosted-page.ts',
    name: 'SandboxCompletePage',
    access: 'read',
    auth: false,
    connectors: false,
  },
];

/** The catch-all (`$default` in API Gateway): any unmatched method/path answers 404 in the API's error shape. */
export const FALLBACK_ROUTE = { entry: 'functions/not-found.ts', name: 'NotFound' } as const;

/** A route matched against a concrete request. */
export interface RouteMatch {
  route: RouteDefinition;
  /** `METHOD path` as API Gateway writes `routeKey`. */
  routeKey: string;
  pathParameters: Record<string, string>;
}

/**
 * Finds the route for a request the way API Gateway HTTP APIs match: exact
 * method, path segments equal or filling a `{param}` (one non-empty segment each).
 * @param path the request path without query string, e.g. `/payments/pay_123`
 * @returns the match, or undefined (the fallback route applies)
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const segments = path.split('/').filter(Boolean);
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((p, i) => {
      const seg = segments[i] as string;
      if (p.startsWith('{') && p.endsWith('}')) {
        try {
          params[p.slice(1, -1)] = decodeURIComponent(seg);
        } catch {
          params[p.slice(1, -1)] = seg;
        }
        return true;
      }
      return p === seg;
    });
    if (ok) return { route, routeKey: `${route.method} ${route.path}`, pathParameters: params };
  }
  return undefined;
}
