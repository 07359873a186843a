/**
 * A connector account's delete mark, read by routing (shared/operations/routing/route-payment.ts) and by the account
 * operations, apart from routing's code so the account handlers do not load it at cold start.
 */

/**
 * How long a delete's mark (`deleting_since`) keeps an account out of routing: 60,000 ms — longer than a
 * delete can run (the configuration cache period, its 1 s settle and the checks, within the function's
 * 29 s timeout). A mark older than that belongs to a delete that died before it could finish or clear it
 * (a crash, a timeout), and is ignored.
 */
export const DELETE_MARK_MAX_AGE_MS = 60_000;

/** Whether a delete of the account is under way now (a mark younger than {@link DELETE_MARK_MAX_AGE_MS}). */
export function beingDeleted(account: { deleting_since?: string | null }, nowMs = Date.now()): boolean {
  return Boolean(account.deleting_since) && nowMs - Date.parse(account.deleting_since ?? '') < DELETE_MARK_MAX_AGE_MS;
}
