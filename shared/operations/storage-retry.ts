import { isStorageUnavailable } from '../storage/storage-errors';
import { ANSWER_RESERVE_MS, type RequestContext } from './request-context';

/**
 * When the request has ended at the latest, in epoch ms: its processor-call deadline (`ctx.deadlineMs`, see
 * `requestDeadline`) plus the {@link ANSWER_RESERVE_MS} kept back from it, i.e. the smaller of API Gateway's
 * 30 s and the Lambda's remaining time at the request's start. A claim written by the request is leased until
 * this time plus `CLAIM_LEASE_MARGIN_MS` (shared/domain/pending-operation.ts `claimLeaseEnd`).
 * @returns undefined when the context has no deadline (the reconciler, scripts)
 */
export function requestEndMs(ctx: Pick<RequestContext, 'deadlineMs'>): number | undefined {
  return ctx.deadlineMs === undefined ? undefined : ctx.deadlineMs + ANSWER_RESERVE_MS;
}

/**
 * Time kept at the very end of a request for its answer once its last storage retry has stopped, in ms:
 * 2 000 (building and sending a JSON answer takes milliseconds; the rest covers the idempotency layer's own
 * final write).
 */
export const FINAL_ANSWER_RESERVE_MS = 2_000;

/**
 * Until when a request keeps retrying a storage write after a processor call ({@link untilStorageAnswers}),
 * in epoch ms: {@link requestEndMs} less {@link FINAL_ANSWER_RESERVE_MS}. Each attempt is also aborted by
 * this time plus 1 s, so the request still answers before its end.
 * @returns undefined without a request deadline (then a write is tried once)
 */
export function storageRetryDeadline(ctx: Pick<RequestContext, 'deadlineMs'>): number | undefined {
  const end = requestEndMs(ctx);
  return end === undefined ? undefined : end - FINAL_ANSWER_RESERVE_MS;
}

/** First wait between two attempts of {@link untilStorageAnswers}, in ms: 100 (doubled per attempt). */
export const STORAGE_RETRY_FIRST_WAIT_MS = 100;

/** Longest wait between two attempts of {@link untilStorageAnswers}, in ms: 1 000 (so storage coming back is seen within a second). */
export const STORAGE_RETRY_MAX_WAIT_MS = 1_000;

/**
 * How {@link untilStorageAnswers} waits between attempts: a timer. A test seam, like a clock: the fault suites
 * replace `wait` by a move of their mocked clock, so an outage that outlasts a request runs in virtual time.
 */
export const storageRetryTimer = {
  /** Resolves after `ms` milliseconds. */
  wait: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Runs a storage write made after a processor call, retrying it while storage is unavailable
 * (`isStorageUnavailable`: network errors, timeouts, throttling, 5xx) until it answers or `untilMs` has come,
 * waiting {@link STORAGE_RETRY_FIRST_WAIT_MS} doubled per attempt up to {@link STORAGE_RETRY_MAX_WAIT_MS}.
 * Each attempt gets an `AbortSignal` that fires 1 s after `untilMs` (a hanging attempt never outlives the
 * request). Any other error (a lost condition, a bug) is thrown at once. `write` must be safe to repeat: a
 * conditional write whose earlier attempt may have been applied although it reported a failure.
 * @param untilMs epoch ms after which no attempt is started ({@link storageRetryDeadline}); undefined: one attempt
 * @returns what `write` returns
 * @throws the last attempt's error when storage never answered in time, or the first error that is not a storage outage
 */
export async function untilStorageAnswers<T>(untilMs: number | undefined, write: (signal?: AbortSignal) => Promise<T>): Promise<T> {
  if (untilMs === undefined) return write();
  let wait = STORAGE_RETRY_FIRST_WAIT_MS;
  for (;;) {
    const signal = AbortSignal.timeout(Math.max(1, untilMs + 1_000 - Date.now()));
    try {
      return await write(signal);
    } catch (err) {
      if (!isStorageUnavailable(err) && !(err as Error)?.name?.startsWith('Abort')) throw err;
      if (Date.now() + wait >= untilMs) throw err;
      await storageRetryTimer.wait(wait);
      wait = Math.min(wait * 2, STORAGE_RETRY_MAX_WAIT_MS);
    }
  }
}
