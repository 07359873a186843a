/**
 * The local stand-in for the table's stream → Lambda event source mapping: polls DynamoDB
 * Local's stream of the table (DynamoDB Streams API: DescribeTable → `LatestStreamArn`,
 * DescribeStream → shards, GetShardIterator, GetRecords every ~250 ms) and invokes the very
 * handler deployed stages run (functions/webhook-delivery/stream-handler.ts) with each batch,
 * in the Lambda event shape (`DynamoDBStreamEvent`). Records the handler reports as failed
 * (`batchItemFailures`) are retried from the first of them, as Lambda does, a few times.
 * A table created before streams were declared is given its stream (UpdateTable).
 * Used by `npm start` and by the HTTP tests (`startEventStream()`).
 */
import { DescribeTableCommand, DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { runInvocation } from '../../shared/observability/invocation-scope';
import { tableName as defaultTableName, STREAM_SPECIFICATION } from '../../shared/storage/table-definition';

/** A running stream reader. */
export interface EventStream {
  /** The stream polled. */
  streamArn: string;
  /** Stops polling and waits for the batch in progress. */
  stop(): Promise<void>;
}

/** Options of {@link startEventStream}. */
export interface EventStreamOptions {
  /** DynamoDB endpoint (default `DYNAMODB_ENDPOINT`). */
  endpoint?: string;
  /** Table (default `TABLE_NAME`, else the local default). */
  tableName?: string;
  /** Poll interval, milliseconds (default 250). */
  intervalMs?: number;
  /**
   * Where to start in shards open at start: `trim_horizon` (default: everything the stream
   * still holds, 24 h, so events written while the reader was stopped are delivered; events
   * already delivered are not sent again, as their delivery records exist, and endpoints never
   * receive events from before their creation) or `latest` (only what is written from now on).
   * Shards that appear later are always read from their start.
   */
  startingPosition?: 'latest' | 'trim_horizon';
  /** The handler (default: functions/webhook-delivery/stream-handler.ts). */
  handler?: (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | undefined>;
  /** Where failures are reported (default stderr). */
  onError?: (message: string) => void;
}

/** Times a batch with failed records is handed to the handler again before it is skipped. */
const MAX_BATCH_RETRIES = 3;

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The SDK's stream record in the Lambda event shape (`ApproximateCreationDateTime` in Unix seconds). */
function toLambdaRecord(r: StreamRecord, streamArn: string, region: string): DynamoDBRecord {
  const d = r.dynamodb ?? {};
  return {
    eventID: r.eventID,
    eventName: r.eventName as DynamoDBRecord['eventName'],
    eventVersion: r.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: r.awsRegion ?? region,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(d.ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: Math.floor(new Date(d.ApproximateCreationDateTime).getTime() / 1000) }
        : {}),
      Keys: d.Keys as never,
      NewImage: d.NewImage as never,
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType as never,
    },
  };
}

