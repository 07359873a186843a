/**
 * The arithmetic of the convergence bounds (docs/money-safety.md, "Convergence"), on the configured
 * values themselves: a stage or a constant changed so that a bound no longer holds fails here. The behaviour
 * behind each term is tested over HTTP by the fault suites (test/http/unknown-outcomes-suite.ts,
 * test/http/ledger-property-suite.ts), which move a clock through these very values.
 */

import { RECONCILER_SCHEDULE } from '../../lib/background/reconciler-schedule';
import { STAGES } from '../../lib/config/stage-config';
import { ROUTES } from '../../shared/api/routes';
import { FLUTTERWAVE_TIMEOUTS_MS } from '../../shared/connectors/flutterwave/timeouts';
import { PAYSTACK_TIMEOUTS_MS } from '../../shared/connectors/paystack/timeouts';
import { STRIPE_TIMEOUTS_MS } from '../../shared/connectors/stripe/timeouts';
import {
  API_FUNCTION_TIMEOUT_MS,
  CLAIM_LEASE_MARGIN_MS,
  CLAIM_LEASE_MS,
  claimLeaseEnd,
  PROCESSOR_WORK_WINDOW_MS,
  startPendingOperation,
} from '../../shared/domain/pending-operation';
import { API_GATEWAY_TIMEOUT_MS, requestDeadline } from '../../shared/operations/request-context';
import {
  FINAL_ANSWER_RESERVE_MS,
  requestEndMs,
  STORAGE_RETRY_MAX_WAIT_MS,
  storageRetryDeadline,
} from '../../shared/operations/storage-retry';
import {
  CONVERGENCE_BOUND_MS,
  KEYED_RETRY_BOUND_MS,
  RECONCILE_PASS_INTERVAL_MS,
  RECONCILE_SETTLE_ALLOWANCE_MS,
  RECONCILER_RUN_SPAN_MS,
  RECONCILER_SCHEDULE_PERIOD_MS,
} from '../../shared/settings/reconcile-settings';
import { storageTimeouts } from '../../shared/storage/client';

/** The DynamoDB client's request timeout in deployed stages (shared/storage/client.ts, no override set), ms. */
const STORAGE_REQUEST_TIMEOUT_MS = storageTimeouts({}).requestTimeout;

describe('the claim lease follows the function timeout', () => {
  test('no stage lets an API function outlive API_FUNCTION_TIMEOUT_MS, and no route sets a timeout of its own', () => {
    for (const config of Object.values(STAGES)) expect(config.lambdaTimeoutSeconds * 1000).toBeLessThanOrEqual(API_FUNCTION_TIMEOUT_MS);
    expect(ROUTES.filter((r) => 'timeoutSeconds' in r)).toEqual([]);
    expect(API_FUNCTION_TIMEOUT_MS).toBeLessThan(API_GATEWAY_TIMEOUT_MS);
    expect(CLAIM_LEASE_MS).toBe(API_FUNCTION_TIMEOUT_MS + CLAIM_LEASE_MARGIN_MS);
  });

  test.each([
    0, 50, 5_000, 28_000,
  ])('a claim written %i ms into a 29 s invocation is leased until the invocation ends plus the margin, never past CLAIM_LEASE_MS', (into) => {
    const t0 = Date.parse('2026-11-24T10:00:00.000Z');
    const deadline = requestDeadline(API_FUNCTION_TIMEOUT_MS, t0);
    expect(requestEndMs({ deadlineMs: deadline })).toBe(t0 + API_FUNCTION_TIMEOUT_MS);
    const claim = startPendingOperation('capture', 'stripe', 'pay_abc', 100, t0 + into, {
      holderEndMs: requestEndMs({ deadlineMs: deadline }),
    });
    const end = Date.parse(claim.lease_expires_at);
    expect(end).toBe(t0 + API_FUNCTION_TIMEOUT_MS + CLAIM_LEASE_MARGIN_MS);
    expect(end).toBeLessThanOrEqual(t0 + into + CLAIM_LEASE_MS);
    // Without a known end: the whole lease from the write.
    expect(claimLeaseEnd(t0 + into)).toBe(t0 + into + CLAIM_LEASE_MS);
  });

  test('captures and voids the processor does not show yet are kept while any of our processors may still apply them', () => {
    for (const table of [STRIPE_TIMEOUTS_MS, PAYSTACK_TIMEOUTS_MS, FLUTTERWAVE_TIMEOUTS_MS]) {
      expect(PROCESSOR_WORK_WINDOW_MS).toBeGreaterThanOrEqual(table.capture);
      expect(PROCESSOR_WORK_WINDOW_MS).toBeGreaterThanOrEqual(table.void);
    }
  });
});

