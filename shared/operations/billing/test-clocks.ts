/**
 * Test clocks (Stripe's test clocks, https://docs.stripe.com/billing/testing/test-clocks), on stages
 * with the sandbox only (the routes are not deployed on prod). A customer created with `test_clock` lives on
 * it: its subscriptions, invoices and payment method expiries take their times from the clock, their due
 * entries sit in the clock's own partition (never read by the real-time renewal worker), and advancing the clock
 * runs every piece of billing work that falls due before the new time, one at a time in due order, each at its
 * own due time, so renewals, dunning retries and expiry notices happen as they would have over those months.
 *
 * An advance runs in its request, bounded by {@link maxAdvanceSteps} pieces of work and the request's
 * deadline: past either it stops, answers the clock `advancing` at the time it reached, and a later advance
 * (to the same or a later time) goes on from there. Payments are made through the processors as usual (the
 * sandbox on these stages) and keep real timestamps.
 *
 * One advance at a time: an advance claims its clock (a conditional write) before any billing; another advance
 * meanwhile answers 409 `test_clock_advancing` having changed nothing. Clock times are bounded
 * (1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z, shared/domain/billing-period.ts) and compared as instants.
 */
import { randomUUID } from 'node:crypto';
import { BILLING_TIME_MAX, BILLING_TIME_MIN, billingTimeOf, instantOf, isBillingTime } from '../../domain/billing-period';
import { ApiError, invalidRequest, resourceNotFound } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { TestClock } from '../../domain/test-clock';
import { MAX_ADVANCE_MS } from '../../domain/test-clock';
import { logger } from '../../observability/logger';
import type { AdvanceTestClockBody, CreateTestClockBody } from '../../schemas/test-clock-schemas';
import {
  claimTestClock,
  finishTestClockAdvance,
  getStoredTestClock,
  nextClockDue,
  putTestClock,
  getTestClock as readTestClock,
  TestClockChangedError,
} from '../../storage/test-clocks-repository';
import type { RequestContext } from '../request-context';

/**
 * Pieces of billing work one advance does at most before answering `advancing`: 400, or
 * `TEST_CLOCK_MAX_ADVANCE_STEPS` when set (read at each advance: tests stop an advance early to drive its continuation).
 */
export function maxAdvanceSteps(): number {
  const configured = Number(process.env.TEST_CLOCK_MAX_ADVANCE_STEPS);
  return Number.isInteger(configured) && configured > 0 ? configured : 400;
}

/** Time kept back from the request's deadline for the clock's own write and the answer: 2 000 ms. */
const ADVANCE_RESERVE_MS = 2_000;

/**
 * How long an advance's claim outlasts its request's deadline: 60 000 ms. The advance stops working before its
 * deadline, so its claim never ends under it; a request that died leaves a claim the next advance takes after it.
 */
const CLAIM_GRACE_MS = 60_000;

/**
 * 400 `test_clock_time_invalid` (param `frozen_time`) unless `iso` is within billing time (1970-01-01T00:00:00Z to
 * 9999-12-31T23:59:59Z, shared/domain/billing-period.ts): a clock never shows a time the API cannot write.
 */
function checkBounds(iso: string): void {
  if (!isBillingTime(iso)) {
    throw invalidRequest(
      'test_clock_time_invalid',
      `frozen_time must be between ${BILLING_TIME_MIN} and ${BILLING_TIME_MAX}.`,
      'frozen_time',
    );
  }
}

/**
 * Creates a test clock at `frozen_time`.
 * @throws ApiError 400 `test_clock_time_invalid` (param `frozen_time`) outside billing time
 */
export async function createTestClock(merchantId: string, body: CreateTestClockBody): Promise<TestClock> {
  checkBounds(body.frozen_time);
  const clock: TestClock = {
    test_clock_id: newId('testClock'),
    name: body.name ?? null,
    frozen_time: billingTimeOf(instantOf(body.frozen_time)),
    status: 'ready',
    created_at: new Date().toISOString(),
  };
  await putTestClock(merchantId, clock);
  return clock;
}

/** Reads a test clock. @throws ApiError 404 (param `test_clock_id`) when it does not exist */
export async function getTestClock(merchantId: string, testClockId: string): Promise<TestClock> {
  const clock = isIdOf('testClock', testClockId) ? await readTestClock(merchantId, testClockId) : undefined;
  if (!clock) throw resourceNotFound('test_clock', 'test_clock_id');
  return clock;
}

/**
 * The time a test clock shows, for an operation on something living on it (a customer's subscription).
 * @throws ApiError 400 `resource_missing` (param `test_clock`) when the clock does not exist
 */
export async function clockTime(merchantId: string, testClockId: string): Promise<string> {
  const clock = isIdOf('testClock', testClockId) ? await readTestClock(merchantId, testClockId) : undefined;
  if (!clock) throw invalidRequest('resource_missing', 'No such test clock (check test_clock).', 'test_clock');
  return clock.frozen_time;
}

