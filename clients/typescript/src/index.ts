/**
 * `@switchyard/client` — the TypeScript client of the Switchyard payment API.
 *
 * Typed end to end from `docs/openapi.json` (openapi-typescript → `src/generated/schema.ts`),
 * sent through `openapi-fetch` with a transport of our own that adds the API key, the
 * `Switchyard-Version` header and an `Idempotency-Key` on every POST, and retries what is safe to
 * retry (see `Switchyard` and the README). Webhook deliveries are verified with the
 * `standardwebhooks` package (`verifyWebhook`).
 *
 * This module only re-exports the public API; each part lives in a module named for it:
 * - `version.ts`: `API_VERSION`, `SDK_VERSION`, the version header;
 * - `idempotency.ts`: which POSTs carry an `Idempotency-Key` (`UNKEYED_POST_PATHS`);
 * - `errors.ts`: `SwitchyardError` and one subclass per error `type`;
 * - `retry-policy.ts`: what is retried, backoff with full jitter (`retryDelayMs`), `Retry-After`;
 * - `transport.ts`: the custom fetch (one key per call, retries, per-attempt timeouts);
 * - `client.ts`: `Switchyard`; `resources/*.ts`: its typed resource methods;
 * - `webhooks.ts`: `verifyWebhook`;
 * - `types.ts` and `generated/schema.ts`: types only.
 * Relative imports are spelled `./x.js` (the package is ESM, run by Node's loader as built in
 * `dist/`); the repository's jest maps them back to the `.ts` sources (`moduleNameMapper` in
 * jest.config.cjs).
 */
export { type CallInit, Switchyard, type SwitchyardOptions } from './client.js';
export {
  type AnySwitchyardError,
  ApiError,
  AuthenticationError,
  ConnectorError,
  IdempotencyError,
  InvalidRequestError,
  isSwitchyardError,
  RateLimitError,
  SwitchyardConnectionError,
  SwitchyardError,
  type SwitchyardErrorFields,
  type SwitchyardErrorType,
} from './errors.js';
export type { paths } from './generated/schema.js';
export { IDEMPOTENCY_KEY_HEADER, UNKEYED_POST_PATHS } from './idempotency.js';
export { type ListPage, ListPromise } from './list-promise.js';
export { ConnectorAccounts } from './resources/connector-accounts.js';
export { Customers } from './resources/customers.js';
export { Disputes } from './resources/disputes.js';
export { Events } from './resources/events.js';
export { type FileCreateParams, Files } from './resources/files.js';
export { Invoices } from './resources/invoices.js';
export { PaymentMethods } from './resources/payment-methods.js';
export { Payments } from './resources/payments.js';
export { Payouts } from './resources/payouts.js';
export { Refunds } from './resources/refunds.js';
export { Routing } from './resources/routing.js';
export { Subscriptions } from './resources/subscriptions.js';
export { TestClocks } from './resources/test-clocks.js';
export { WebhookEndpoints } from './resources/webhook-endpoints.js';
export {
  DEFAULT_INITIAL_RETRY_DELAY_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_DELAY_MS,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  RETRYABLE_CONFLICT_CODES,
  type RetryDelayOptions,
  retryDelayMs,
} from './retry-policy.js';
export { DEFAULT_TIMEOUT_MS, type FetchFunction, type RequestOptions } from './transport.js';
export type * from './types.js';
export { API_VERSION, API_VERSION_HEADER, SDK_VERSION } from './version.js';
export {
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './webhooks.js';
