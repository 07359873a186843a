// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../billing/invoice-settlement-hook';
import '../payment-links/link-place-hook';
import { ApiError } from '../../domain/errors';
import { interleaveByMerchant } from '../../domain/merchant-fair-order';
import { logger } from '../../observability/logger';
import { recordOpenOperations, recordOperationSettled, recordOverdueWebhookDelivery } from '../../observability/metrics';
import { nextCheckAt, RECONCILE_PASS_INTERVAL_MS, RECONCILE_PASS_READ_PER_SHARD } from '../../settings/reconcile-settings';
import {
  deferOpenItem,
  type OpenItem,
  type OpenItemKind,
  openDeliveryShards,
  openShards,
  queryOpenItems,
} from '../../storage/open-items-repository';
import { getPayment, OPEN_PAYMENT_STATUSES } from '../../storage/payments-repository';
import { getStoredPayout } from '../../storage/payouts-repository';
import { getStoredRefund } from '../../storage/refunds-repository';
import { isStorageUnavailable } from '../../storage/storage-errors';
import { finishCustomerDelete } from '../customers/customer-deletion';
import { retryDelivery } from '../events/event-delivery-operations';
import { reconcilePayment } from '../payments/payment-sync';
import { payoutOpen, reconcilePayout } from '../payouts/payout-sync';
import { reconcileRefund } from '../refunds/refund-sync';

/** What one reconciler run saw and did. Ages in seconds; counts are items. */
export interface ReconcileReport {
  /** Open items by kind (all of them, due or not, up to the per-shard read limit). */
  open: Record<OpenItemKind, number>;
  /** Age of the oldest open item by kind, from when it became open (seconds; 0 when none). */
  oldestAgeSeconds: Record<OpenItemKind, number>;
  /** Due items handled, by kind and outcome (e.g. `payment:settled`, `refund:failed`, `payment:error`). */
  outcomes: Record<string, number>;
  /**
   * How long past its due time the most overdue webhook delivery is (seconds; 0 when none is due):
   * a retry not sent for long after it fell due means the delivery machinery (this reconciler, the
   * delivery worker) is stuck or behind — unlike a delivery's age, which a merchant's failing
   * endpoint legitimately stretches over the whole retry schedule.
   */
  oldestOverdueDeliverySeconds: number;
}

/** Options of {@link reconcileOpenOperations}. */
export interface ReconcileOptions {
  /** Epoch ms by which the run stops taking new items (the Lambda's remaining time less a margin). */
  deadlineMs: number;
  /** Most items read per shard per run (default 500). */
  perShardLimit?: number;
  /** How many items are settled at once (default 4): bounded, to be gentle with processors' rate limits. */
  concurrency?: number;
}

/**
 * Most webhook deliveries one run hands to the delivery queue (a conditional update and a queue message
 * each, milliseconds: the worker sends them); the rest wait for the next run.
 */
export const MAX_DELIVERIES_PER_RUN = 2_000;

/**
 * Open payments, refunds and customer deletions one run reads at most, over all shards of the index
 * (500 per shard at the default 16 shards; the per-shard read is this ÷ the shard count).
 */
export const MONEY_ITEMS_PER_RUN = 8_000;

/**
 * The API's public base URL for the reconciler (`PUBLIC_BASE_URL`: the stack sets the HTTP API's endpoint;
 * `npm start` the local gateway's), so a sync that finds a payment waiting on a new authentication step can
 * point its `next_action` at the hosted step page. Unset → `{}` (the payment's own hosted-page URL is used).
 */
function reconcilerBaseUrl(): { publicBaseUrl?: string } {
  const url = process.env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, '');
  return url ? { publicBaseUrl: url } : {};
}

const KINDS: OpenItemKind[] = ['payment', 'awaiting_payer', 'refund', 'customer_delete', 'webhook_delivery', 'payout'];

