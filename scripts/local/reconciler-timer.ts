import type { Context } from 'aws-lambda';
import { runInvocation } from '../../shared/observability/invocation-scope';

/** A running local reconciler timer. */
export interface ReconcilerTimer {
  intervalSeconds: number;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the very reconciler handler deployed stages schedule (functions/reconciler/reconcile.ts)
 * every `RECONCILE_INTERVAL_SECONDS` (default 30) in this process, as EventBridge Scheduler
 * does every minute on AWS. Runs never overlap here (they may on AWS, harmlessly).
 * A failed run is reported on stderr and the next one runs as usual.
 */
export function startReconcilerTimer(): ReconcilerTimer {
  return startJobTimer('reconciler', () => import('../../functions/reconciler/reconcile'), process.env.RECONCILE_INTERVAL_SECONDS);
}

/**
 * Runs the renewal worker deployed stages schedule (functions/billing/renewal-worker.ts) every
 * `BILLING_INTERVAL_SECONDS` (default 30) in this process, as EventBridge Scheduler does every minute on AWS.
 */
export function startBillingTimer(): ReconcilerTimer {
  return startJobTimer('billing', () => import('../../functions/billing/renewal-worker'), process.env.BILLING_INTERVAL_SECONDS);
}

/** A timer calling a scheduled job's handler; runs never overlap here. */
function startJobTimer(
  job: string,
  load: () => Promise<{ handler: (event: unknown, context: Context) => Promise<unknown> }>,
  intervalSetting: string | undefined,
): ReconcilerTimer {
  const configured = Number(intervalSetting ?? 30);
  const intervalSeconds = Number.isFinite(configured) && configured > 0 ? configured : 30;
  let running: Promise<void> | undefined;
  const context = { getRemainingTimeInMillis: () => 60_000, functionName: job, awsRequestId: 'local' } as unknown as Context;
  const run = () => {
    if (running) return;
    running = load()
      .then((m) => runInvocation(context, () => m.handler({}, context)))
      .then(() => undefined)
      .catch((err: unknown) => {
        process.stderr.write(`${job}: run failed: ${(err as Error).message}\n`);
      })
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, intervalSeconds * 1000);
  timer.unref();
  return {
    intervalSeconds,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
