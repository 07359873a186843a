/**
 * The renewal worker's run (docs/api.md "Renewals" and "Dispute deadlines"): every minute (EventBridge Scheduler on deployed stages; a timer in
 * `npm start`) it finds the merchants with billing work through the billing directory, reads each one's work due
 * now from its own partitions (Queries on GSI5, never a Scan), and works it (renewals, dunning retries, expiry
 * notices) merchant by merchant in turn, a few at a time, until the work is done or the run's deadline.
 *
 * Isolation: a merchant's due work is read from partitions only it writes, at most `perMerchant` items per run,
 * and interleaved with every other merchant's, so one merchant's million renewals on the 1st take their turns
 * beside a small merchant's one (which is worked in the run's first round); one merchant's failing items are
 * logged and left due for the next run, never stopping another's.
 * Once-only: see ./renewal.ts and ./invoice-collection.ts (deterministic invoice ids and payment Idempotency-Keys):
 * two runs at once, or a run killed half-way, never bill a period twice.
 */

import { interleaveByMerchant } from '../../domain/merchant-fair-order';
import { logger } from '../../observability/logger';
import { dueBillingWork, listBillingMerchants } from '../../storage/billing-directory-repository';
import { workDueDispute } from '../disputes/dispute-operations';
import { pollDisputes } from '../disputes/dispute-polling';
import { workDueExpiry } from './payment-method-expiry';
import { workDueSubscription } from './renewal';

/** Options of {@link runBillingWork}. */
export interface BillingRunOptions {
  /** The run's time (real time; default now). */
  now?: Date;
  /** Epoch ms after which no new item is started. */
  deadlineMs: number;
  /** Items read per merchant partition per run: 100. */
  perMerchant?: number;
  /** Items worked at once: 8. */
  concurrency?: number;
  /** The API's public base URL, for a renewal payment's hosted page (PUBLIC_BASE_URL). */
  publicBaseUrl?: string;
}

/** What a run did: items by outcome, merchants seen, items found due. */
export interface BillingRunReport {
  merchants: number;
  due: number;
  outcomes: Record<string, number>;
}

/**
 * One run (see the module comment).
 * @throws only when the directory cannot be read (nothing was worked); every item's own failure is counted
 *   (`failed`) and logged
 */
export async function runBillingWork(options: BillingRunOptions): Promise<BillingRunReport> {
  const now = (options.now ?? new Date()).toISOString();
  const perMerchant = options.perMerchant ?? 100;
  const merchants = await listBillingMerchants();
  const found: { merchantId: string; id: string }[] = [];
  const outcomes: Record<string, number> = {};
  const count = (k: string) => {
    outcomes[k] = (outcomes[k] ?? 0) + 1;
  };
  // Read each merchant's due work, a few merchants at a time.
  for (let i = 0; i < merchants.length; i += 8) {
    const batch = merchants.slice(i, i + 8);
    const pages = await Promise.all(
      batch.map((merchantId) =>
        dueBillingWork(merchantId, now, perMerchant).catch((err: unknown) => {
          logger.error('reading due billing work failed', { merchant_id: merchantId, error: (err as Error).name });
          count('read_failed');
          return [];
        }),
      ),
    );
    batch.forEach((merchantId, k) => {
      for (const d of pages[k] ?? []) found.push({ merchantId, id: d.id });
    });
  }
  // Disputes of processors that send no webhooks, polled beside the due work, never before it: a slow or
  // hanging processor account delays only its own polling, never another merchant's renewals. Processors list in
  // real time: the poll's cursor follows the clock, never the run's `now` (a test's time travel).
  const polling = pollDisputes(merchants, new Date().toISOString(), options.deadlineMs).catch((err: unknown) => {
    logger.error('dispute polling failed; the next run polls again', { error: (err as Error).name });
    return { failed: 1 } as Record<string, number>;
  });
  const order = interleaveByMerchant(found);
  let next = 0;
  const worker = async () => {
    for (let item = order[next++]; item !== undefined; item = order[next++]) {
      if (Date.now() > options.deadlineMs) {
        count('deferred');
        continue;
      }
      try {
        if (item.id.startsWith('sub_')) {
          count(await workDueSubscription({ merchantId: item.merchantId, publicBaseUrl: options.publicBaseUrl ?? '' }, item.id, now));
        } else if (item.id.startsWith('pm_')) {
          count((await workDueExpiry(item.merchantId, item.id, now)) ? 'expiring_sent' : 'not_due');
        } else if (item.id.startsWith('dp_')) {
          count(`dispute_${await workDueDispute(item.merchantId, item.id, now)}`);
        }
      } catch (err) {
        count('failed');
        logger.error('billing work failed; it stays due for the next run', {
          merchant_id: item.merchantId,
          item_id: item.id,
          error: (err as Error).name,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  for (const [k, n] of Object.entries(await polling)) outcomes[`dispute_poll_${k}`] = n;
  return { merchants: merchants.length, due: found.length, outcomes };
}
