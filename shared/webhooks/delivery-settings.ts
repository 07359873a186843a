/**
 * Settings of webhook delivery (Standard Webhooks, https://www.standardwebhooks.com:
 * "Retry schedule" and "Timeouts" of the spec's operational recommendations).
 */
import { wholeNumberSetting } from '../settings/whole-number-setting';

/**
 * The default retry schedule, in seconds after each failed attempt: 5 s, 5 min, 30 min, 2 h,
 * 5 h, then 10 h seven times — the Standard Webhooks example schedule ("Retry schedule":
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) extended with 10 h steps so that it covers about
 * 3 days (77 h 35 min from the first attempt to the last). The first attempt is made at once;
 * after a failed attempt n (1-based) the next waits `schedule[n-1]`; a failure after the last
 * entry marks the delivery `failed` (13 attempts in all by default).
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [
  5, 300, 1800, 7200, 18000, 36000, 36000, 36000, 36000, 36000, 36000, 36000,
];

/** How long one attempt may take before it counts as failed (no answer): 15 000 ms. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;

/** Longest `Retry-After` honoured, in seconds (a receiver cannot park a delivery for longer): 1 day. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/**
 * How long a worker holds a delivery while it attempts it, in seconds (90: longer than the delivery function's 60 s timeout): the delivery's
 * open-index due time is moved this far ahead so that no other worker (the reconciler)
 * takes it meanwhile; a worker that dies mid-attempt leaves it due again after the lease.
 */
export const DELIVERY_LEASE_SECONDS = 90;

/**
 * How long a delivery handed to the delivery queue is left to it before the reconciler hands it
 * over again, in seconds (120: two reconciler periods; the queue normally has it attempted within
 * a second). It covers a queue that refused or lost the message and a worker that died before
 * leasing it; a worker that leased it holds it for {@link DELIVERY_LEASE_SECONDS} instead.
 */
export const HANDOFF_GRACE_SECONDS = 120;

/** An endpoint whose deliveries have all failed for this long is disabled: 5 days, in milliseconds. */
export const ENDPOINT_FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;

/**
 * The retry schedule of this stage: `WEBHOOK_RETRY_SCHEDULE_SECONDS` (comma-separated
 * non-negative numbers of seconds, e.g. `0,1` in tests), else
 * {@link DEFAULT_RETRY_SCHEDULE_SECONDS}. A malformed value falls back to the default.
 * @param env the environment (default `process.env`)
 * @returns delays in seconds, one per retry
 */
export function retryScheduleSeconds(env: NodeJS.ProcessEnv = process.env): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE_SECONDS?.trim();
  if (!raw) return [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.length === 0 || values.some((v) => !Number.isFinite(v) || v < 0)) return [...DEFAULT_RETRY_SCHEDULE_SECONDS];
  return values;
}

/**
 * The timeout of one attempt: `WEBHOOK_DELIVERY_TIMEOUT_MS` when set to a positive number
 * (tests shorten it), else {@link DEFAULT_DELIVERY_TIMEOUT_MS} (15 s).
 * @param env the environment (default `process.env`)
 * @returns milliseconds
 */
export function deliveryTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.WEBHOOK_DELIVERY_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_DELIVERY_TIMEOUT_MS;
}

/**
 * The message of the log line written for every attempt that did not deliver (with `merchant_id`,
 * `webhook_endpoint_id`, `delivery_id`, `outcome`, `http_status`, `error`): the per-merchant
 * failures rule and alarm (lib/monitoring/webhooks-section.ts) count these lines by `merchant_id`.
 */
export const WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE = 'webhook delivery attempt failed';

/**
 * An attempt that took at least this long marks its endpoint slow when `WEBHOOK_SLOW_ATTEMPT_MS` is not
 * set: 5 000 ms, a third of the attempt timeout. Stripe asks receivers to answer with a 2xx "quickly …
 * before executing any complex logic" (https://docs.stripe.com/webhooks, "Return a 2xx response quickly");
 * an endpoint that takes seconds per POST holds the worker that long.
 */
export const DEFAULT_SLOW_ATTEMPT_MS = 5_000;

/**
 * How long an endpoint stays slow after its last slow attempt: 600 000 ms (10 minutes). While slow,
 * its deliveries go through its merchant's slow lanes (shared/webhooks/delivery-queue.ts); every slow
 * attempt extends it (the endpoint item is written at most once per half of it).
 */
export const SLOW_ENDPOINT_WINDOW_MS = 10 * 60 * 1000;

/**
 * The duration from which an attempt marks its endpoint slow: `WEBHOOK_SLOW_ATTEMPT_MS` when set to a
 * whole number of ms from 0 to 60 000 (0: every attempt; tests), else {@link DEFAULT_SLOW_ATTEMPT_MS}.
 * An attempt that got no answer within the timeout took the whole timeout, so it counts; one not sent
 * (circuit open, URL refused) took 0 ms and does not.
 * @param env the environment (default `process.env`)
 * @returns milliseconds
 */
export function slowAttemptMs(env: NodeJS.ProcessEnv = process.env): number {
  return wholeNumberSetting(env.WEBHOOK_SLOW_ATTEMPT_MS, { min: 0, max: 60_000 }, DEFAULT_SLOW_ATTEMPT_MS);
}
