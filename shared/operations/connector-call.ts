import { ConnectorTechnicalError } from '../connectors/connector';
import { timedConnectorCall } from '../observability/metrics';
import type { RequestContext } from './request-context';

/**
 * Runs one processor call within the request's time budget (`ctx.deadlineMs`) and
 * records its latency. The processor's own timeout still applies inside the call;
 * when the budget ends first the call is abandoned (it may still complete at the
 * processor) and a {@link ConnectorTechnicalError} is thrown: the outcome is unknown.
 * @param operation metric label, e.g. `authorize`, `capture`, `sync`
 * @returns what `call` returns
 * @throws ConnectorTechnicalError when the budget is spent; whatever `call` throws
 */
export async function callWithinBudget<T>(
  ctx: Pick<RequestContext, 'deadlineMs'>,
  connector: string,
  operation: string,
  call: () => Promise<T>,
): Promise<T> {
  if (ctx.deadlineMs === undefined) return timedConnectorCall(connector, operation, call);
  const remaining = ctx.deadlineMs - Date.now();
  if (remaining <= 0) throw new ConnectorTechnicalError(connector, `No time was left in this request to call ${connector}.`);
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
