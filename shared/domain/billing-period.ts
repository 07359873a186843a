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

/** Days in a month of a year (UTC), `month` 0–11. */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The `n`th boundary after the anchor: the anchor plus `n × intervalCount` intervals, months and years
 * clamped to the last day of a shorter month.
 * @param anchor ISO 8601 UTC
 * @param n 0 for the anchor itself, 1 for the end of the first period, …
 * @returns ISO 8601 UTC
 */
export function periodBoundary(anchor: string, interval: BillingInterval, intervalCount: number, n: number): string {
  const a = new Date(anchor);
  if (Number.isNaN(a.getTime())) throw new RangeError(`not a timestamp: ${anchor}`);
  const steps = n * intervalCount;
  if (interval === 'day' || interval === 'week') {
    return new Date(a.getTime() + steps * (interval === 'day' ? 1 : 7) * DAY_MS).toISOString();
  }
  const months = interval === 'month' ? steps : steps * 12;
  const total = a.getUTCFullYear() * 12 + a.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(a.getUTCDate(), daysInMonth(year, month));
  return new Date(Date.UTC(year, month, day, a.getUTCHours(), a.getUTCMinutes(), a.getUTCSeconds(), a.getUTCMilliseconds())).toISOString();
}

/**
 * The end of the period that contains `at` (the first boundary after the anchor that is later than `at`).
 * @param anchor the billing cycle anchor, ISO 8601 UTC
 * @param at a time at or after the anchor, ISO 8601 UTC (typically a period's start)
 * @returns ISO 8601 UTC, strictly later than `at`
 */
export function nextPeriodEnd(anchor: string, interval: BillingInterval, intervalCount: number, at: string): string {
  const t = new Date(at).getTime();
  // An estimate of the boundary index from the average period length, then a walk to the exact one.
  const approxDays = { day: 1, week: 7, month: 30.436875, year: 365.2425 }[interval] * intervalCount;
  let n = Math.max(1, Math.floor((t - new Date(anchor).getTime()) / (approxDays * DAY_MS)));
  while (n > 1 && new Date(periodBoundary(anchor, interval, intervalCount, n - 1)).getTime() > t) n -= 1;
  while (new Date(periodBoundary(anchor, interval, intervalCount, n)).getTime() <= t) n += 1;
  return periodBoundary(anchor, interval, intervalCount, n);
}

/** The end of a trial of `days` days started at `start` (ISO 8601 UTC). */
export function trialEnd(start: string, days: number): string {
  return new Date(new Date(start).getTime() + days * DAY_MS).toISOString();
}