/** Settles one due item; returns the outcome label, whether it is still open, and how often it was checked before. */
async function settle(
  item: OpenItem,
  deadlineMs: number,
): Promise<{ outcome: string; stillOpen: boolean; checks: number; recheckAt?: string }> {
  const ctx = { merchantId: item.merchantId, ...reconcilerBaseUrl() };
  if (item.kind === 'payment' || item.kind === 'awaiting_payer') {
    const stored = await getPayment(item.merchantId, item.id);
    if (!stored) return { outcome: 'missing', stillOpen: false, checks: 0 };
    const { payment, outcome, recheckAt } = await reconcilePayment(ctx, stored);
    const open = OPEN_PAYMENT_STATUSES.includes(payment.status) || payment.pending_operation !== null;
    return { outcome, stillOpen: open && outcome !== 'in_flight', checks: stored.reconcileChecks, ...(recheckAt ? { recheckAt } : {}) };
  }
  if (item.kind === 'refund') {
    const stored = await getStoredRefund(item.merchantId, item.id);
    if (!stored) return { outcome: 'missing', stillOpen: false, checks: 0 };
    const { refund, outcome } = await reconcileRefund(ctx, stored);
    return { outcome, stillOpen: refund.status === 'Pending' && outcome !== 'in_flight', checks: stored.reconcileChecks };
  }
  if (item.kind === 'payout') {
    const stored = await getStoredPayout(item.merchantId, item.id);
    if (!stored) return { outcome: 'missing', stillOpen: false, checks: 0 };
    const { outcome } = await reconcilePayout(ctx, stored);
    const after = await getStoredPayout(item.merchantId, item.id);
    const open = after !== undefined && payoutOpen(after) && outcome !== 'in_flight';
    return { outcome, stillOpen: open, checks: stored.reconcileChecks, ...(after?.recheckAt ? { recheckAt: after.recheckAt } : {}) };
  }
  if (item.kind === 'webhook_delivery') {
    // The delivery keeps its own schedule in the index (next attempt, or the end of a lease).
    return { outcome: await retryDelivery(item.merchantId, item.id), stillOpen: false, checks: 0 };
  }
  const done = await finishCustomerDelete(item.merchantId, item.id, deadlineMs);
  return { outcome: done === 'done' ? 'deleted' : 'unlinking', stillOpen: done !== 'done', checks: 0 };
}

/**
 * Money items (payments, refunds, customer deletes) being settled in this process right now, by
 * `<kind>#<merchant>#<id>`: a look of {@link reconcileDueContinuously} never takes one a run's first pass (or
 * an earlier look) is still settling. Across processes, the conditional writes keep a double take harmless.
 */
const settling = new Set<string>();

/** The {@link settling} key of an item. */
const settlingKey = (item: OpenItem) => `${item.kind}#${item.merchantId}#${item.id}`;

/**
 * Settles one due item and, when it stays open, defers its next check with back-off ({@link nextCheckAt}), or to
 * the time the answer can be final when that is sooner (a capture or void kept inside its processor's work window).
 * A failure is logged and the item deferred too — except a money item whose failure is storage being
 * unavailable: that one stays due, so the next look (seconds later) takes it as soon as storage is back, instead
 * of a back-off meant for a processor that is down.
 * @returns the outcome label (`error` on failure), or undefined when the item is already being settled here
 */
async function handleDueItem(item: OpenItem, deadlineMs: number): Promise<string | undefined> {
  const money = item.kind !== 'webhook_delivery';
  const key = settlingKey(item);
  if (money) {
    if (settling.has(key)) return undefined;
    settling.add(key);
  }
  try {
    const { outcome, stillOpen, checks, recheckAt } = await settle(item, deadlineMs);
    if (stillOpen) {
      const next = nextCheckAt(checks);
      await deferOpenItem(item, recheckAt && recheckAt < next ? recheckAt : next);
    }
    return outcome;
  } catch (err) {
    logger.warn('reconciliation of an open item failed; retried later', {
      kind: item.kind,
      id: item.id,
      error: err instanceof ApiError ? err.code : (err as Error).name,
    });
    if (!(money && isStorageUnavailable(err))) {
      try {
        await deferOpenItem(item, nextCheckAt(item.checks));
      } catch {
        // Storage is failing too: the item stays due and is taken at the next run.
      }
    }
    return 'error';
  } finally {
    if (money) settling.delete(key);
  }
}

/** Options of {@link reconcileDueContinuously}. */
export interface ContinuousReconcileOptions {
  /** Epoch ms of the first look (default now). */
  startMs?: number;
  /** Epoch ms after which no new look starts (the run's span: `RECONCILER_RUN_SPAN_MS` after its start). */
  untilMs: number;
  /** Epoch ms by which no new item is taken (the Lambda's remaining time less a margin). */
  deadlineMs: number;
  /** Time between two looks in ms (default {@link RECONCILE_PASS_INTERVAL_MS}). */
  intervalMs?: number;
  /** Items read per shard per look (default {@link RECONCILE_PASS_READ_PER_SHARD}). */
  perShardLimit?: number;
  /** How many items are settled at once (default 4). */
  concurrency?: number;
}