/** The table's stream ARN, enabling the stream first when the table has none. */
async function ensureStream(client: DynamoDBClient, table: string): Promise<string> {
  let out = await client.send(new DescribeTableCommand({ TableName: table }));
  if (!out.Table?.StreamSpecification?.StreamEnabled || !out.Table.LatestStreamArn) {
    await client.send(new UpdateTableCommand({ TableName: table, StreamSpecification: STREAM_SPECIFICATION }));
    for (let i = 0; i < 100; i += 1) {
      out = await client.send(new DescribeTableCommand({ TableName: table }));
      if (out.Table?.LatestStreamArn && out.Table.TableStatus === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const arn = out.Table?.LatestStreamArn;
  if (!arn) throw new Error(`Table ${table} has no stream.`);
  return arn;
}

/**
 * Starts reading the table's stream and invoking the delivery handler with its records.
 * Resolves once every open shard has an iterator, so anything written afterwards is seen.
 * @returns the reader; call `stop()` before closing DynamoDB Local
 * @throws when the table does not exist or its stream cannot be enabled
 */
export async function startEventStream(options: EventStreamOptions = {}): Promise<EventStream> {
  const endpoint = options.endpoint ?? process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('startEventStream needs DYNAMODB_ENDPOINT (DynamoDB Local).');
  const table = options.tableName ?? defaultTableName();
  const region = process.env.AWS_REGION || 'us-east-1';
  const intervalMs = options.intervalMs ?? 250;
  const onError = options.onError ?? ((m: string) => process.stderr.write(`event stream: ${m}\n`));
  const handler = options.handler ?? (await import('../../functions/webhook-delivery/stream-handler')).handler;
  const db = new DynamoDBClient({ endpoint, region, credentials });
  const streams = new DynamoDBStreamsClient({ endpoint, region, credentials });
  const streamArn = await ensureStream(db, table);
  db.destroy();

  /** Shard id → next iterator (undefined once the shard is closed and read to its end). */
  const shards = new Map<string, { iterator: string | undefined; lastSequence?: string }>();
  const context = { functionName: 'WebhookDelivery', awsRequestId: 'local', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;

  const iteratorFor = async (shardId: string, type: 'LATEST' | 'TRIM_HORIZON' | 'AFTER_SEQUENCE_NUMBER', sequence?: string) =>
    (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ShardIteratorType: type,
          ...(sequence ? { SequenceNumber: sequence } : {}),
        }),
      )
    ).ShardIterator;

  const discover = async (initial: boolean) => {
    let start: string | undefined;
    do {
      const out = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }),
      );
      for (const shard of out.StreamDescription?.Shards ?? []) {
        const id = shard.ShardId as string;
        if (shards.has(id)) continue;
        const closed = Boolean(shard.SequenceNumberRange?.EndingSequenceNumber);
        if (initial && closed && options.startingPosition === 'latest') {
          shards.set(id, { iterator: undefined }); // history before the reader started
          continue;
        }
        const type = initial && options.startingPosition === 'latest' ? 'LATEST' : 'TRIM_HORIZON';
        shards.set(id, { iterator: await iteratorFor(id, type) });
      }
      start = out.StreamDescription?.LastEvaluatedShardId;
    } while (start);
  };

  const deliver = async (records: DynamoDBRecord[]) => {
    let batch = records;
    for (let attempt = 0; batch.length > 0; attempt += 1) {
      let failed: string[];
      try {
        const out = await runInvocation(context, () => handler({ Records: batch }, context));
        failed = (out?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      } catch (err) {
        failed = [batch[0]?.dynamodb?.SequenceNumber ?? ''];
        onError(`handler failed: ${(err as Error).message}`);
      }
      if (failed.length === 0) return;
      const first = batch.findIndex((r) => failed.includes(r.dynamodb?.SequenceNumber ?? ''));
      batch = first < 0 ? [] : batch.slice(first);
      if (attempt >= MAX_BATCH_RETRIES) {
        onError(
          `${batch.length} stream record(s) still failing after ${MAX_BATCH_RETRIES} retries; skipped (POST /events/{id}/redeliver sends them)`,
        );
        return;
      }
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  };

  const pollShard = async (shardId: string, state: { iterator: string | undefined; lastSequence?: string }) => {
    if (!state.iterator) return;
    let out: GetRecordsCommandOutput;
    try {
      out = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 100 }));
    } catch (err) {
      if (err instanceof ExpiredIteratorException) {
        state.iterator = state.lastSequence
          ? await iteratorFor(shardId, 'AFTER_SEQUENCE_NUMBER', state.lastSequence)
          : await iteratorFor(shardId, 'TRIM_HORIZON');
        return;
      }
      throw err;
    }
    const records = out.Records ?? [];
    if (records.length > 0) {
      await deliver(records.map((r) => toLambdaRecord(r, streamArn, region)));
      state.lastSequence = records[records.length - 1]?.dynamodb?.SequenceNumber ?? state.lastSequence;
    }
    state.iterator = out.NextShardIterator;
  };

  await discover(true);
  let stopped = false;
  let polls = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = async () => {
    try {
      polls += 1;
      if (polls % 8 === 0) await discover(false); // new shards, about every 2 s
      for (const [id, state] of shards) {
        if (stopped) return;
        await pollShard(id, state);
      }
    } catch (err) {
      onError(`poll failed: ${(err as Error).message}`);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(() => {
        running = undefined;
        schedule();
      });
    }, intervalMs);
    timer.unref?.();
  };
  schedule();
  return {
    streamArn,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      streams.destroy();
    },
  };
}
