// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { type BillingRunReport, runBillingWork } from '../../shared/operations/billing/renewal-worker';
import { wholeNumberSetting } from '../../shared/settings/whole-number-setting';

/** Time kept back from the Lambda's remaining time so a run ends cleanly: 15 000 ms. */
const RUN_MARGIN_MS = 15_000;

/**
 * The renewal worker (EventBridge Scheduler every minute on deployed stages; a timer in `npm start`): renews
 * subscriptions, retries failed renewals on the dunning schedule and sends payment method expiry notices that
 * fell due (shared/operations/billing/renewal-worker.ts). The event is ignored. Settings: `BILLING_PER_MERCHANT`
 * (entries read per merchant partition per run, default 100) and `BILLING_CONCURRENCY` (items worked at once,
 * default 8); docs/capacity.md "Renewals" says when to raise them.
 * @returns the run's report (merchants, items due, outcomes)
 * @throws when the billing directory cannot be read (the Lambda error alarm counts it; the next run retries)
 */
export const handler = middy(async (_event: unknown, context: Context): Promise<BillingRunReport> => {
  const remaining = typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : 60_000;
  const report = await runBillingWork({
    deadlineMs: Date.now() + Math.max(1_000, remaining - RUN_MARGIN_MS),
    publicBaseUrl: process.env.PUBLIC_BASE_URL ?? '',
    perMerchant: wholeNumberSetting(process.env.BILLING_PER_MERCHANT, { min: 1, max: 1000 }, 100),
    concurrency: wholeNumberSetting(process.env.BILLING_CONCURRENCY, { min: 1, max: 200 }, 8),
  });
  logger.info('billing run', { merchants: report.merchants, due: report.due, outcomes: report.outcomes });
  return report;
}).use(injectLambdaContext(logger));
