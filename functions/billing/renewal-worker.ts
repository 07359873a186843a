import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { type BillingRunReport, runBillingWork } from '../../shared/operations/billing/renewal-worker';

/** Time kept back from the Lambda's remaining time so a run ends cleanly: 15 000 ms. */
const RUN_MARGIN_MS = 15_000;

/**
 * The renewal worker (EventBridge Scheduler every minute on deployed stages; a timer in `npm start`): renews
 * subscriptions, retries failed renewals on the dunning schedule and sends payment method expiry notices that
 * fell due (shared/operations/billing/renewal-worker.ts). The event is ignored.
 * @returns the run's report (merchants, items due, outcomes)
 * @throws when the billing directory cannot be read (the Lambda error alarm counts it; the next run retries)
 */
export const handler = middy(async (_event: unknown, context: Context): Promise<BillingRunReport> => {
  const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 60_000;
  const report = await runBillingWork({
    deadlineMs: Date.now() + Math.max(1_000, remaining - RUN_MARGIN_MS),
    publicBaseUrl: process.env.PUBLIC_BASE_URL ?? '',
  });
  logger.info('billing run', { merchants: report.merchants, due: report.due, outcomes: report.outcomes });
  return report;
}).use(injectLambdaContext(logger));
