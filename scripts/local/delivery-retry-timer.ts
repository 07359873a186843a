/**
 * The local hand-over of webhook retries when they fall due (`npm start`, tests). On AWS the
 * reconciler hands due deliveries to the delivery queue once a minute; locally its timer runs every
 * `RECONCILE_INTERVAL_SECONDS` (30 s), so a retry scheduled 5 s after a failure (or 1 s with
 * `WEBHOOK_RETRY_SCHEDULE_SECONDS=1,2`) would wait up to 30 s. This timer keeps the schedule: it reads
 * the webhook deliveries' partitions of the open-operations index (GSI5 `OPENWH#n`, a Query each in
 * due order, never a Scan), hands every due one to the queue as the reconciler does
 * ({@link retryDelivery}, round-robin by merchant), and looks again at the earliest due time it saw,
 * or after `pollMs` at the latest (a retry scheduled after this look is seen by the next one, which
 * then waits for its due time). Hand-overs are conditional, so it and the reconciler never send a
 * delivery twice.
 */

import { interleaveByMerchant } from '../../shared/domain/merchant-fair-order';
import { mapBounded, retryDelivery } from '../../shared/operations/events/event-delivery-operations';
import { type OpenItem, openDeliveryShards, queryOpenItems } from '../../shared/storage/open-items-repository';

/** Options of {@link startDeliveryRetryTimer}. */
export interface DeliveryRetryTimerOptions {
  /** Longest pause between two looks, ms (default {@link DEFAULT_RETRY_POLL_MS}). */
  pollMs?: number;
  /** Items read per partition per look (default 25; a partition whose page is all due is read again at once). */
  perShardLimit?: number;
  /** Hand-overs made at once (default 4). */
  concurrency?: number;
  /** Where failures are reported (default stderr). */
  onError?: (message: string) => void;
}

/** A running local retry timer. */
export interface DeliveryRetryTimer {
  /** Stops looking and waits for the look in progress. */
  stop(): Promise<void>;
}

/** Longest pause between two looks at the index when nothing is due sooner: 1 000 ms. */
export const DEFAULT_RETRY_POLL_MS = 1_000;

/** What one look saw, for {@link nextLookAt}: per partition, its items (due order) and whether it held more. */
export interface LookedPage {
  items: readonly Pick<OpenItem, 'dueAt'>[];
  more: boolean;
}

/**
 * When to look next, after a look at `nowMs`: at once when a partition's page was full and all due
 * (a backlog); else at the earliest due time among the items not due yet, but no later than `pollMs`
 * from now (a retry scheduled meanwhile).
 * @param nowMs Unix epoch ms of the look
 * @returns Unix epoch ms
 */
export function nextLookAt(pages: readonly LookedPage[], nowMs: number, pollMs: number): number {
  const nowIso = new Date(nowMs).toISOString();
  let next = nowMs + pollMs;
  for (const page of pages) {
    const pending = page.items.find((i) => i.dueAt > nowIso);
    if (pending) next = Math.min(next, Date.parse(pending.dueAt));
    else if (page.more) return nowMs;
  }
  return Math.max(nowMs, next);
}

/**
 * Starts the timer: a first look at once, then as {@link nextLookAt} says. A look that fails
 * (storage down) is reported and the next one follows after `pollMs`.
 */
export function startDeliveryRetryTimer(options: DeliveryRetryTimerOptions = {}): DeliveryRetryTimer {
  const pollMs = Math.max(1, options.pollMs ?? DEFAULT_RETRY_POLL_MS);
  const limit = Math.max(1, options.perShardLimit ?? 25);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const onError = options.onError ?? ((m: string) => process.stderr.write(`webhook retries: ${m}\n`));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const look = async (): Promise<number> => {
    const nowMs = Date.now();
    const nowIso = new Date(nowMs).toISOString();
    const pages = await Promise.all(openDeliveryShards().map((shard) => queryOpenItems(shard, limit)));
    const due = pages
      .flatMap((p) => p.items)
      .filter((i) => i.kind === 'webhook_delivery' && i.dueAt <= nowIso)
      .sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    await mapBounded(interleaveByMerchant(due), concurrency, async (item) => {
      try {
        await retryDelivery(item.merchantId, item.id);
      } catch (err) {
        onError(`a due delivery could not be handed over (${(err as Error).name}); the next look tries again`);
      }
    });
    return nextLookAt(pages, nowMs, pollMs);
  };

  const schedule = (atMs: number) => {
    if (stopped) return;
    timer = setTimeout(run, Math.max(0, atMs - Date.now()));
    timer.unref();
  };
  const run = () => {
    timer = undefined;
    running = look()
      .then(schedule, (err: unknown) => {
        onError(`a look at the open-operations index failed: ${(err as Error).message}`);
        schedule(Date.now() + pollMs);
      })
      .finally(() => {
        running = undefined;
      });
  };
  run();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
