/**
 * Settings of the background reconciler, read from the environment each time
 * (tests and the local stack change them at run time).
 */

/**
 * Age at which an open operation is reconciled: `RECONCILE_MIN_AGE_SECONDS`
 * (default 60), in ms. A payment left `Processing`/`RequiresAction` or a refund
 * left `Pending` is first checked this long after it became so.
 */
export function reconcileMinAgeMs(): number {
  const seconds = Number(process.env.RECONCILE_MIN_AGE_SECONDS ?? 60);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
}

/** Longest wait between two checks of an operation that stays open: 6 hours, in ms. */
export const MAX_CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

/**
 * When an operation that is still open after `checks` reconciler checks is
 * checked again: the minimum age doubled per check (60 s, 2 min, 4 min, …),
 * capped at {@link MAX_CHECK_INTERVAL_MS} — the back-off Hyperswitch's
 * payment-sync workflow and Paystack's "wait 10 s or more before asking again"
 * (PaystackOSS/openapi charge_{reference}.yaml) both call for.
 * @returns ISO 8601 UTC time of the next check
 */
export function nextCheckAt(checks: number, nowMs = Date.now()): string {
  const delay = Math.min(MAX_CHECK_INTERVAL_MS, Math.max(1000, reconcileMinAgeMs()) * 2 ** Math.min(checks, 20));
  return new Date(nowMs + delay).toISOString();
}
