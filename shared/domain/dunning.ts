/**
 * Dunning: what happens when a subscription's renewal cannot be collected. Pure rules, no I/O.
 *
 * - A renewal invoice is tried at once, then again `retryDays` after its first try (default 1, 3 and 7
 *   days: 4 tries over 7 days, the default (docs/api.md "Dunning"); a stage setting, `BILLING_RETRY_DAYS`).
 * - Only soft declines are retried. A decline whose code says the card will never pay (lost, stolen,
 *   picked up, fraudulent, closed, expired, wrong number) is final at once: Stripe does not retry "failures
 *   where the issuer provided a non-retryable decline code" (Stripe docs, "Automate payment retries",
 *   https://stripe.com/docs/billing/revenue-recovery/smart-retries), and Visa's "issuer will never
 *   approve" category allows no reattempt (Visa Core Rules, reattempt rules for declined transactions).
 * - When the tries are exhausted the subscription becomes `canceled` (reason `payment_failed`, its invoice
 *   `uncollectible`), or `unpaid` (its invoice left open, no more tries until its payment method is
 *   replaced), as the stage says (`BILLING_DUNNING_FINAL`, default `canceled`, Stripe's default).
 */

import { addBillingMs } from './billing-period';

/** Decline codes after which no retry is made (see the module comment for the sources). */
export const HARD_DECLINE_CODES: ReadonlySet<string> = new Set([
  'lost_card',
  'stolen_card',
  'pickup_card',
  'restricted_card',
  'fraudulent',
  'merchant_blacklist',
  'expired_card',
  'incorrect_number',
  'invalid_number',
  'invalid_account',
  'card_not_supported',
  'account_closed',
  'payment_method_unusable',
]);

/** What a subscription becomes when its invoice's tries are exhausted. */
export type DunningFinalStatus = 'canceled' | 'unpaid';

/** The dunning schedule of a stage. */
export interface DunningPolicy {
  /** Days after an invoice's first try when it is tried again, ascending (each a positive number). */
  retryDays: readonly number[];
  /** What the subscription becomes when they are exhausted. */
  final: DunningFinalStatus;
}

/** The default policy: tries at 0, 1, 3 and 7 days (4 over 7 days), then `canceled`. */
export const DEFAULT_DUNNING_POLICY: DunningPolicy = { retryDays: [1, 3, 7], final: 'canceled' };

const DAY_MS = 86_400_000;

/**
 * Reads the stage's policy from `BILLING_RETRY_DAYS` (comma-separated positive numbers of days, ascending, at
 * most 10; e.g. `1,3,7`; empty: no retries) and `BILLING_DUNNING_FINAL` (`canceled` or `unpaid`).
 * A value that does not parse is ignored for the default (a deployed stage validates it at synth).
 */
export function dunningPolicyFrom(env: Record<string, string | undefined> = process.env): DunningPolicy {
  const raw = env.BILLING_RETRY_DAYS;
  let retryDays = DEFAULT_DUNNING_POLICY.retryDays;
  if (raw !== undefined) {
    const days = raw.trim() === '' ? [] : raw.split(',').map((d) => Number(d.trim()));
    const valid = days.length <= 10 && days.every((d, i) => Number.isFinite(d) && d > 0 && d <= 60 && (i === 0 || d > (days[i - 1] ?? 0)));
    if (valid) retryDays = days;
  }
  const final = env.BILLING_DUNNING_FINAL === 'unpaid' ? 'unpaid' : DEFAULT_DUNNING_POLICY.final;
  return { retryDays, final };
}

/** Whether a failed try with this decline code may be tried again (a soft decline; unknown codes count as soft). */
export function isRetryableDecline(errorCode: string | null | undefined): boolean {
  return !errorCode || !HARD_DECLINE_CODES.has(errorCode);
}

/**
 * When the invoice is next tried after a failed try, or null when it is not (a hard decline, or no retry left).
 * @param firstTryAt the invoice's first try (ISO 8601 UTC)
 * @param attemptsMade tries made so far, the failed one included (≥ 1)
 * @returns ISO 8601 UTC (capped at the end of billing time, shared/domain/billing-period.ts), or null
 */
export function nextRetryAt(
  policy: DunningPolicy,
  firstTryAt: string,
  attemptsMade: number,
  errorCode: string | null | undefined,
): string | null {
  if (!isRetryableDecline(errorCode)) return null;
  const days = policy.retryDays[attemptsMade - 1];
  if (days === undefined) return null;
  return addBillingMs(firstTryAt, days * DAY_MS);
}
