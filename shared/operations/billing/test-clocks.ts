/**
 * Test clocks (issue 24; Stripe's test clocks, https://docs.stripe.com/billing/testing/test-clocks), on stages
 * with the sandbox only (the routes are not deployed on prod). A customer created with `test_clock` lives on
 * it: its subscriptions, invoices and payment method expiries take their times from the clock, their due
 * entries sit in the clock's own partition (never read by the real-time renewal worker), and advancing the clock
 * runs every piece of billing work that falls due before the new time, one at a time in due order, each at its
 * own due time, so renewals, dunning retries and expiry notices happen as they would have over those months.
 *
 * An advance runs in its request, bounded by {@link MAX_ADVANCE_STEPS} pieces of work and the request's
 * deadline: past either it stops, answers the clock `advancing` at the time it reached, and a later advance
 * (to the same or a later time) goes on from there. Payments are made through the processors as usual (the
 * sandbox on these stages) and keep real timestamps.
 */
import { ApiError, invalidRequest, resourceNotFound } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { TestClock } from '../../domain/test-clock';
import { MAX_ADVANCE_MS } from '../../domain/test-clock';
import { logger } from '../../observability/logger';
import type { AdvanceTestClockBody, CreateTestClockBody } from '../../schemas/test-clock-schemas';
import {
  moveTestClock,
  nextClockDue,
  putTestClock,
  getTestClock as readTestClock,
  TestClockChangedError,
} from '../../storage/test-clocks-repository';
import type { RequestContext } from '../request-context';

/** Pieces of billing work one advance does at most before answering `advancing`: 400. */
export const MAX_ADVANCE_STEPS = 400;

/** Time kept back from the request's deadline for the clock's own write and the answer: 2 000 ms. */
const ADVANCE_RESERVE_MS = 2_000;

/** Creates a test clock at `frozen_time`. */
export async function createTestClock(merchantId: string, body: CreateTestClockBody): Promise<TestClock> {
  const clock: TestClock = {
    test_clock_id: newId('testClock'),
    name: body.name ?? null,
    frozen_time: new Date(body.frozen_time).toISOString(),
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

/**
 * Advances a clock to `frozen_time`, running the work that falls due on the way (see the module comment).
 * @throws ApiError 404 unknown clock; 400 `test_clock_time_invalid` (param `frozen_time`) for a time not after the clock's,
 *   or more than 2 years after it; 409 `concurrent_update` when another advance moved the clock meanwhile
 */
export async function advanceTestClock(ctx: RequestContext, testClockId: string, body: AdvanceTestClockBody): Promise<TestClock> {
  const clock = await getTestClock(ctx.merchantId, testClockId);
  const target = new Date(body.frozen_time).toISOString();
  const from = clock.frozen_time;
  if (target <= from) {
    throw invalidRequest('test_clock_time_invalid', "frozen_time must be later than the clock's frozen_time.", 'frozen_time');
  }
  if (new Date(target).getTime() - new Date(from).getTime() > MAX_ADVANCE_MS) {
    throw invalidRequest('test_clock_time_invalid', 'A clock advances by at most 2 years at a time: advance in steps.', 'frozen_time');
  }
  const deadline = (ctx.deadlineMs ?? Date.now() + 25_000) - ADVANCE_RESERVE_MS;
  let reached = from;
  let steps = 0;
  let last = '';
  let repeats = 0;
  let finished = false;
  for (;;) {
    if (steps >= MAX_ADVANCE_STEPS || Date.now() > deadline) break;
    const due = await nextClockDue(ctx.merchantId, testClockId, target);
    if (!due) {
      finished = true;
      break;
    }
    // An entry read again unchanged (the index not caught up yet, or work that is busy elsewhere): a few looks, then stop.
    const key = `${due.dueAt}#${due.id}`;
    repeats = key === last ? repeats + 1 : 0;
    last = key;
    if (repeats >= 3) break;
    if (repeats > 0) await new Promise((r) => setTimeout(r, 50 * repeats));
    if (due.dueAt > reached) reached = due.dueAt;
    steps += 1;
    // Renewals and expiry notices are loaded by an advance only, not by every customer handler (issue 27).
    if (due.id.startsWith('sub_')) await (await import('./renewal')).workDueSubscription(ctx, due.id, reached);
    else if (due.id.startsWith('pm_')) await (await import('./payment-method-expiry')).workDueExpiry(ctx.merchantId, due.id, reached);
    else {
      logger.warn('a test clock due entry names nothing billing works on', { test_clock_id: testClockId });
      break;
    }
  }
  const after: TestClock = { ...clock, frozen_time: finished ? target : reached, status: finished ? 'ready' : 'advancing' };
  try {
    await moveTestClock(ctx.merchantId, testClockId, from, after.frozen_time, after.status);
  } catch (err) {
    if (!(err instanceof TestClockChangedError)) throw err;
    throw new ApiError(
      409,
      'api_error',
      'concurrent_update',
      'Another advance moved this test clock at the same moment. Read the clock and advance again.',
    ).asTransient();
  }
  return after;
}
