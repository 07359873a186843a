import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { recordReconcilerFailure } from '../../shared/observability/metrics';
import { type ReconcileReport, reconcileOpenOperations } from '../../shared/operations/reconcile-operations';

/** Time kept back from the Lambda's remaining time so a run ends cleanly: 20 000 ms. */
const RUN_MARGIN_MS = 20_000;

/**
 * The background reconciler (EventBridge Scheduler, every minute on deployed stages;
 * a timer in `npm start`): settles every open operation that is due with its processor.
 * See `reconcileOpenOperations` and docs/money-safety.md. The event is ignored.
 * @returns the run's report (counts by kind and outcome)
 * @throws when the open-operations index cannot be read (the run is counted as failed
 *   in `ReconcilerFailures` and the Lambda error alarms)
 */
export const handler = middy(async (_event: unknown, context: Context): Promise<ReconcileReport> => {
  const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 60_000;
  try {
    const report = await reconcileOpenOperations({ deadlineMs: Date.now() + Math.max(1_000, remaining - RUN_MARGIN_MS) });
    logger.info('reconciler run', { open: report.open, oldest_age_seconds: report.oldestAgeSeconds, outcomes: report.outcomes });
    return report;
  } catch (err) {
    recordReconcilerFailure();
    logger.error('reconciler run failed', { error: err as Error });
    throw err;
  }
}).use(injectLambdaContext(logger));
