/**
 * Billing period arithmetic of subscriptions (pure): where each period of a subscription ends, from its
 * billing cycle anchor. Stripe's `billing_cycle_anchor` behaviour: every period boundary is counted from
 * the anchor (never from the previous boundary), and a month without the anchor's day ends on its last
 * day, so a subscription anchored on the 31st renews on 30 April, 28/29 February, and on the 31st again
 * in months that have one. Times keep the anchor's time of day; all values ISO 8601 UTC.
 */

/** The unit of a subscription's interval. */
export const BILLING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
/** One of {@link BILLING_INTERVALS}. */
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/**
 * The most `interval_count` of each interval: a period is at most one year (365 days, 52 weeks,
 * 12 months or 1 year), as at Stripe.
 */
export const MAX_INTERVAL_COUNT: Readonly<Record<BillingInterval, number>> = { day: 365, week: 52, month: 12, year: 1 };

const DAY_MS = 86_400_000;

/**
 * The earliest time billing works with (a test clock's `frozen_time`, a period's start): 1970-01-01T00:00:00.000Z,
 * the Unix epoch (processors such as Stripe count time in non-negative Unix seconds).
 */
export const BILLING_TIME_MIN = '1970-01-01T00:00:00.000Z';
/**
 * The latest time billing works with: 9999-12-31T23:59:59.000Z, the last whole second an ISO 8601 timestamp with a
 * four-digit year shows (past it JavaScript writes `+010000-…`, which no schema of the API accepts and which sorts
 * before `9999-…` as text). A test clock is never set or advanced past it; every time billing computes (a period's
 * end, a retry, a due time) is capped at it, and no period starts at it ({@link isLastBillingTime}).
 */
export const BILLING_TIME_MAX = '9999-12-31T23:59:59.000Z';
const MIN_MS = Date.parse(BILLING_TIME_MIN);
const MAX_MS = Date.parse(BILLING_TIME_MAX);

/**
 * A timestamp as an instant (epoch ms), for comparisons: times are compared as instants, never as text (text order
 * and time order differ for `+010000-…`, for a missing `.000`, for an offset).
 * @throws RangeError when `iso` is not a timestamp
 */
export function instantOf(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError('not a timestamp');
  return ms;
}

/** Whether `iso` is within billing time ({@link BILLING_TIME_MIN} to {@link BILLING_TIME_MAX}, both included). */
export function isBillingTime(iso: string): boolean {
  const ms = Date.parse(iso);
  return !Number.isNaN(ms) && ms >= MIN_MS && ms <= MAX_MS;
}

/**
 * An instant as billing stores and shows it: ISO 8601 UTC with milliseconds, capped at {@link BILLING_TIME_MAX}
 * (and floored at {@link BILLING_TIME_MIN}), so always the same 24 characters: text order is time order.
 * @param ms epoch ms
 */
export function billingTimeOf(ms: number): string {
  return new Date(Math.min(MAX_MS, Math.max(MIN_MS, ms))).toISOString();
}

/** `iso` plus `ms` milliseconds, capped as {@link billingTimeOf} caps it. */
export function addBillingMs(iso: string, ms: number): string {
  return billingTimeOf(instantOf(iso) + ms);
}

/** Whether `iso` is at (or past) the end of billing time: a period ending there is the last, none starts there. */
export function isLastBillingTime(iso: string): boolean {
  return instantOf(iso) >= MAX_MS;
}

/** Days in a month of a year (UTC), `month` 0–11. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The `n`th boundary after the anchor: the anchor plus `n × intervalCount` intervals, months and years
 * clamped to the last day of a shorter month.
 * @param anchor ISO 8601 UTC
 * @param n 0 for the anchor itself, 1 for the end of the first period, …
 * @returns ISO 8601 UTC, capped at {@link BILLING_TIME_MAX}
 * @throws RangeError when `anchor` is not a timestamp
 */
export function periodBoundary(anchor: string, interval: BillingInterval, intervalCount: number, n: number): string {
  const a = new Date(anchor);
  if (Number.isNaN(a.getTime())) throw new RangeError(`not a timestamp: ${anchor}`);
  const steps = n * intervalCount;
  if (interval === 'day' || interval === 'week') {
    return billingTimeOf(a.getTime() + steps * (interval === 'day' ? 1 : 7) * DAY_MS);
  }
  const months = interval === 'month' ? steps : steps * 12;
  const total = a.getUTCFullYear() * 12 + a.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(a.getUTCDate(), daysInMonth(year, month));
  return billingTimeOf(Date.UTC(year, month, day, a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds(), a.getUTCMilliseconds()));
}

/**
 * The end of the period that contains `at` (the first boundary after the anchor that is later than `at`).
 * @param anchor the billing cycle anchor, ISO 8601 UTC
 * @param at a time at or after the anchor, ISO 8601 UTC (typically a period's start)
 * @returns ISO 8601 UTC, strictly later than `at`; {@link BILLING_TIME_MAX} when the period would end past it, or
 *   when `at` is already there (the last period)
 */
export function nextPeriodEnd(anchor: string, interval: BillingInterval, intervalCount: number, at: string): string {
  const t = instantOf(at);
  // Capped boundaries never pass the bound: from the bound on, there is no later one to walk to.
  if (t >= MAX_MS) return BILLING_TIME_MAX;
  // An estimate of the boundary index from the average period length, then a walk to the exact one.
  const approxDays = { day: 1, week: 7, month: 30.436875, year: 365.2425 }[interval] * intervalCount;
  let n = Math.max(1, Math.floor((t - new Date(anchor).getTime()) / (approxDays * DAY_MS)));
  while (n > 1 && new Date(periodBoundary(anchor, interval, intervalCount, n - 1)).getTime() > t) n -= 1;
  while (new Date(periodBoundary(anchor, interval, intervalCount, n)).getTime() <= t) n += 1;
  return periodBoundary(anchor, interval, intervalCount, n);
}

/** The end of a trial of `days` days started at `start` (ISO 8601 UTC), capped at {@link BILLING_TIME_MAX}. */
export function trialEnd(start: string, days: number): string {
  return addBillingMs(start, days * DAY_MS);
}
