/**
 * The local stand-in for the webhook delivery queue (an SQS FIFO queue on AWS) and its Lambda
 * event source mapping: messages are kept in memory and handed to the very handler deployed
 * stages run (functions/webhook-delivery/queue-handler.ts) in the Lambda `SQSEvent` shape.
 *
 * What it keeps of SQS FIFO ("Amazon SQS FIFO queue key terms"; Lambda developer guide, "Using
 * Lambda with Amazon SQS" and "Scaling behavior for FIFO queues"), because delivery isolation
 * rests on it:
 * - a message group has at most one batch in flight; other groups' messages are handed out
 *   meanwhile, up to `concurrency` batches at once (the mapping's maximum concurrency; by default the
 *   dev stage's, lib/config/stage-config.ts), the oldest visible message of a free group first;
 * - a batch holds up to 10 messages of one group, oldest first;
 * - a message whose `MessageDeduplicationId` was seen in its group in the last 5 minutes is dropped;
 * - messages reported failed (`batchItemFailures`) come back after the visibility timeout, and
 *   after `maxReceiveCount` receives are moved aside (the dead-letter queue), reported on stderr.
 * It registers itself as the queue transport (`useDeliveryQueueTransport`), so the stream's
 * fan-out and the reconciler (in the same process) send to it. Used by `npm start`, the
 * benchmarks and the HTTP tests (`startDeliveryQueue()`).
 */
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { stageConfig } from '../../lib/config/stage-config';
import { runInvocation } from '../../shared/observability/invocation-scope';
import { type QueuedDeliveryMessage, useDeliveryQueueTransport } from '../../shared/webhooks/delivery-queue';

/** Options of {@link startDeliveryQueue}. */
export interface DeliveryQueueOptions {
  /** The handler (default: functions/webhook-delivery/queue-handler.ts). */
  handler?: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;
  /** Most batches in flight at once (the mapping's `maximumConcurrency`; default 32). */
  concurrency?: number;
  /** Most messages per batch (default 10). */
  batchSize?: number;
  /** Milliseconds a failed message stays hidden before it is handed out again (default 1 000; SQS: the visibility timeout). */
  visibilityTimeoutMs?: number;
  /** Receives after which a failing message is moved aside (default 5; SQS: the redrive policy's `maxReceiveCount`). */
  maxReceiveCount?: number;
  /** Where failures are reported (default stderr). */
  onError?: (message: string) => void;
}

/** A running local delivery queue. */
export interface LocalDeliveryQueue {
  /** Messages waiting or in flight. */
  size(): number;
  /** The message groups of the batches in flight now (one entry per batch: a group has at most one). */
  inFlightGroups(): string[];
  /** The message groups of the messages waiting (not in flight), one entry per message, oldest first. */
  waitingGroups(): string[];
  /** Messages moved aside after `maxReceiveCount` receives (their bodies). */
  deadLetters(): string[];
  /** Resolves when no message is waiting or in flight (polls every 20 ms), or rejects after `timeoutMs` (default 30 000). */
  drained(timeoutMs?: number): Promise<void>;
  /** Stops handing out messages, unregisters the transport and waits for the batches in flight. */
  stop(): Promise<void>;
}

interface Held {
  id: string;
  message: QueuedDeliveryMessage;
  sentAt: number;
  receiveCount: number;
  visibleAt: number;
}

/** The FIFO deduplication interval: 5 minutes (Amazon SQS developer guide, "Exactly-once processing in Amazon SQS"). */
const DEDUPLICATION_WINDOW_MS = 5 * 60 * 1000;

/**
 * Starts the local delivery queue and registers it as the transport of
 * shared/webhooks/delivery-queue.ts (replacing any registered before).
 */