/**
 * Keeps the reconciler taking over money items as they fall due, for the rest of a scheduled run
 * (docs/money-safety.md, "Convergence": EventBridge Scheduler runs the reconciler once a minute at most, but a claim's lease ends at any
 * second). Every `intervalMs` until `untilMs` it reads the shards of the open-operations index (a Query each, due
 * items first, at most `perShardLimit`; a shard whose page is all due is read again up to a run's per-shard
 * share of {@link MONEY_ITEMS_PER_RUN}) and hands every due payment, refund or customer delete it is not already
 * settling to `concurrency` workers, which settle them as a run's first pass does ({@link handleDueItem}).
 * Cost: a look reads at most `perShardLimit` items per shard while nothing is backlogged, due or not (the index
 * is ordered by due time, but the repository's Query has no bound on it).
 * Webhook deliveries are left to the run's first pass ({@link reconcileOpenOperations}) and its per-run cap. A
 * look that cannot read the index (storage down) is skipped; the next one tries again.
 * @returns due items handled, by `kind:outcome` (as {@link ReconcileReport.outcomes})
 */
export async function reconcileDueContinuously(options: ContinuousReconcileOptions): Promise<Record<string, number>> {
  const intervalMs = Math.max(1, options.intervalMs ?? RECONCILE_PASS_INTERVAL_MS);
  const limit = Math.max(1, options.perShardLimit ?? RECONCILE_PASS_READ_PER_SHARD);
  const outcomes: Record<string, number> = {};
  const queue: OpenItem[] = [];
  const queued = new Set<string>();
  let looking = true;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const look = async () => {
    const first = options.startMs ?? Date.now();
    if (first > Date.now()) await new Promise((resolve) => setTimeout(resolve, Math.min(first, options.untilMs) - Date.now()));
    for (let next = first; Date.now() < options.untilMs && Date.now() < options.deadlineMs; ) {
      next += intervalMs;
      try {
        const nowIso = new Date(Date.now()).toISOString();
        const shardList = openShards();
        const shards = await Promise.all(
          shardList.map(async (shard) => {
            // A small page in due order is enough while few items are due; a page full of due items is read
            // again as far as a run reads, so a backlog is taken at once.
            const page = await queryOpenItems(shard, limit);
            const last = page.items.at(-1);
            if (!page.more || !last || last.dueAt > nowIso) return page;
            return queryOpenItems(shard, Math.max(limit, Math.ceil(MONEY_ITEMS_PER_RUN / shardList.length)));
          }),
        );
        for (const item of shards.flatMap((shard) => shard.items)) {
          if (item.kind === 'webhook_delivery' || item.dueAt > nowIso) continue;
          const key = settlingKey(item);
          if (queued.has(key) || settling.has(key)) continue;
          queued.add(key);
          queue.push(item);
        }
        queue.sort((a, b) => a.dueAt.localeCompare(b.dueAt));
        signal();
      } catch (err) {
        logger.warn('reconciler look at the open-operations index failed; the next one tries again', {
          error: (err as Error).name,
        });
      }
      const pause = Math.min(next, options.untilMs) - Date.now();
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
    looking = false;
    signal();
  };
  const worker = async () => {
    for (;;) {
      const item = queue.shift();
      if (!item) {
        if (!looking) return;
        await new Promise<void>((resolve) => {
          const previous = wake;
          wake = () => {
            previous?.();
            resolve();
          };
        });
        continue;
      }
      queued.delete(settlingKey(item));
      if (Date.now() > options.deadlineMs) continue;
      const label = await handleDueItem(item, options.deadlineMs);
      if (label === undefined) continue;
      const key = `${item.kind}:${label}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
      recordOperationSettled(item.kind, label);
    }
  };
  await Promise.all([look(), ...Array.from({ length: options.concurrency ?? 4 }, worker)]);
  return outcomes;
}

/**
 * One run of the background reconciler (scheduled every minute on deployed stages,
 * on a timer by `npm start`): reads every shard of the open-operations index (GSI5:
 * claims, `Processing`/`RequiresAction` payments, `Pending` refunds, interrupted
 * customer deletes, webhook deliveries awaiting a retry — a Query per shard, never a Scan),
 * and settles each item whose due time has passed: with its processor
 * ({@link reconcilePayment}, {@link reconcileRefund}), {@link finishCustomerDelete}, or
 * by attempting the webhook again ({@link retryDelivery}). An item still open afterwards
 * (the payer has not acted, the processor is down) is deferred with back-off
 * ({@link nextCheckAt}). Claims whose lease still runs are never taken over; every
 * write is conditional, so overlapping runs are harmless. Emits the open-operation
 * gauges and one count per settled item.
 * @returns what was seen and done
 * @throws only when the index cannot be read at all (storage down): the run failed
 */
export async function reconcileOpenOperations(options: ReconcileOptions): Promise<ReconcileReport> {
  const nowMs = Date.now();
  const nowIso = new Date(nowMs).toISOString();
  // Per-shard reads shrink as the shard count grows, so one run reads about as much however the
  // index is spread (8,000 money items and 800 deliveries at most; the rest wait for the next run).
  const shards = openShards();
  const limit = options.perShardLimit ?? Math.max(1, Math.ceil(MONEY_ITEMS_PER_RUN / shards.length));
  const deliveryLimit = Math.max(1, Math.ceil((MAX_DELIVERIES_PER_RUN * 4) / shards.length));
  // Money first, in partitions of its own; webhook deliveries in theirs, with their own workers
  // and a cap per run, so a flood of due retries never delays a payment's or refund's settlement.
  const [money, deliveries] = await Promise.all([
    Promise.all(shards.map((shard) => queryOpenItems(shard, limit))),
    Promise.all(openDeliveryShards().map((shard) => queryOpenItems(shard, deliveryLimit))),
  ]);
  const all = [...money, ...deliveries].flatMap((s) => s.items);
  const report: ReconcileReport = {
    open: { payment: 0, awaiting_payer: 0, refund: 0, customer_delete: 0, webhook_delivery: 0, payout: 0 },
    oldestAgeSeconds: { payment: 0, awaiting_payer: 0, refund: 0, customer_delete: 0, webhook_delivery: 0, payout: 0 },
    outcomes: {},
    oldestOverdueDeliverySeconds: 0,
  };
  for (const item of all) {
    report.open[item.kind] += 1;
    const age = Math.max(0, Math.round((nowMs - Date.parse(item.openSince)) / 1000));
    if (Number.isFinite(age)) report.oldestAgeSeconds[item.kind] = Math.max(report.oldestAgeSeconds[item.kind], age);
    if (item.kind === 'webhook_delivery' && item.dueAt <= nowIso) {
      const overdue = Math.round((nowMs - Date.parse(item.dueAt)) / 1000);
      if (Number.isFinite(overdue)) report.oldestOverdueDeliverySeconds = Math.max(report.oldestOverdueDeliverySeconds, overdue);
    }
  }
  for (const kind of KINDS) recordOpenOperations(kind, report.open[kind], report.oldestAgeSeconds[kind]);
  recordOverdueWebhookDelivery(report.oldestOverdueDeliverySeconds);
  const due = all.filter((item) => item.dueAt <= nowIso).sort((a, b) => a.dueAt.localeCompare(b.dueAt));
  const moneyQueue = due.filter((item) => item.kind !== 'webhook_delivery');
  // Round-robin by merchant: one merchant's flood of due retries takes one turn per round, so it never delays the others'.
  const deliveryQueue = interleaveByMerchant(due.filter((item) => item.kind === 'webhook_delivery')).slice(0, MAX_DELIVERIES_PER_RUN);
  const worker = (queue: OpenItem[]) => async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      if (Date.now() > options.deadlineMs) return;
      const label = await handleDueItem(item, options.deadlineMs);
      if (label === undefined) continue;
      const key = `${item.kind}:${label}`;
      report.outcomes[key] = (report.outcomes[key] ?? 0) + 1;
      recordOperationSettled(item.kind, label);
    }
  };
  await Promise.all([
    ...Array.from({ length: options.concurrency ?? 4 }, worker(moneyQueue)),
    ...Array.from({ length: options.concurrency ?? 4 }, worker(deliveryQueue)),
  ]);
  return report;
}