/** 409 `test_clock_advancing`: another advance holds the clock; this one changed nothing. */
function clockAdvancing(): ApiError {
  return new ApiError(
    409,
    'invalid_request_error',
    'test_clock_advancing',
    'Another advance of this test clock is running; nothing was changed. Wait until the clock is no longer advancing (GET it), then advance again.',
  ).asTransient();
}

/**
 * Advances a clock to `frozen_time`, running the work that falls due on the way (see the module comment). The
 * clock is claimed first (one conditional write, shared/storage/test-clocks-repository.ts `claimTestClock`), before
 * any billing: of two advances at once, the one that loses the claim changes nothing. Work is due at or before
 * the target, compared as instants: no period starts past it.
 * @throws ApiError 404 unknown clock; 400 `test_clock_time_invalid` (param `frozen_time`) for a time not after the
 *   clock's (the same time is accepted while the clock is `advancing`: it continues that advance), more than 2 years after it, or past 9999-12-31T23:59:59Z; 409 `test_clock_advancing` while another
 *   advance holds the clock, `concurrent_update` when one moved it since it was read (both: nothing changed)
 */
export async function advanceTestClock(ctx: RequestContext, testClockId: string, body: AdvanceTestClockBody): Promise<TestClock> {
  const clock = await getTestClock(ctx.merchantId, testClockId);
  checkBounds(body.frozen_time);
  const targetMs = instantOf(body.frozen_time);
  const target = billingTimeOf(targetMs);
  const from = clock.frozen_time;
  // An advance that stopped early (`advancing`) may have stopped at its target with work of that very time left:
  // advancing again to the same time goes on with it. A `ready` clock moves forward only.
  if (targetMs < instantOf(from) || (targetMs === instantOf(from) && clock.status !== 'advancing')) {
    throw invalidRequest('test_clock_time_invalid', "frozen_time must be later than the clock's frozen_time.", 'frozen_time');
  }
  if (targetMs - instantOf(from) > MAX_ADVANCE_MS) {
    throw invalidRequest('test_clock_time_invalid', 'A clock advances by at most 2 years at a time: advance in steps.', 'frozen_time');
  }
  const maxSteps = maxAdvanceSteps();
  const requestDeadline = ctx.deadlineMs ?? Date.now() + 25_000;
  const deadline = requestDeadline - ADVANCE_RESERVE_MS;
  const claim = randomUUID();
  try {
    await claimTestClock(ctx.merchantId, testClockId, from, claim, requestDeadline + CLAIM_GRACE_MS, Date.now());
  } catch (err) {
    if (!(err instanceof TestClockChangedError)) throw err;
    const now = await getStoredTestClock(ctx.merchantId, testClockId);
    if (now?.claimedUntilMs !== undefined && now.claimedUntilMs >= Date.now()) throw clockAdvancing();
    throw movedMeanwhile();
  }
  let reached = from;
  let steps = 0;
  let last = '';
  let repeats = 0;
  let finished = false;
  for (;;) {
    if (steps >= maxSteps || Date.now() > deadline) break;
    const due = await nextClockDue(ctx.merchantId, testClockId, target);
    // The index's order is text order of fixed-width times; a due time is still checked as an instant.
    if (!due || !isBillingTime(due.dueAt) || instantOf(due.dueAt) > targetMs) {
      finished = true;
      break;
    }
    // An entry read again unchanged (the index not caught up yet, or work that is busy elsewhere): a few looks, then stop.
    const key = `${due.dueAt}#${due.id}`;
    repeats = key === last ? repeats + 1 : 0;
    last = key;
    if (repeats >= 3) break;
    if (repeats > 0) await new Promise((r) => setTimeout(r, 50 * repeats));
    if (instantOf(due.dueAt) > instantOf(reached)) reached = billingTimeOf(instantOf(due.dueAt));
    steps += 1;
    // Renewals and expiry notices are loaded by an advance only, not by every customer handler at cold start.
    if (due.id.startsWith('sub_')) await (await import('./renewal')).workDueSubscription(ctx, due.id, reached);
    else if (due.id.startsWith('pm_')) await (await import('./payment-method-expiry')).workDueExpiry(ctx.merchantId, due.id, reached);
    else {
      logger.warn('a test clock due entry names nothing billing works on', { test_clock_id: testClockId });
      break;
    }
  }
  const after: TestClock = { ...clock, frozen_time: finished ? target : reached, status: finished ? 'ready' : 'advancing' };
  try {
    await finishTestClockAdvance(ctx.merchantId, testClockId, claim, after.frozen_time, after.status);
  } catch (err) {
    if (!(err instanceof TestClockChangedError)) throw err;
    // Only when this advance outlived its claim (never within its deadline): its work is done and stays due-ordered.
    logger.error('a test clock advance lost its claim before it ended', { test_clock_id: testClockId });
    throw movedMeanwhile();
  }
  return after;
}

/** 409 `concurrent_update` (transient): another advance moved the clock since it was read. */
function movedMeanwhile(): ApiError {
  return new ApiError(
    409,
    'api_error',
    'concurrent_update',
    'Another advance moved this test clock at the same moment. Read the clock and advance again.',
  ).asTransient();
}
