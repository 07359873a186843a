/**
 * `npm run capacity -- --payments-per-second 2000 [--merchants 1] [--refund-ratio 0.1] [--shards N] …`:
 * the capacity model (see docs/capacity.md for a recorded run and the reasoning).
 *
 * 1. Starts an in-memory DynamoDB Local (or reuses `DYNAMODB_ENDPOINT`), creates a scratch table from
 *    the shared definition, and drives one payment lifecycle through the project's own code
 *    (scripts/capacity/drive.ts), recording every DynamoDB call with the items before and after it
 *    (scripts/capacity/access-patterns.ts).
 * 2. Measures the stored items with DynamoDB's size rules (scripts/capacity/item-size.ts) and turns
 *    each call into WCU/RCU on the partition key patterns it touches.
 * 3. Applies the load (scripts/capacity/model.ts) and prints, for today's layout and the sharded one,
 *    WCU/s and RCU/s on the hottest partition of each pattern with its share of the per-partition
 *    limits (1,000 WCU/s, 3,000 RCU/s), flagging > 50 %, and the least list shard count N that keeps
 *    every merchant list at or under 50 %.
 *
 * Options (defaults in brackets): --payments-per-second [2000], --merchants [1], --confirm-ratio [1],
 * --webhook-ratio [0.2], --refund-ratio [0.1], --retrieve-ratio [1], --idempotency-ratio [1],
 * --list-per-second [5] and --event-list-per-second [1] (per merchant), --containers-per-key [50],
 * --api-key-cache-seconds [10], --shards [the least N that meets 50 %], --gsi-transaction-factor [1],
 * --drive-shards [1] (the list shard count the lifecycle is driven with: 1 measures today's keys; K > 1
 * measures the sharded code paths — entries on `…#S<k>`, one Query per shard — and folds them back),
 * --open-shards [the least that meets 50 %] (open-operations index partitions, the stage's `openIndexShards`),
 * --delivery-containers [100] and --endpoint-cache-seconds [1] (fan-out reads of a merchant's webhook endpoints).
 * 4. Prints success-rate routing's outcome counters at one merchant's share of the load: writes and cache refreshes
 *    on each counter partition, met / not met at 50 % (scripts/capacity/routing-outcomes.ts).
 * 5. Prints the renewal worker's cost and one merchant's 1,000,000 renewals on the 1st (scripts/capacity/renewals.ts).
 * Report on stdout (markdown), progress on stderr.
 */
import './capacity/env';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { destroyDocumentClient } from '../shared/storage/client';
import { tableName } from '../shared/storage/table-definition';
import { type Recorder, startRecorder } from './capacity/access-patterns';
import { driveLifecycle, LIST_PAGE_SIZE } from './capacity/drive';
import { isIdempotencyPattern, OPEN_INDEX_SHARD_COUNT, patternScope } from './capacity/key-patterns';
import { type Layout, type LoadSpec, minimumOpenShards, OPERATIONS, type UnitRecord } from './capacity/model';
import { renewalSection } from './capacity/renewals';
import { evaluate, indexBreakdown, itemSizeTable, layoutSection, operationTable, requiredShards } from './capacity/report';
import { DEFAULT_OUTCOME_LOAD, measureOutcomeCalls, outcomeSection } from './capacity/routing-outcomes';
import { type DynamoDbLocalHandle, startDynamoDbLocal } from './local/dynamodb-local';
import { ensureTable } from './local/ensure-table';

const progress = (m: string) => process.stderr.write(`capacity: ${m}\n`);

const NUMBER_OPTIONS = {
  'payments-per-second': 2000,
  merchants: 1,
  'confirm-ratio': 1,
  'webhook-ratio': 0.2,
  'refund-ratio': 0.1,
  'retrieve-ratio': 1,
  'idempotency-ratio': 1,
  'list-per-second': 5,
  'event-list-per-second': 1,
  'containers-per-key': 50,
  'api-key-cache-seconds': 10,
  shards: 0,
  'gsi-transaction-factor': 1,
  'drive-shards': 1,
  'open-shards': 0,
  'delivery-containers': 100,
  'endpoint-cache-seconds': 1,
} as const;

