import { ConnectorRequestError, ConnectorTechnicalError } from '../connectors/connector';
import { recordConnectorCall, timedConnectorCall } from '../observability/metrics';
import { circuitFor } from '../routing/circuit-breaker';
import { type ConnectorTarget, targetAccount, targetName } from '../routing/connector-target';
import { isStorageUnavailable } from '../storage/storage-errors';
import { ANSWER_RESERVE_MS, type RequestContext } from './request-context';

/**
 * Runs one processor call within the request's time budget (`ctx.deadlineMs`), records its
 * latency (`ConnectorLatency`, the call alone) and its outcome (`ConnectorCalls`: `ok` when the
 * processor answered — a result or a {@link ConnectorRequestError} refusal —, `technical_error`
 * otherwise, the budget's end included), and feeds the connector's circuit breaker
 * (shared/routing/circuit-breaker.ts: technical failures count, answers do not; an `authorize` meeting
 * an open circuit is not sent). The processor's own timeout still applies inside the call; when the
 * budget ends first the call is abandoned (it may still complete at the processor) and a
 * {@link ConnectorTechnicalError} is thrown: the outcome is unknown.
 * @param target the connector account called (its circuit and per-account metrics), or a connector
 *   name for the stage's own account of that connector
 * @param operation metric label, e.g. `authorize`, `capture`, `sync`
 * @returns what `call` returns
 * @throws ConnectorTechnicalError when the budget is spent, or (with `notSent`) when an authorization
 *   meets an open circuit; whatever `call` throws
 */
export async function callWithinBudget<T>(
  ctx: Pick<RequestContext, 'deadlineMs'>,
  target: string | ConnectorTarget,
  operation: string,
  call: () => Promise<T>,
): Promise<T> {
  const connector = targetName(target);
  const account = targetAccount(target);
  // No call at all (our budget, not the processor's health): neither counted nor fed to the breaker.
  if (ctx.deadlineMs !== undefined && ctx.deadlineMs - Date.now() <= 0) {
    throw new ConnectorTechnicalError(connector, `No time was left in this request to call ${connector}.`);
  }
  // A call started with little of the request's budget left can end by our deadline rather than the
  // processor's slowness: it is made and counted, but not fed to the breaker (a slow table must not
  // open a healthy processor's circuit).
  if (ctx.deadlineMs !== undefined && ctx.deadlineMs - Date.now() < MIN_BUDGET_FOR_HEALTH_MS) {
    return countedCall(ctx, connector, account, operation, call);
  }
  return circuitFor(target).run(operation, () => countedCall(ctx, connector, account, operation, call));
}

/**
 * Least time (ms) left in the request's budget for a processor call to count toward its connector's
 * circuit breaker: 1,000 ms. A call started with less is still made (and counted in `ConnectorCalls`),
 * but its outcome says little about the processor, whose own timeouts are tens of seconds
 * (docs/connectors.md "Timeouts").
 */
export const MIN_BUDGET_FOR_HEALTH_MS = 1_000;

/** The call raced against the budget, with its `ConnectorCalls` outcome recorded. */
async function countedCall<T>(
  ctx: Pick<RequestContext, 'deadlineMs'>,
  connector: string,
  account: string | null,
  operation: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    const value = await budgeted(ctx, connector, operation, call);
    recordConnectorCall(connector, operation, 'ok', account);
    return value;
  } catch (err) {
    recordConnectorCall(connector, operation, err instanceof ConnectorRequestError ? 'ok' : 'technical_error', account);
    throw err;
  }
}

/** The timed call, abandoned with a {@link ConnectorTechnicalError} when the request's budget ends first. */
async function budgeted<T>(
  ctx: Pick<RequestContext, 'deadlineMs'>,
  connector: string,
  operation: string,
  call: () => Promise<T>,
): Promise<T> {
  if (ctx.deadlineMs === undefined) return timedConnectorCall(connector, operation, call);
  const remaining = Math.max(1, ctx.deadlineMs - Date.now());
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ConnectorTechnicalError(connector, `${connector} did not answer within this request's time budget.`)),
      remaining,
    );
  });
  try {
    return await Promise.race([timedConnectorCall(connector, operation, call), budget]);
  } finally {
    clearTimeout(timer);
  }
}

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