export async function startDeliveryQueue(options: DeliveryQueueOptions = {}): Promise<LocalDeliveryQueue> {
  const handler = options.handler ?? (await import('../../functions/webhook-delivery/queue-handler')).handler;
  const concurrency = options.concurrency ?? stageConfig('dev').webhookDelivery.maxConcurrency;
  const batchSize = options.batchSize ?? 10;
  const visibilityTimeoutMs = options.visibilityTimeoutMs ?? 1_000;
  const maxReceiveCount = options.maxReceiveCount ?? 5;
  const onError = options.onError ?? ((m: string) => process.stderr.write(`delivery queue: ${m}\n`));
  const waiting: Held[] = [];
  const dead: string[] = [];
  const seen = new Map<string, number>();
  const busyGroups = new Set<string>();
  const inFlight = new Set<Held>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let nextId = 0;
  let wakeTimer: NodeJS.Timeout | undefined;

  const takeBatch = (now: number): Held[] | undefined => {
    const head = waiting.find((h) => !busyGroups.has(h.message.groupId) && h.visibleAt <= now);
    if (!head) return undefined;
    const group = head.message.groupId;
    const batch: Held[] = [];
    for (const h of waiting) {
      if (h.message.groupId !== group) continue;
      if (h.visibleAt > now || batch.length >= batchSize) break; // in order within a group
      batch.push(h);
    }
    return batch;
  };

  const runBatch = async (batch: Held[]): Promise<void> => {
    const group = batch[0]?.message.groupId ?? '';
    busyGroups.add(group);
    for (const h of batch) inFlight.add(h);
    const records: SQSRecord[] = batch.map((h) => {
      h.receiveCount += 1;
      return {
        messageId: h.id,
        receiptHandle: h.id,
        body: h.message.body,
        attributes: {
          ApproximateReceiveCount: String(h.receiveCount),
          SentTimestamp: String(h.sentAt),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
          MessageGroupId: group,
          MessageDeduplicationId: h.message.deduplicationId,
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:webhook-deliveries.fifo',
        awsRegion: 'local',
      };
    });
    let failed = new Set<string>();
    try {
      const context = { functionName: 'WebhookDeliveryWorker', awsRequestId: `local-${Date.now()}` } as Context;
      const out = await runInvocation(context, () => handler({ Records: records }, context));
      failed = new Set((out?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (err) {
      onError(`the worker failed a whole batch: ${(err as Error).message}`);
      failed = new Set(batch.map((h) => h.id));
    }
    const now = Date.now();
    for (const h of batch) {
      inFlight.delete(h);
      if (!failed.has(h.id)) {
        waiting.splice(waiting.indexOf(h), 1);
      } else if (h.receiveCount >= maxReceiveCount) {
        waiting.splice(waiting.indexOf(h), 1);
        dead.push(h.message.body);
        onError(`a message failed ${h.receiveCount} times and was moved aside`);
      } else {
        h.visibleAt = now + visibilityTimeoutMs;
      }
    }
    busyGroups.delete(group);
  };

  const dispatch = (): void => {
    if (stopped) return;
    const now = Date.now();
    while (running.size < concurrency) {
      const batch = takeBatch(now);
      if (!batch) break;
      const run = runBatch(batch).finally(() => {
        running.delete(run);
        dispatch();
      });
      running.add(run);
    }
    // Messages hidden after a failure: look again when the first of them shows.
    const hidden = waiting.filter((h) => h.visibleAt > now).map((h) => h.visibleAt);
    if (wakeTimer === undefined && hidden.length > 0) {
      wakeTimer = setTimeout(
        () => {
          wakeTimer = undefined;
          dispatch();
        },
        Math.max(1, Math.min(...hidden) - now),
      );
      wakeTimer.unref();
    }
  };

  const unregister = useDeliveryQueueTransport({
    async send(messages) {
      const now = Date.now();
      for (const [key, until] of seen) if (until <= now) seen.delete(key);
      for (const message of messages) {
        const key = `${message.groupId}\u0000${message.deduplicationId}`;
        if (seen.has(key)) continue;
        seen.set(key, now + DEDUPLICATION_WINDOW_MS);
        nextId += 1;
        waiting.push({ id: `local-message-${nextId}`, message, sentAt: now, receiveCount: 0, visibleAt: now });
      }
      queueMicrotask(dispatch);
    },
  });

  return {
    size: () => waiting.length,
    inFlightGroups: () => [...busyGroups],
    waitingGroups: () => waiting.filter((h) => !inFlight.has(h)).map((h) => h.message.groupId),
    deadLetters: () => [...dead],
    async drained(timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (waiting.length > 0 || running.size > 0) {
        if (Date.now() > until) throw new Error(`the delivery queue still holds ${waiting.length} messages`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      stopped = true;
      if (wakeTimer) clearTimeout(wakeTimer);
      unregister();
      await Promise.allSettled([...running]);
    },
  };
}
