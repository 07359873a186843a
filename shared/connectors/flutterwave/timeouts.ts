/**
 * How long the Flutterwave adapter waits for Flutterwave, per call, in milliseconds. `CONNECTOR_TIMEOUT_MS`
 * overrides every value here (shared/connectors/connector-http.ts `timeoutFor`).
 *
 * Sources (the tags cited on each export):
 * - [TO] Handling Error Timeouts: https://developer.flutterwave.com/docs/handling-error-timeouts ("Our system
 *   typically waits for 28 seconds before returning a timeout error response", a 503
 *   `{status: "error", message: "An error occurred. Please contact support", data: null}`).
 */
import { type ConnectorTimeouts, CREDENTIAL_CHECK_TIMEOUT_MS } from '../connector-http';

/**
 * Timeout of one Flutterwave call per operation, in milliseconds: Flutterwave's own server-side wait, 28 s ("Our
 * system typically waits for 28 seconds before returning a timeout error response", a 503 [TO]), plus 7 s for
 * connection setup and transfer, so that Flutterwave's own answer arrives before we give up, for every operation on
 * a payment or refund (Flutterwave states one server-side wait for all endpoints); and `CREDENTIAL_CHECK_TIMEOUT_MS`
 * (10 s) for the credential check (`GET /v3/balances`): a balance read waits on no provider, a merchant waits on
 * it, and it changes nothing (see that constant).
 * `CONNECTOR_TIMEOUT_MS` overrides all of them.
 */
export const FLUTTERWAVE_TIMEOUTS_MS: ConnectorTimeouts = {
  authorize: 35_000,
  capture: 35_000,
  void: 35_000,
  refund: 35_000,
  sync: 35_000,
  syncRefund: 35_000,
  findRefund: 35_000,
  webhook: 35_000,
  verifyCredentials: CREDENTIAL_CHECK_TIMEOUT_MS,
};

/** Timeout of each chargeback call (list, accept, decline), in ms: the adapter's 35 s (`timeoutMs` overrides). */
export const FLUTTERWAVE_DISPUTE_TIMEOUT_MS = 35_000;
