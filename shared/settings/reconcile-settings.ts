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

/**
 * How often the reconciler looks for open operations that have fallen due while a run lasts, in ms: 5 000.
 * A claim's lease ends at most `CLAIM_LEASE_MS` (32 s) after it was written; the run takes it over within this
 * interval of that end (the reconciler takes over as soon as a lease ends: docs/money-safety.md, "Convergence"). Each look is one Query per
 * shard of the open-operations index reading at most {@link RECONCILE_PASS_READ_PER_SHARD} items.
 */
export const RECONCILE_PASS_INTERVAL_MS = 5_000;

/**
 * Open items one look reads per shard of the open-operations index: 20, in due order (the due ones first). It
 * bounds what an idle look costs (the items read are not all due: 20 × 16 shards, about 320 reads of ~2 KB, at
 * most, every 5 s); a shard whose 20 are all due is read further at once (shared/operations/reconciliation/reconcile-operations.ts).
 */
export const RECONCILE_PASS_READ_PER_SHARD = 20;

/**
 * The period of the reconciler's schedule, in ms: 60 000 (EventBridge Scheduler `rate(1 minute)`, its shortest
 * rate: https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html; lib/background/reconciler-schedule.ts
 * uses this constant).
 */
export const RECONCILER_SCHEDULE_PERIOD_MS = 60_000;

/**
 * How long one scheduled run of the reconciler keeps looking for due operations, in ms: the schedule's period
 * plus one look interval, 65 000. Consecutive runs overlap by one look, so a run started a few seconds late by
 * the scheduler leaves no gap; two runs taking the same item are harmless (every write is conditional), and
 * within one run an item is never taken twice at once.
 */
export const RECONCILER_RUN_SPAN_MS = RECONCILER_SCHEDULE_PERIOD_MS + RECONCILE_PASS_INTERVAL_MS;

/**
 * The convergence bound (docs/money-safety.md, "Convergence"), in ms: 60 000. After any single storage or processor fault, payments and
 * refunds equal the processor's ledger within this time of storage returning (of the fault's end, for a
 * processor fault or a crash) — for everything the processor did; a call the processor may still be working on
 * is only taken as "not done" after that processor's own window (docs/money-safety.md, "Convergence").
 * Its parts: a claim is due at most `CLAIM_LEASE_MARGIN_MS` + `FINAL_ANSWER_RESERVE_MS` (5 s) after storage
 * returns (or `CLAIM_LEASE_MS` after the faulted request started); a look of the running reconciler takes it
 * within {@link RECONCILE_PASS_INTERVAL_MS}; what is left ({@link RECONCILE_SETTLE_ALLOWANCE_MS} and more) is for
 * one processor lookup and one conditional write, and for the scheduler starting a run late.
 */
export const CONVERGENCE_BOUND_MS = 60_000;

/**
 * Time the convergence bound leaves for settling one due item once a look has taken it, in ms: 15 000 (a GetItem,
 * one processor lookup — a healthy processor answers in about a second — and one conditional write). The fault
 * suites run their reconciler pass this long before {@link CONVERGENCE_BOUND_MS} after the fault ends.
 */
export const RECONCILE_SETTLE_ALLOWANCE_MS = 15_000;

/**
 * The keyed-retry bound (docs/money-safety.md, "Convergence"), in ms: 10 000. A retry with the same `Idempotency-Key` of a request that
 * ended in `outcome_unknown`, sent this long after storage returned, gets the reconciled answer (not `409`):
 * the request hands its claim over once storage answers — within `STORAGE_RETRY_MAX_WAIT_MS` (1 s) of it, or
 * the client's 5 s request timeout for an attempt that hung — with the lease cut to `CLAIM_LEASE_MARGIN_MS` (3 s)
 * later: ≤ 8.1 s; or, when storage came back only after the request gave up (its last try at most
 * `FINAL_ANSWER_RESERVE_MS` + `STORAGE_RETRY_MAX_WAIT_MS` before its end), the claim's lease ends at most 2 + 1
 * + 3 = 6 s after that. The idempotency record is released by the request once storage is back, or expires at the
 * request's end, earlier still (docs/money-safety.md, "Convergence").
 */
export const KEYED_RETRY_BOUND_MS = 10_000;
