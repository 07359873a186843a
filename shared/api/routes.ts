/**
 * The route table: every HTTP route of the API, the handler module that serves it, what that handler may
 * do to the table, the flags that decide what its function gets, and its OpenAPI metadata. Each capability
 * lists its own routes (`shared/operations/<capability>/routes.ts`; the health check and the API reference:
 * shared/api/service-routes.ts); this module puts them in one list, the one source read by the CDK stack
 * (lib/), the local gateway (scripts/local/gateway.ts), the OpenAPI generator (scripts/openapi.ts) and the
 * tests. No Lambda imports it (.dependency-cruiser.cjs `route-table-stays-out-of-bundles`).
 */
import { SUBSCRIPTION_ROUTES, TEST_CLOCK_ROUTES } from '../operations/billing/routes';
import { CONNECTOR_ACCOUNT_ROUTES } from '../operations/connector-accounts/routes';
import { CUSTOMER_ROUTES } from '../operations/customers/routes';
import { DISPUTE_ROUTES } from '../operations/disputes/routes';
import { EVENT_ROUTES } from '../operations/events/routes';
import { FILE_ROUTES } from '../operations/files/routes';
import { ACCOUNT_WEBHOOK_ROUTES, PROCESSOR_WEBHOOK_ROUTES } from '../operations/inbound-webhooks/routes';
import { PAYER_ROUTES } from '../operations/payer/routes';
import { CHECKOUT_ROUTES, PAYMENT_LINK_ROUTES } from '../operations/payment-links/routes';
import { PAYMENT_METHOD_ROUTES } from '../operations/payment-methods/routes';
import { PAYMENT_ROUTES } from '../operations/payments/routes';
import { PAYOUT_ROUTES } from '../operations/payouts/routes';
import { REFUND_ROUTES } from '../operations/refunds/routes';
import { ROUTING_ROUTES } from '../operations/routing/routes';
import { SANDBOX_ROUTES } from '../operations/sandbox/routes';
import type { ApiRoute, RouteDefinition } from './route-definition';
import { HEALTH_ROUTES, REFERENCE_ROUTES } from './service-routes';

export { OPENAPI_DOCUMENT_FILE, REDOC_SCRIPT_FILE } from './reference-files';
export type { ApiRoute, RouteDefinition, RouteEnvironmentNeed, TableAccess } from './route-definition';

/**
 * Every route of the API. The order is the table's since before the routes moved to their capabilities:
 * the OpenAPI document's path order and the order of the stack's function groups follow it, so a capability
 * whose routes were not listed together (billing's test clocks, the account webhook route) exports two lists.
 */
export const ROUTES: readonly ApiRoute[] = [
  ...PAYMENT_ROUTES,
  ...REFUND_ROUTES,
  ...CUSTOMER_ROUTES,
  ...PAYMENT_LINK_ROUTES,
  ...PAYMENT_METHOD_ROUTES,
  ...SUBSCRIPTION_ROUTES,
  ...DISPUTE_ROUTES,
  ...FILE_ROUTES,
  ...TEST_CLOCK_ROUTES,
  ...EVENT_ROUTES,
  ...HEALTH_ROUTES,
  ...PROCESSOR_WEBHOOK_ROUTES,
  ...PAYER_ROUTES,
  ...CHECKOUT_ROUTES,
  ...SANDBOX_ROUTES,
  ...REFERENCE_ROUTES,
  ...ACCOUNT_WEBHOOK_ROUTES,
  ...CONNECTOR_ACCOUNT_ROUTES,
  ...ROUTING_ROUTES,
  ...PAYOUT_ROUTES,
];

/** The sandbox's own routes (its hosted pages) and the test helpers (test clocks): deployed only on stages with `sandbox: true`. */
export const isSandboxRoute = (route: Pick<RouteDefinition, 'sandboxOnly'>): boolean => route.sandboxOnly === true;

/** The processors' webhook receivers (`/webhooks/{connector}…`): they decrypt a connector account's webhook secret. */
export const isConnectorWebhookRoute = (route: Pick<RouteDefinition, 'connectorWebhook'>): boolean => route.connectorWebhook === true;

/**
 * Whether a route also answers `HEAD`: a `GET` with `answersHead` (route-definition.ts), which every public
 * `GET` (no api-key) has — the health check, the API reference (`/openapi.json`, `/docs`, its script), the payer
 * pages and the sandbox's pages — the pages a browser, a link checker, a chat app's link preview or an uptime
 * monitor asks for with `HEAD` first. A `HEAD` gets the `GET`'s status and header fields without content
 * (RFC 9110 §9.3.2; shared/http/head-request.ts). API Gateway HTTP APIs match a route by its method and path
 * ("Create routes for HTTP APIs in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-routes.html: a route is a method
 * and a path; `ANY` takes the methods not defined for the path; `$default` what no route matches), so a `GET`
 * route does not take `HEAD`, which would reach `$default`, a 404. The stack declares a `HEAD` route for each of
 * these on the same function (lib/api/http-api-routes.ts; not `ANY`, which would hand a POST or a DELETE to a GET's
 * function too) and {@link matchRoute} matches `HEAD` to them. Other routes answer `HEAD` with the `$default`
 * 404, as any undeclared method.
 */
export function answersHead(route: Pick<RouteDefinition, 'method' | 'answersHead'>): boolean {
  return route.method === 'GET' && route.answersHead === true;
}

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
 * method, path segments equal or filling a `{param}` (one non-empty segment each). A `HEAD` matches the
 * `GET` route of the path when that route {@link answersHead} (the stack declares `HEAD` on it), with the
 * route key `HEAD <path>`.
 * @param path the request path without query string, e.g. `/payments/pay_123`
 * @returns the match, or undefined (the fallback route applies)
 */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const head = method === 'HEAD';
  const segments = path.split('/').filter(Boolean);
  // API Gateway prefers the most specific route: a literal segment beats a `{param}` (`GET /routing/active`
  // over `GET /routing/{routing_algorithm_id}`), whatever their order in the table.
  let best: (RouteMatch & { params: number }) | undefined;
  for (const route of ROUTES) {
    if (head ? !answersHead(route) : route.method !== method) continue;
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
    const count = Object.keys(params).length;
    if (ok && (!best || count < best.params))
      best = { route, routeKey: `${head ? 'HEAD' : route.method} ${route.path}`, pathParameters: params, params: count };
  }
  if (!best) return undefined;
  const { params: _count, ...match } = best;
  return match;
}
