import { ConnectorRequestError, ConnectorTechnicalError } from '../connectors/connector';
import { recordConnectorCall, timedConnectorCall } from '../observability/metrics';
import { circuitFor } from './circuit-breaker';
import { type ConnectorTarget, targetAccount, targetName } from './connector-target';

/**
 * The time budget of the calls made for one request: `deadlineMs`, epoch ms by which processor calls must have
 * ended (the request context's deadline); undefined for no budget beyond each processor's own timeout.
 */
export interface CallBudget {
  deadlineMs?: number;
}

/**
 * Runs one processor call within the request's time budget (`ctx.deadlineMs`), records its
 * latency (`ConnectorLatency`, the call alone) and its outcome (`ConnectorCalls`: `ok` when the
 * processor answered — a result or a {@link ConnectorRequestError} refusal —, `technical_error`
 * otherwise, the budget's end included), and feeds the connector's circuit breaker
 * (shared/processor-call/circuit-breaker.ts: technical failures count, answers do not; an `authorize` meeting
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
  ctx: CallBudget,
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
  ctx: CallBudget,
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
async function budgeted<T>(ctx: CallBudget, connector: string, operation: string, call: () => Promise<T>): Promise<T> {
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
