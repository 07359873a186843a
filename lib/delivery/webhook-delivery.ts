import { Duration, Stack } from 'aws-cdk-lib';
import { FilterCriteria, FilterRule, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';
import type { FunctionFactory } from '../functions/function-factory';
import { acknowledgeNagFindings, type NagAcknowledgement } from '../nag-acknowledgements';

/**
 * The webhook delivery function: its logical name, its handler module (a DynamoDB Streams batch
 * handler exporting `handler`, with Powertools Batch partial failures) and its timeout. Not an
 * HTTP route; fed by the table's stream through {@link WEBHOOK_DELIVERY_STREAM}.
 */
export const WEBHOOK_DELIVERY = {
  name: 'WebhookDelivery',
  entry: 'functions/webhook-delivery/stream-handler.ts',
  timeoutSeconds: 60,
} as const;

/**
 * The webhook delivery worker: its logical name, its handler module (an SQS batch handler
 * exporting `handler`, Powertools Batch partial failures) and its timeout: one attempt's 15 s
 * (`DEFAULT_DELIVERY_TIMEOUT_MS`) and its DynamoDB calls, with room. Fed by the delivery queue
 * through {@link WEBHOOK_DELIVERY_QUEUE}.
 */
export const WEBHOOK_DELIVERY_WORKER = {
  name: 'WebhookDeliveryWorker',
  entry: 'functions/webhook-delivery/queue-handler.ts',
  timeoutSeconds: 60,
} as const;

/**
 * The webhook delivery queue (shared/webhooks/delivery-queue.ts) and its event source mapping
 * (`Queue`, `SqsEventSource`, aws-cdk-lib 2.276.0; Amazon SQS developer guide, "FIFO queue
 * high throughput"; Lambda developer guide, "Using Lambda with Amazon SQS"):
 *
 * - FIFO, `DeduplicationScope.MESSAGE_GROUP` and `FifoThroughputLimit.PER_MESSAGE_GROUP_ID` (high
 *   throughput mode: the limits apply per message group, i.e. per merchant lane);
 * - `visibilityTimeout` 6 × the worker's timeout, as the Lambda guide advises for SQS sources, so a
 *   batch is never handed out again while an invocation still works on it;
 * - `maxReceiveCount` 5, then the message goes to a FIFO dead-letter queue (alarmed when not empty;
 *   the delivery record itself stays due and the reconciler hands it over again);
 * - `batchSize` 10 (the FIFO maximum), `reportBatchItemFailures`, and the stage's `maxConcurrency`.
 */
export const WEBHOOK_DELIVERY_QUEUE = {
  batchSize: 10,
  visibilityTimeout: Duration.seconds(6 * WEBHOOK_DELIVERY_WORKER.timeoutSeconds),
  maxReceiveCount: 5,
  retentionPeriod: Duration.days(4),
  deadLetterRetention: Duration.days(14),
} as const;

/**
 * The event source mapping from the table's stream to {@link WEBHOOK_DELIVERY}
 * (`DynamoEventSource`, aws-cdk-lib 2.276.0 `aws-lambda-event-sources`, `StreamEventSourceProps`;
 * Lambda developer guide, "Lambda parameters for Amazon DynamoDB event source mappings",
 * "Configuring partial batch response with DynamoDB and Lambda" and "Control which events Lambda
 * sends to your function"):
 *
 * - `startingPosition` TRIM_HORIZON: a new mapping starts at the oldest record the stream keeps
 *   (24 h), so events written while the mapping was being created are not skipped.
 * - `batchSize` 25 records (events) per invocation; `parallelizationFactor` left at 1, so the
 *   records of one shard (one item key range) are processed in order.
 * - `reportBatchItemFailures`: the handler answers `{ batchItemFailures: [{ itemIdentifier:
 *   <SequenceNumber> }] }` (Powertools Batch); Lambda retries from the first failed record only.
 * - `bisectBatchOnError`: a batch whose invocation fails as a whole (timeout, crash) is split
 *   in two and retried, isolating a poison record; `retryAttempts` 10 bounds the retries, and
 *   `maxRecordAge` 6 h bounds how old a record may be when it is (re)tried: well past the
 *   iterator-age (5 min) and backlog (1 h) alarms, well inside the stream's 24 h retention, so
 *   the shard and sequence range named by an on-failure message can still be read from the
 *   stream for hours. Records given up on are described (not copied) to the on-failure SQS
 *   queue; the events themselves stay in the table and can be redelivered
 *   (`POST /events/{id}/redeliver`).
 * - `filters`: only INSERTs of items with `entity = "event"` invoke the function (filtered
 *   records are dropped by Lambda, not billed as invocations).
 * - `failureQueueRetention`: how long on-failure messages wait for an operator (SQS maximum).
 */
export const WEBHOOK_DELIVERY_STREAM = {
  startingPosition: StartingPosition.TRIM_HORIZON,
  batchSize: 25,
  reportBatchItemFailures: true,
  bisectBatchOnError: true,
  retryAttempts: 10,
  maxRecordAge: Duration.hours(6),
  filters: [
    FilterCriteria.filter({
      eventName: FilterRule.isEqual('INSERT'),
      dynamodb: { NewImage: { entity: { S: FilterRule.isEqual('event') } } },
    }),
  ],
  failureQueueRetention: Duration.days(14),
} as const;

/** Props of {@link WebhookDelivery}. */
export interface WebhookDeliveryProps {
  config: StageConfig;
  /** Builds both functions (lib/functions/function-factory.ts); its table must have its stream ARN. */
  factory: FunctionFactory;
  /**
   * The stream handler module, from the repository root: {@link WEBHOOK_DELIVERY}`.entry` for the
   * real pair (the worker is then {@link WEBHOOK_DELIVERY_WORKER}`.entry`); a stub (tests) stands for both.
   */
  entry: string;
  /** The background reconciler: it hands due deliveries to the queue again, so it may send to it. */
  reconciler: LambdaFunction;
}

/**
 * Webhook delivery (docs/api.md "Webhook delivery": one merchant's endpoints never delay another's): the
 * `WebhookDelivery` function
 * ({@link WEBHOOK_DELIVERY}) on the table's stream ({@link WEBHOOK_DELIVERY_STREAM}, with an
 * on-failure SQS queue), which records deliveries and queues them; the delivery queue and its
 * dead-letter queue ({@link WEBHOOK_DELIVERY_QUEUE}); and the `WebhookDeliveryWorker` function
 * ({@link WEBHOOK_DELIVERY_WORKER}) on that queue, which sends. Queues: SSE-SQS, TLS only.
 * Grants: the worker the `deliver` table actions, read of the keyed-hash key (endpoint secrets
 * are stored encrypted under it) and consumption of the queue; the stream function no table
 * access; the stream function, the worker (its fan-outs queue deliveries) and the reconciler
 * `sqs:SendMessage` on the queue (`grantSendMessages`), and the reconciler the queue's environment;
 * the stream function, through `DynamoEventSource`, stream read (`grantStreamRead`: DescribeStream,
 * GetRecords, GetShardIterator and ListStreams, on the stream's ARN only, as in the DynamoDB
 * developer guide's "IAM policy to grant read access for a DynamoDB stream only").
 *
 * Its queues and functions are declared in the stack, not in this construct, so their logical ids
 * are the ones the stack has always given them.
 */
export class WebhookDelivery extends Construct {
  /** The stream function (fan-out: one queued message per event). */
  readonly fn: LambdaFunction;
  /** Where the stream function's event source mapping describes the records it gave up on. */
  readonly failureQueue: Queue;
  /** The delivery worker (sends). */
  readonly worker: LambdaFunction;
  /** The delivery queue (FIFO, one message group per merchant lane). */
  readonly queue: Queue;
  /** The delivery queue's dead-letter queue. */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { config, factory, entry, reconciler } = props;
    const stack = Stack.of(this);
    const retrySchedule = config.webhookRetryScheduleSeconds.join(',');
    const q = WEBHOOK_DELIVERY_QUEUE;
    const deadLetterQueue = new Queue(stack, 'WebhookDeliveryDeadLetterQueue', {
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: q.deadLetterRetention,
    });
    acknowledgeNagFindings(deadLetterQueue, [
      {
        id: 'AwsSolutions-SQS3',
        reason: "This queue is itself a dead-letter queue: the webhook delivery queue's, for messages its worker failed 5 times.",
      },
    ]);
    const queue = new Queue(stack, 'WebhookDeliveryQueue', {
      fifo: true,
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: q.visibilityTimeout,
      retentionPeriod: q.retentionPeriod,
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: q.maxReceiveCount },
    });
    const queueEnvironment = {
      WEBHOOK_DELIVERY_QUEUE_URL: queue.queueUrl,
      WEBHOOK_DELIVERY_LANES: String(config.webhookDelivery.lanes),
    };
    const fn = factory.makeFunction(stack, {
      name: WEBHOOK_DELIVERY.name,
      entry,
      // It only queues one fan-out message per event: no table access.
      access: 'none',
      apiKeys: false,
      keyedHashes: false,
      connectors: false,
      connectorAccountsKey: false,
      timeoutSeconds: WEBHOOK_DELIVERY.timeoutSeconds,
      environment: { WEBHOOK_DELIVERY_QUEUE_URL: queue.queueUrl },
    });
    const worker = factory.makeFunction(stack, {
      name: WEBHOOK_DELIVERY_WORKER.name,
      // The stream handler's own module means the real pair; a stub (tests) stands for both.
      entry: entry === WEBHOOK_DELIVERY.entry ? WEBHOOK_DELIVERY_WORKER.entry : entry,
      access: 'deliver',
      apiKeys: false,
      keyedHashes: true,
      connectors: false,
      connectorAccountsKey: false,
      timeoutSeconds: WEBHOOK_DELIVERY_WORKER.timeoutSeconds,
      // Its fan-outs queue the deliveries they make, and it moves a slow endpoint's deliveries to the
      // merchant's slow lanes: it sends to its own queue too.
      environment: {
        WEBHOOK_RETRY_SCHEDULE_SECONDS: retrySchedule,
        ...queueEnvironment,
        WEBHOOK_SLOW_DELIVERY_LANES: String(config.webhookDelivery.slowLanes),
      },
    });
    queue.grantSendMessages(fn);
    queue.grantSendMessages(worker);
    queue.grantSendMessages(reconciler);
    for (const [name, value] of Object.entries(queueEnvironment)) reconciler.addEnvironment(name, value);
    worker.addEventSource(
      new SqsEventSource(queue, {
        batchSize: q.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: config.webhookDelivery.maxConcurrency,
      }),
    );
    const failureQueue = new Queue(stack, 'WebhookDeliveryFailureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: WEBHOOK_DELIVERY_STREAM.failureQueueRetention,
    });
    const queueAcknowledgements: NagAcknowledgement[] = [
      {
        id: 'AwsSolutions-SQS3',
        reason:
          "This queue is itself a dead-letter queue: the on-failure destination of the webhook delivery function's stream event source mapping (cdk-nag only recognises DLQs of SQS queues and Lambda functions).",
      },
    ];
    acknowledgeNagFindings(failureQueue, queueAcknowledgements);
    const s = WEBHOOK_DELIVERY_STREAM;
    fn.addEventSource(
      new DynamoEventSource(factory.table, {
        startingPosition: s.startingPosition,
        batchSize: s.batchSize,
        reportBatchItemFailures: s.reportBatchItemFailures,
        bisectBatchOnError: s.bisectBatchOnError,
        retryAttempts: s.retryAttempts,
        maxRecordAge: s.maxRecordAge,
        onFailure: new SqsDlq(failureQueue),
        filters: [...s.filters],
      }),
    );
    this.fn = fn;
    this.failureQueue = failureQueue;
    this.worker = worker;
    this.queue = queue;
    this.deadLetterQueue = deadLetterQueue;
  }
}
