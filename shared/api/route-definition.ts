/**
 * The shape of a route: what the CDK stack, the local gateway and the tests read of it (method, path,
 * handler, table access, and the flags that decide what its function gets), and, for the routes of the
 * API, its OpenAPI metadata. Each capability lists its routes in `shared/operations/<capability>/routes.ts`;
 * shared/api/routes.ts assembles them. Data only: no handler or use case is imported.
 */
import type { OperationMetadata } from './operation-metadata';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Table access a handler needs: drives least-privilege IAM in the stack.
 * `none`: the handler never touches the table (no table action is granted);
 * `read`: reads and queries; `reconcile`: reads plus conditional updates and the event written with a
 * status change (retrieve with force_sync);
 * `write`: everything the write paths use.
 */
export type TableAccess = 'none' | 'read' | 'reconcile' | 'write';

/**
 * A stage setting a route's function needs in its environment beyond the common ones; the stack turns
 * each into its variables (lib/api/route-functions.ts `routeEnvironment`).
 * `webhookRetrySchedule`: it sends webhooks and schedules their retries (`WEBHOOK_RETRY_SCHEDULE_SECONDS`,
 * the stage's schedule in seconds).
 */
export type RouteEnvironmentNeed = 'webhookRetrySchedule';

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
  /**
   * Files the handler reads at run time, as paths from the repository root. The stack copies each
   * one next to the function's bundle (under its base name, beside `index.mjs`); the local gateway's
   * handlers read them where they are. See functions/docs/static-asset.ts.
   */
  assets?: readonly string[];
  /**
   * Deployed only on stages with the sandbox (`sandbox: true`; not prod): the sandbox's hosted pages and
   * the test helpers (test clocks). lib/api/route-functions.ts `stageRoutes`.
   */
  sandboxOnly?: boolean;
  /**
   * A processors' webhook receiver: it decrypts a connector account's webhook secret, so its function gets
   * the connector-accounts key even without `connectors` (lib/functions/connector-accounts-key.ts `usesConnectorAccountsKey`).
   */
  connectorWebhook?: boolean;
  /**
   * It computes keyed hashes on a `GET` too (a POST always may): the checkout page's CSRF token and the signature of
   * a payment link's return, under the stage's keyed-hash key. lib/api-stack.ts gives its function that secret.
   */
  keyedHashes?: boolean;
  /** Stage settings its function needs in its environment ({@link RouteEnvironmentNeed}). */
  environment?: readonly RouteEnvironmentNeed[];
  /**
   * It also answers `HEAD` (the `GET`'s status and header fields, no content): the public `GET`s, which
   * browsers, link checkers and uptime monitors ask for with `HEAD` first. shared/api/routes.ts `answersHead`.
   */
  answersHead?: boolean;
}

/** A route of the API with what the OpenAPI document says about it (scripts/openapi.ts adds the examples). */
export interface ApiRoute extends RouteDefinition {
  openapi: OperationMetadata;
}
