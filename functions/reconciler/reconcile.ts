// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { recordReconcilerFailure } from '../../shared/observability/metrics';
import {
  type ReconcileReport,
  reconcileDueContinuously,
  reconcileOpenOperations,
} from '../../shared/operations/reconciliation/reconcile-operations';
import { RECONCILE_PASS_INTERVAL_MS, RECONCILER_RUN_SPAN_MS } from '../../shared/settings/reconcile-settings';

/** Time kept back from the Lambda's remaining time so a run ends cleanly: 20 000 ms. */
const RUN_MARGIN_MS = 20_000;

/**
 * How long this run keeps taking over operations as they fall due, in ms: `RECONCILER_RUN_SPAN_MS` (65 s: the
 * schedule's minute plus one look) inside Lambda, where EventBridge Scheduler starts a run every minute; 0
 * elsewhere (`npm start`'s timer calls the handler every `RECONCILE_INTERVAL_SECONDS` and waits for it: one
 * pass per call).
 */
function runSpanMs(): number {
  return process.env.AWS_LAMBDA_FUNCTION_NAME ? RECONCILER_RUN_SPAN_MS : 0;
}

/**
 * The background reconciler (EventBridge Scheduler, every minute on deployed stages;
 * a timer in `npm start`): settles every open operation that is due with its processor
 * (`reconcileOpenOperations`, which also sends the webhook retries that fell due), then, for the rest of
 * its minute, takes over each payment, refund or customer delete as soon as it falls due
 * (`reconcileDueContinuously`, a look every 5 s), so a claim whose lease ends between two scheduled runs
 * is settled within seconds, not at the next run. See docs/money-safety.md. The event is ignored.
 * @returns the first pass's report (counts by kind and outcome), with the later looks' outcomes added
 * @throws when the open-operations index cannot be read by the first pass (the run is counted as failed
 *   in `ReconcilerFailures` and the Lambda error alarms)
 */
export const handler = middy(async (_event: unknown, context: Context): Promise<ReconcileReport> => {
  const startedAt = Date.now();
  const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 60_000;
  const deadlineMs = startedAt + Math.max(1_000, remaining - RUN_MARGIN_MS);
  const span = runSpanMs();
  // The looks start one interval after the first pass (which may take long over webhook retries) and run
  // beside it; an item is never taken twice at once in this process.
  const following: Promise<Record<string, number>> =
    span > 0
      ? reconcileDueContinuously({ startMs: startedAt + RECONCILE_PASS_INTERVAL_MS, untilMs: startedAt + span, deadlineMs })
      : Promise.resolve({});
  try {
    const report = await reconcileOpenOperations({ deadlineMs });
    for (const [key, count] of Object.entries(await following)) report.outcomes[key] = (report.outcomes[key] ?? 0) + count;
    logger.info('reconciler run', { open: report.open, oldest_age_seconds: report.oldestAgeSeconds, outcomes: report.outcomes });
    return report;
  } catch (err) {
    recordReconcilerFailure();
    logger.error('reconciler run failed', { error: err as Error });
    await following.catch(() => undefined);
    throw err;
  }
}).use(injectLambdaContext(logger));
