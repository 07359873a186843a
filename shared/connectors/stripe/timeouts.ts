/**
 * How long the Stripe adapter waits for Stripe, per call, in milliseconds.
 *
 * Source: stripe-node v22.5.0 (github.com/stripe/stripe-node, commit 663942164d3876f04bb26617b88f498ba785e580),
 * `src/stripe.core.ts` (`DEFAULT_TIMEOUT = 80000`) and `src/RequestSender.ts` (409 retried as a conflict);
 * https://docs.stripe.com/error-low-level#idempotency. `CONNECTOR_TIMEOUT_MS` overrides every value here
 * (shared/connectors/connector-http.ts `timeoutFor`).
 */

import { type ConnectorTimeouts, CREDENTIAL_CHECK_TIMEOUT_MS } from '../connector-http';

/**
 * Stripe's own client default: stripe-node waits 80 000 ms for any request
 * (`const DEFAULT_TIMEOUT = 80000;` in `src/stripe.core.ts`; `timeout` "The default is 80000" in
 * `src/lib.ts`; stripe/stripe-node v22.5.0, commit 663942164d38). Stripe publishes no shorter
 * server-side limit, so every operation uses it. Online requests are cut earlier by the caller's
 * own budget (API Gateway's 30 s); the reconciler gets the full 80 s. `CONNECTOR_TIMEOUT_MS`
 * overrides all of them.
 */
export const STRIPE_DEFAULT_TIMEOUT_MS = 80_000;

/**
 * Timeout of one Stripe call per operation, in milliseconds: {@link STRIPE_DEFAULT_TIMEOUT_MS} for every call
 * that moves or reads money, and `CREDENTIAL_CHECK_TIMEOUT_MS` (10 s) for the credential check, a balance read
 * made while a merchant waits (see that constant in connector-http.ts).
 */
export const STRIPE_TIMEOUTS_MS: ConnectorTimeouts = {
  authorize: STRIPE_DEFAULT_TIMEOUT_MS,
  capture: STRIPE_DEFAULT_TIMEOUT_MS,
  void: STRIPE_DEFAULT_TIMEOUT_MS,
  refund: STRIPE_DEFAULT_TIMEOUT_MS,
  sync: STRIPE_DEFAULT_TIMEOUT_MS,
  syncRefund: STRIPE_DEFAULT_TIMEOUT_MS,
  findRefund: STRIPE_DEFAULT_TIMEOUT_MS,
  webhook: STRIPE_DEFAULT_TIMEOUT_MS,
  verifyCredentials: CREDENTIAL_CHECK_TIMEOUT_MS,
};

/**
 * The longest time, in milliseconds, between the start of an authorize and the sending of its
 * PaymentIntent request (after the PaymentMethod came back): {@link STRIPE_DEFAULT_TIMEOUT_MS}, the
 * longest a PaymentMethod request may take. Only a process suspended in between (a frozen Lambda
 * environment thawed later) goes past it; the intent is then not requested at all, so it can never be
 * created long after the caller gave up, when `sync` may already have declared it absent (search is
 * trusted as authoritative `SEARCH_PROPAGATION_MS` (./lookups.ts) after the attempt's start).
 */
export const PAYMENT_INTENT_SEND_WINDOW_MS = STRIPE_DEFAULT_TIMEOUT_MS;

/**
 * Timeout of `POST /v1/payment_methods/{id}/detach`, in milliseconds: {@link STRIPE_DEFAULT_TIMEOUT_MS}
 * (stripe-node's default for every request; `CONNECTOR_TIMEOUT_MS` overrides it). Not in
 * {@link STRIPE_TIMEOUTS_MS}: detaching is no payment operation of the shared table.
 */
export const STRIPE_DETACH_TIMEOUT_MS = STRIPE_DEFAULT_TIMEOUT_MS;

/**
 * Timeout of each dispute call (`GET /v1/disputes/:id`, `POST /v1/disputes/:id/close`, `POST /v1/files`,
 * `POST /v1/disputes/:id`), in milliseconds: {@link STRIPE_DEFAULT_TIMEOUT_MS} (stripe-node's default for every
 * request, file uploads included; `CONNECTOR_TIMEOUT_MS` overrides it). Not in {@link STRIPE_TIMEOUTS_MS}: disputes
 * are no operation of the shared table.
 */
export const STRIPE_DISPUTE_TIMEOUT_MS = STRIPE_DEFAULT_TIMEOUT_MS;