describe('the bounds', () => {
  test('keyed retry: free within 10 s of storage returning, whether the request was still waiting on storage or had given up', () => {
    const t0 = 0;
    const deadline = requestDeadline(API_FUNCTION_TIMEOUT_MS, t0);
    const end = requestEndMs({ deadlineMs: deadline }) as number;
    // Storage back while the request still retries: a failing attempt is noticed at once (refused, 5xx,
    // throttled) or after the client's request timeout (hung); the next one comes at most a wait later; the
    // hand-over then leases the claim for the margin.
    expect(STORAGE_REQUEST_TIMEOUT_MS + STORAGE_RETRY_MAX_WAIT_MS + CLAIM_LEASE_MARGIN_MS).toBeLessThanOrEqual(KEYED_RETRY_BOUND_MS);
    // Storage back only after the request gave up: its last try was at most a wait before its retry deadline.
    const lastTry = (storageRetryDeadline({ deadlineMs: deadline }) as number) - STORAGE_RETRY_MAX_WAIT_MS;
    expect(end - FINAL_ANSWER_RESERVE_MS - STORAGE_RETRY_MAX_WAIT_MS).toBe(lastTry);
    expect(end + CLAIM_LEASE_MARGIN_MS - lastTry).toBeLessThanOrEqual(KEYED_RETRY_BOUND_MS);
    // The request always answers before API Gateway gives up (a hung last attempt is aborted a second after the retry deadline).
    expect((storageRetryDeadline({ deadlineMs: deadline }) as number) + 1_000).toBeLessThan(t0 + API_GATEWAY_TIMEOUT_MS);
  });

  test('ledger: due, taken by a look and settled within 60 s of storage returning (or of a faulted request starting)', () => {
    // After storage returns: due at most (final reserve + a wait + margin) later; a look takes it within an interval.
    const dueAfterStorage = FINAL_ANSWER_RESERVE_MS + STORAGE_RETRY_MAX_WAIT_MS + CLAIM_LEASE_MARGIN_MS;
    expect(dueAfterStorage + RECONCILE_PASS_INTERVAL_MS + RECONCILE_SETTLE_ALLOWANCE_MS).toBeLessThanOrEqual(CONVERGENCE_BOUND_MS);
    // A processor fault or a crash: the claim is due when its lease ends, at most CLAIM_LEASE_MS after the request started
    // (API Gateway's 30 s where a context reports more, as the local gateway's does).
    const dueAfterStart = Math.max(CLAIM_LEASE_MS, API_GATEWAY_TIMEOUT_MS + CLAIM_LEASE_MARGIN_MS);
    expect(dueAfterStart + RECONCILE_PASS_INTERVAL_MS).toBeLessThanOrEqual(CONVERGENCE_BOUND_MS - RECONCILE_SETTLE_ALLOWANCE_MS);
  });

  test('the reconciler looks every 5 s for its whole minute, and runs overlap by one look', () => {
    expect(RECONCILER_SCHEDULE.rate.toMilliseconds()).toBe(RECONCILER_SCHEDULE_PERIOD_MS);
    expect(RECONCILER_RUN_SPAN_MS).toBe(RECONCILER_SCHEDULE_PERIOD_MS + RECONCILE_PASS_INTERVAL_MS);
    // The run fits its function's timeout, with the handler's 20 s margin.
    for (const config of Object.values(STAGES))
      expect(RECONCILER_RUN_SPAN_MS + 20_000).toBeLessThanOrEqual(config.reconcilerTimeoutSeconds * 1000);
  });
});