type NumberOption = keyof typeof NUMBER_OPTIONS;

function readOptions(argv: string[]): Record<NumberOption, number> {
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(Object.keys(NUMBER_OPTIONS).map((k) => [k, { type: 'string' as const }])),
    strict: true,
  });
  const out = { ...NUMBER_OPTIONS } as Record<NumberOption, number>;
  for (const k of Object.keys(NUMBER_OPTIONS) as NumberOption[]) {
    const raw = values[k];
    if (raw === undefined) continue;
    const v = Number(raw);
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${k} must be a non-negative number, got ${String(raw)}`);
    out[k] = v;
  }
  if (out.merchants < 1) throw new Error('--merchants must be at least 1');
  for (const k of ['confirm-ratio', 'webhook-ratio', 'idempotency-ratio'] as const) {
    if (out[k] > 1) throw new Error(`--${k} must be between 0 and 1`);
  }
  return out;
}

/**
 * The records the model uses: phases named after an operation as they are; the probes split — the
 * first request's API key read and touch, the keyed create's idempotency record writes.
 */
function modelRecords(recorder: Recorder, drivenShards: number): UnitRecord[] {
  const out: UnitRecord[] = [];
  const keptOnce = new Set<string>();
  for (const recorded of recorder.records) {
    // Driven with K list shards, a list call made K Queries, one per shard: one shard sees 1/K of them.
    const perShard = recorded.kind === 'read' && patternScope(recorded.pattern) === 'merchant-list' && drivenShards > 1;
    const r = perShard
      ? { ...recorded, units: recorded.units / drivenShards, unitsKeysOnly: recorded.unitsKeysOnly / drivenShards }
      : recorded;
    if (r.pattern.startsWith('RATELIMIT#')) {
      // A lease write per request while driving (each request is a new window's first): the model
      // keeps one lease per class and gives it the rate of leases (shared/http/rate-limit.ts).
      const op = /#write#/.test(r.pattern) ? OPERATIONS.rateLimitLeaseWrite : OPERATIONS.rateLimitLeaseRead;
      if (r.kind === 'write' && !keptOnce.has(op)) out.push({ ...r, operation: op });
      keptOnce.add(op);
    } else if (r.kind === 'read' && isFanOutEndpointRead(r.pattern)) {
      // The delivery worker reads a merchant's endpoints once per cache period, not per event: the
      // model keeps one read (the Query and its item read) and gives it the cache's rate.
      if (!keptOnce.has(`${r.target}\u0000${r.pattern}`)) out.push({ ...r, operation: OPERATIONS.fanOutEndpoints });
      keptOnce.add(`${r.target}\u0000${r.pattern}`);
    } else if (r.operation === 'auth probe') {
      if (r.pattern.startsWith('APIKEY#')) out.push({ ...r, operation: r.kind === 'read' ? OPERATIONS.auth : OPERATIONS.authTouch });
    } else if (r.operation === 'idempotency probe') {
      // One record per keyed POST; today each function's records share a partition `idempotency#<function name>`.
      if (!isIdempotencyPattern(r.pattern)) continue;
      out.push({ ...r, operation: OPERATIONS.idempotencyCreate, pattern: 'idempotency#<CreatePayment>' });
      out.push({ ...r, operation: OPERATIONS.idempotencyConfirm, pattern: 'idempotency#<ConfirmPayment>' });
      out.push({ ...r, operation: OPERATIONS.idempotencyRefund, pattern: 'idempotency#<RefundPayment>' });
    } else {
      out.push(r);
    }
  }
  return out;
}

/** A read of a merchant's webhook endpoints (the GSI1 list or an endpoint item), as fan-out makes. */
function isFanOutEndpointRead(pattern: string): boolean {
  return pattern === 'MERCHANT#<m>#WEBHOOK_ENDPOINTS' || /^MERCHANT#<m>#WEBHOOK_ENDPOINT#/.test(pattern);
}

