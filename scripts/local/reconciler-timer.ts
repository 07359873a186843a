import type { Context } from 'aws-lambda';

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
  const configured = Number(process.env.RECONCILE_INTERVAL_SECONDS ?? 30);
  const intervalSeconds = Number.isFinite(configured) && configured > 0 ? configured : 30;
  let running: Promise<void> | undefined;
  const context = { getRemainingTimeInMillis: () => 60_000, functionName: 'Reconciler', awsRequestId: 'local' } as unknown as Context;
  const run = () => {
    if (running) return;
    running = import('../../functions/reconciler/reconcile')
      .then((m) => m.handler({}, context))
      .then(() => undefined)
      .catch((err: unknown) => {
        process.stderr.write(`reconciler: run failed: ${(err as Error).message}\n`);
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
