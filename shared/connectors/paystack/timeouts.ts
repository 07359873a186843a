/**
 * How long the Paystack adapter waits for Paystack, per call, in milliseconds. `CONNECTOR_TIMEOUT_MS` overrides
 * every value here (shared/connectors/connector-http.ts `timeoutFor`).
 *
 * Source: no Paystack document states a server-side timeout (none in PaystackOSS/openapi, doc-code-snippets or
 * paystack-node); the reads follow the `CURLOPT_TIMEOUT => 30` of Paystack's own PHP samples ([DCS]
 * PaystackOSS/doc-code-snippets at commit 94af513d752dfc9f85dd0718301e7257091eb7f2,
 * src/api/transactions/verify/index.php, src/api/refunds/list/index.php).
 */
import { type ConnectorTimeouts, CREDENTIAL_CHECK_TIMEOUT_MS } from '../connector-http';

/**
 * Timeout of one Paystack call per operation, in milliseconds. No Paystack document states a
 * server-side timeout (none in PaystackOSS/openapi, doc-code-snippets or paystack-node), so:
 * - reads (verify, refund fetch/list, and `void`, which only verifies) use 30 000 ms, the
 *   `CURLOPT_TIMEOUT => 30` of Paystack's own PHP samples for those endpoints [DCS];
 * - writes whose timeout leaves an unknown outcome (`POST /charge`, `/transaction/initialize`,
 *   `/refund`; their samples set no timeout) get 60 000 ms: waiting longer turns fewer charges and
 *   refunds into unknown outcomes, and an online request is cut by its own 30 s budget anyway;
 * - `capture` never calls Paystack (no separate capture), it keeps the read value;
 * - the credential check (`GET /balance`) uses `CREDENTIAL_CHECK_TIMEOUT_MS` (10 s): a merchant waits on it, and
 *   the read changes nothing, so a shorter wait than the sample's 30 s costs only a retry (see that constant).
 * `CONNECTOR_TIMEOUT_MS` overrides all of them.
 */
export const PAYSTACK_TIMEOUTS_MS: ConnectorTimeouts = {
  authorize: 60_000,
  refund: 60_000,
  capture: 30_000,
  void: 30_000,
  sync: 30_000,
  syncRefund: 30_000,
  findRefund: 30_000,
  webhook: 30_000,
  verifyCredentials: CREDENTIAL_CHECK_TIMEOUT_MS,
};

/**
 * Timeouts of the dispute calls, in milliseconds (`CONNECTOR_TIMEOUT_MS` overrides them, as every other): reads
 * (`GET /dispute/:id`, `GET /dispute/:id/upload_url`) 30 000 as the other reads ([DCS] samples' `CURLOPT_TIMEOUT => 30`);
 * writes (`POST /dispute/:id/evidence`, `PUT /dispute/:id/resolve`, the upload to the signed URL) 60 000 as charges
 * and refunds: a write cut short is an unknown outcome.
 */
export const PAYSTACK_DISPUTE_TIMEOUTS_MS = { read: 30_000, write: 60_000 } as const;