function callsByOperation(recorder: Recorder): Map<string, string[]> {
  const calls = new Map(recorder.calls);
  calls.set(OPERATIONS.auth, ['GetItem (APIKEY)']);
  calls.set(OPERATIONS.authTouch, ['UpdateItem (APIKEY)']);
  calls.set(OPERATIONS.fanOutEndpoints, ['Query (GSI1 WEBHOOK_ENDPOINTS)', 'BatchGetItem (endpoint items)']);
  calls.set(OPERATIONS.rateLimitLeaseWrite, ['UpdateItem (RATELIMIT counter)']);
  calls.set(OPERATIONS.rateLimitLeaseRead, ['UpdateItem (RATELIMIT counter)']);
  for (const op of [OPERATIONS.idempotencyCreate, OPERATIONS.idempotencyConfirm, OPERATIONS.idempotencyRefund]) {
    calls.set(op, ['PutItem + UpdateItem (idempotency record)']);
  }
  return calls;
}

/** Deletes the run's scratch table from a DynamoDB Local the run did not start (best effort). */
async function dropScratchTable(endpoint: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName() }));
  } catch (err) {
    progress(`could not delete the scratch table ${tableName()}: ${(err as Error).message}`);
  } finally {
    client.destroy();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const o = readOptions(process.argv.slice(2));
  const load: LoadSpec = {
    paymentsPerSecond: o['payments-per-second'],
    merchants: o.merchants,
    confirmRatio: o['confirm-ratio'],
    webhookRatio: o['webhook-ratio'],
    refundRatio: o['refund-ratio'],
    retrieveRatio: o['retrieve-ratio'],
    idempotencyRatio: o['idempotency-ratio'],
    listPerSecond: o['list-per-second'],
    eventListPerSecond: o['event-list-per-second'],
    containersPerKey: o['containers-per-key'],
    apiKeyCacheSeconds: o['api-key-cache-seconds'],
    deliveryContainers: o['delivery-containers'],
    endpointCacheSeconds: o['endpoint-cache-seconds'],
  };

  let dynamo: DynamoDbLocalHandle | undefined;
  if (!process.env.DYNAMODB_ENDPOINT) {
    progress('starting DynamoDB Local (in memory)');
    dynamo = await startDynamoDbLocal({ inMemory: true });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  const endpoint = process.env.DYNAMODB_ENDPOINT as string;
  const merchantId = `mer_capacity${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let recorder: Recorder | undefined;
  try {
    await ensureTable(endpoint, tableName());
    progress(`table ${tableName()} on ${endpoint}; driving one payment lifecycle through the local gateway`);
    recorder = startRecorder({
      endpoint,
      region: process.env.AWS_REGION ?? 'us-east-1',
      merchantIds: [merchantId],
      gsiTransactionFactor: o['gsi-transaction-factor'],
    });
    await driveLifecycle({
      recorder,
      merchantId,
      apiKey: `sk_test_capacity_${randomUUID().replace(/-/g, '')}`,
      listShards: Math.max(1, Math.round(o['drive-shards'])),
    });
    const records = modelRecords(recorder, Math.max(1, Math.round(o['drive-shards'])));
    // Success-rate routing's counters, measured apart from the lifecycle (its own section, one merchant's load).
    const outcomeCalls = await measureOutcomeCalls(recorder, merchantId);
    const outcomeLoad = {
      ...DEFAULT_OUTCOME_LOAD,
      paymentsPerSecond: load.paymentsPerSecond / load.merchants,
      counterBytes: outcomeCalls.counterBytes,
      writeUnitsPerOutcome: outcomeCalls.writeUnitsPerOutcome,
    };

    const needAll = requiredShards(records, load, 'ALL');
    const needKeysOnly = requiredShards(records, load, 'KEYS_ONLY');
    const shards = o.shards > 0 ? Math.round(o.shards) : Number.isFinite(needAll) ? needAll : 1;
    const keysOnlyShards = o.shards > 0 ? Math.round(o.shards) : Number.isFinite(needKeysOnly) ? needKeysOnly : 1;
    const needOpen = minimumOpenShards(
      evaluate(records, load, { name: 'open', shards: 1, projection: 'ALL', idempotency: 'per-record' }).rows,
    );
    const openShards = o['open-shards'] > 0 ? Math.round(o['open-shards']) : Number.isFinite(needOpen) ? needOpen : OPEN_INDEX_SHARD_COUNT;
    const layouts: Layout[] = [
      { name: "Today's layout", shards: 1, projection: 'ALL', idempotency: 'per-function' },
      {
        name: `Sharded lists (N = ${shards}), projection ALL, open-operations index over ${openShards} shards`,
        shards,
        projection: 'ALL',
        idempotency: 'per-record',
        openShards,
      },
      {
        name: `Sharded lists (N = ${keysOnlyShards}), projection KEYS_ONLY on GSI1/GSI2 + BatchGetItem hydration, open-operations index over ${openShards} shards`,
        shards: keysOnlyShards,
        projection: 'KEYS_ONLY',
        idempotency: 'per-record',
        openShards,
      },
    ];
    const results = layouts.map((l) => evaluate(records, load, l));

    const args = process.argv.slice(2).join(' ');
    const out = [
      `## Capacity model: \`npm run capacity${args ? ` -- ${args}` : ''}\``,
      '',
      `Load: ${load.paymentsPerSecond} payments/s over ${load.merchants} merchant(s); confirm ${load.confirmRatio}, of which ` +
        `${load.webhookRatio} complete by connector webhook; refunds ${load.refundRatio}/payment; retrieves ${load.retrieveRatio}/payment; ` +
        `Idempotency-Key on ${load.idempotencyRatio} of POSTs; ${load.listPerSecond} payment list pages/s and ${load.eventListPerSecond} event list pages/s ` +
        `per merchant (${LIST_PAGE_SIZE} items a page); API key read by ${load.containersPerKey} containers every ${load.apiKeyCacheSeconds} s; ` +
        `one webhook endpoint per merchant, read for fan-out by ${load.deliveryContainers} delivery containers every ${load.endpointCacheSeconds} s; GSI write factor in transactions ${o['gsi-transaction-factor']}; ` +
        `lifecycle driven with ${Math.max(1, Math.round(o['drive-shards']))} list shard(s).`,
      '',
      '### Items as stored (DynamoDB item size rules)',
      '',
      itemSizeTable(recorder.samples()),
      '',
      '### Units per operation (one occurrence, all partitions)',
      '',
      operationTable(records, callsByOperation(recorder), recorder.reported, load),
      '',
      '### Units per payment by index (at this mix)',
      '',
      indexBreakdown(records, load),
      '',
      ...results.map(layoutSection),
      '### Least list shard count',
      '',
      `- projection ALL: N = ${needAll} keeps every merchant-list partition at or under 50 % at this load;`,
      `- projection KEYS_ONLY on GSI1/GSI2 (+ BatchGetItem hydration of list pages): N = ${needKeysOnly};`,
      `- open-operations index (GSI5, \`OPEN#<k>\`/\`OPENWH#<k>\`; ${OPEN_INDEX_SHARD_COUNT} shards by default, the stage's \`openIndexShards\` sets \`OPEN_INDEX_SHARDS\`): ${needOpen} shards keep it at or under 50 % at this load.`,
      '',
      outcomeSection(outcomeLoad),
      `(measured: a refresh of the run's ${outcomeCalls.refresh.items} counter(s), one Query per shard, took ${outcomeCalls.refresh.rcu} RCU in all)`,
      '',
      renewalSection(),
      `(model run in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    recorder?.stop();
    destroyDocumentClient();
    if (dynamo) await dynamo.stop();
    else await dropScratchTable(endpoint);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`capacity: failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
