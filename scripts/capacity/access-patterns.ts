/**
 * Records the project's real access patterns: a middleware on the process-wide DynamoDB client
 * (shared/storage/client.ts `baseClient()`, whose middleware stack the document client shares, so
 * repositories, operations and Powertools idempotency all pass through it) that, for every call made
 * while a phase is open:
 * - asks DynamoDB for `ReturnConsumedCapacity: 'INDEXES'` (kept as a cross-check: DynamoDB Local
 *   reports it, though it counts transactions at 4× per 1 KB where AWS documents 2×);
 * - reads each written item raw before and after the write (a separate, unrecorded client), and turns
 *   the change into write units on the base-table partition and on each GSI partition it leaves or
 *   enters, with DynamoDB's size rules (scripts/capacity/item-size.ts): base table ⌈max(before, after)
 *   / 1 KB⌉ (×2 in a transaction); per GSI the projected item (ALL: the whole item) — an update that
 *   changes the index key is a delete from the old partition + a put into the new one (AWS "Global
 *   secondary indexes", "Provisioned throughput considerations": "If an update to the table changes
 *   the value of an indexed key attribute (from A to B), two writes are required");
 * - turns reads (GetItem, Query, BatchGetItem, TransactGetItems) into read units from the items returned.
 * The wire body (low-level `AttributeValue` JSON) is read at the `build` step, so document-client and
 * low-level calls look alike.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBClient, GetItemCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { baseClient } from '../../shared/storage/client';
import { TABLE_DEFINITION } from '../../shared/storage/table-definition';
import { itemSize, projectedSize, type RawItem, type ReadMode, readUnits, writeUnits } from './item-size';
import { keyPattern } from './key-patterns';
import type { UnitRecord } from './model';

const PK = TABLE_DEFINITION.partitionKey.name;
/**
 * The indexes the KEYS_ONLY alternative applies to: the list indexes (GSI1, GSI2). GSI3 is read keys
 * only already, GSI4 and GSI5 serve lookups that need their projected attributes and keep them.
 */
export const KEYS_ONLY_CANDIDATES: readonly string[] = ['GSI1', 'GSI2'];
const SK = TABLE_DEFINITION.sortKey.name;

/** An item as stored at one moment of the run, for the item-size table. */
export interface StoredItemSample {
  /** What the item is, e.g. `payment (Succeeded)`. */
  label: string;
  pattern: string;
  sk: string;
  /** Size in bytes (DynamoDB's rules). */
  bytes: number;
  item: RawItem;
}

/** Options of {@link startRecorder}. */
export interface RecorderOptions {
  endpoint: string;
  region: string;
  /** Merchant ids of the run (replaced by `<m>` in patterns). */
  merchantIds: string[];
  /**
   * Multiplier of GSI write units for writes made in a transaction. Default 1: AWS documents 2 WCU
   * per KB for a transaction's items and says nothing explicit about the index writes they cause
   * (DynamoDB Local doubles those too); 2 is the pessimistic reading (docs/capacity.md).
   */
  gsiTransactionFactor?: number;
}

/** A running recorder. */
export interface Recorder {
  /** Runs `fn` with calls attributed to `operation`; returns what it returned. */
  phase<T>(operation: string, fn: () => Promise<T>): Promise<T>;
  /** Every unit record so far. */
  records: UnitRecord[];
  /** Event items (`entity = event`, the outbox) created since the last call, in write order; clears the list. */
  takeNewEvents(): RawItem[];
  /** The last stored version of each item written so far. */
  samples(): StoredItemSample[];
  /** Capacity DynamoDB Local reported per operation (sum of `ConsumedCapacity.CapacityUnits`). */
  reported: Map<string, number>;
  /** DynamoDB calls per operation, e.g. `create` → [`TransactWriteItems`]. */
  calls: Map<string, string[]>;
  stop(): void;
}

type Json = Record<string, unknown>;

/** One written key of a request, and how it was written. */
interface WriteTarget {
  table: string;
  key: RawItem;
  action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  transactional: boolean;
}

function writeTargets(command: string, body: Json): WriteTarget[] {
  const keyOf = (item: RawItem): RawItem => ({ [PK]: item[PK] as AttributeValue, [SK]: item[SK] as AttributeValue });
  switch (command) {
    case 'PutItem':
      return [{ table: String(body.TableName), key: keyOf(body.Item as RawItem), action: 'Put', transactional: false }];
    case 'UpdateItem':
    case 'DeleteItem':
      return [
        {
          table: String(body.TableName),
          key: body.Key as RawItem,
          action: command === 'UpdateItem' ? 'Update' : 'Delete',
          transactional: false,
        },
      ];
    case 'TransactWriteItems':
      return (body.TransactItems as Json[]).map((t) => {
        const [action, spec] = Object.entries(t)[0] as [WriteTarget['action'], Json];
        const key = action === 'Put' ? keyOf(spec.Item as RawItem) : (spec.Key as RawItem);
        return { table: String(spec.TableName), key, action, transactional: true };
      });
    case 'BatchWriteItem':
      return Object.entries(body.RequestItems as Record<string, Json[]>).flatMap(([table, requests]) =>
        requests.map((r) =>
          r.PutRequest
            ? { table, key: keyOf((r.PutRequest as Json).Item as RawItem), action: 'Put' as const, transactional: false }
            : { table, key: (r.DeleteRequest as Json).Key as RawItem, action: 'Delete' as const, transactional: false },
        ),
      );
    default:
      return [];
  }
}

const sameValue = (a: AttributeValue | undefined, b: AttributeValue | undefined) => JSON.stringify(a) === JSON.stringify(b);
const stable = (item: RawItem | undefined) =>
  item === undefined
    ? 'absent'
    : JSON.stringify(
        Object.keys(item)
          .sort()
          .map((k) => [k, item[k]]),
      );

/** The partition key value a Query addresses: the value bound to the index's (or table's) partition key in `KeyConditionExpression`. */
function queriedPartition(body: Json): string {
  const index = TABLE_DEFINITION.globalSecondaryIndexes.find((g) => g.indexName === body.IndexName);
  const pkName = index ? index.partitionKey.name : PK;
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as RawItem;
  const aliases = [
    pkName,
    ...Object.entries(names)
      .filter(([, n]) => n === pkName)
      .map(([a]) => a),
  ];
  for (const alias of aliases) {
    const m = String(body.KeyConditionExpression).match(new RegExp(`${alias.replace(/[#$]/g, '\\$&')}\\s*=\\s*(:[A-Za-z0-9_]+)`));
    const v = m ? values[m[1] as string] : undefined;
    if (v?.S !== undefined) return v.S;
  }
  return '?';
}

/**
 * An item of a call's output in the wire format: the document client's calls come back unmarshalled
 * by the time this middleware sees them (their `PK` is a string), low-level calls do not; the former
 * are marshalled again as the document client marshalls (`removeUndefinedValues`).
 */
function asRaw(item: Record<string, unknown>): RawItem {
  return typeof item[PK] === 'object' && item[PK] !== null ? (item as RawItem) : marshall(item, { removeUndefinedValues: true });
}

/** Sum of `CapacityUnits` in a `ConsumedCapacity` (one object or a list). */
function reportedUnits(consumed: unknown): number {
  const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
  return list.reduce((n: number, c: { CapacityUnits?: number }) => n + (c.CapacityUnits ?? 0), 0);
}

const CAPACITY_COMMANDS = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);

/** A label for an item: its `entity` (and `status`), e.g. `payment (Succeeded)`. */
function labelOf(item: RawItem): string {
  const entity = item.entity?.S ?? (String(item[PK]?.S).startsWith('idempotency#') ? 'idempotency record' : 'item');
  const status = item.status?.S;
  return status ? `${entity} (${status})` : entity;
}

/**
 * Installs the recording middleware on `baseClient()` (call after `DYNAMODB_ENDPOINT` is set).
 * Calls made outside {@link Recorder.phase} pass through unrecorded.
 */
export function startRecorder(options: RecorderOptions): Recorder {
  const raw = new DynamoDBClient({
    endpoint: options.endpoint,
    region: options.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const gsiFactor = options.gsiTransactionFactor ?? 1;
  const records: UnitRecord[] = [];
  const reported = new Map<string, number>();
  const calls = new Map<string, string[]>();
  const latest = new Map<string, StoredItemSample>();
  let newEvents: RawItem[] = [];
  let current: string | undefined;
  const pattern = (value: string | undefined) => keyPattern(value ?? '?', options.merchantIds);

  const read = async (table: string, key: RawItem): Promise<RawItem | undefined> =>
    (await raw.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item as RawItem | undefined;

  const recordWrite = (
    operation: string,
    command: string,
    t: WriteTarget,
    before: RawItem | undefined,
    after: RawItem | undefined,
    failed: boolean,
  ) => {
    const cmd = t.transactional ? `${command}/${t.action}` : command;
    const basePattern = pattern((after ?? before ?? t.key)[PK]?.S ?? t.key[PK]?.S);
    const sizeBefore = before ? itemSize(before) : 0;
    const sizeAfter = after ? itemSize(after) : 0;
    const baseUnits = writeUnits(Math.max(sizeBefore, sizeAfter), t.transactional);
    records.push({
      operation,
      command: cmd,
      target: 'table',
      pattern: basePattern,
      kind: 'write',
      units: baseUnits,
      unitsKeysOnly: baseUnits,
      detail: failed ? `failed condition, ${sizeBefore} B` : `${t.action.toLowerCase()} ${Math.max(sizeBefore, sizeAfter)} B`,
    });
    if (failed || t.action === 'ConditionCheck') return;
    if (after) {
      const sample = { label: labelOf(after), pattern: basePattern, sk: String(after[SK]?.S), bytes: sizeAfter, item: after };
      latest.set(`${after[PK]?.S}\u0000${after[SK]?.S}`, sample);
      if (!before && after.entity?.S === 'event') newEvents.push(after);
    }
    if (stable(before) === stable(after)) return;
    for (const g of TABLE_DEFINITION.globalSecondaryIndexes) {
      const pk = g.partitionKey.name;
      const sk = g.sortKey.name;
      const inOld = Boolean(before?.[pk] && before[sk]);
      const inNew = Boolean(after?.[pk] && after[sk]);
      if (!inOld && !inNew) continue;
      const keysOnly = [PK, SK, pk, sk];
      const candidate = KEYS_ONLY_CANDIDATES.includes(g.indexName);
      const factor = t.transactional ? gsiFactor : 1;
      if (inOld && inNew && sameValue(before?.[pk], after?.[pk]) && sameValue(before?.[sk], after?.[sk])) {
        const units = writeUnits(Math.max(sizeBefore, sizeAfter)) * factor;
        records.push({
          operation,
          command: cmd,
          target: g.indexName,
          pattern: pattern(after?.[pk]?.S),
          kind: 'write',
          units,
          unitsKeysOnly: candidate ? 0 : units,
          detail: `update ${Math.max(sizeBefore, sizeAfter)} B (KEYS_ONLY: no index write)`,
        });
        continue;
      }
      if (inOld && before) {
        records.push({
          operation,
          command: cmd,
          target: g.indexName,
          pattern: pattern(before[pk]?.S),
          kind: 'write',
          units: writeUnits(sizeBefore) * factor,
          unitsKeysOnly: candidate ? writeUnits(projectedSize(before, keysOnly)) * factor : writeUnits(sizeBefore) * factor,
          detail: `index delete ${sizeBefore} B (key changed)`,
        });
      }
      if (inNew && after) {
        records.push({
          operation,
          command: cmd,
          target: g.indexName,
          pattern: pattern(after[pk]?.S),
          kind: 'write',
          units: writeUnits(sizeAfter) * factor,
          unitsKeysOnly: candidate ? writeUnits(projectedSize(after, keysOnly)) * factor : writeUnits(sizeAfter) * factor,
          detail: `index put ${sizeAfter} B${inOld ? ' (key changed)' : ''}`,
        });
      }
    }
  };

  /**
   * The items a read consumed capacity for: a ProjectionExpression trims what is returned, not what is
   * read (capacity counts the whole item, or the whole projected index item), so such a read is made
   * again without it, on the unrecorded client.
   */
  const fullItems = async (command: string, body: Json, output: Json): Promise<Json> => {
    if (!body.ProjectionExpression) return output;
    const used = `${body.KeyConditionExpression ?? ''} ${body.FilterExpression ?? ''} ${body.ConditionExpression ?? ''}`;
    const names = Object.fromEntries(
      Object.entries((body.ExpressionAttributeNames ?? {}) as Record<string, string>).filter(([a]) => used.includes(a)),
    );
    const { ProjectionExpression: _p, ReturnConsumedCapacity: _r, ExpressionAttributeNames: _n, ...rest } = body;
    const input = { ...rest, ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}) };
    if (command === 'GetItem') return (await raw.send(new GetItemCommand(input as never))) as unknown as Json;
    if (command === 'Query') return (await raw.send(new QueryCommand(input as QueryCommandInput))) as unknown as Json;
    return output;
  };

  const recordRead = (operation: string, command: string, body: Json, output: Json) => {
    const mode: ReadMode = command === 'TransactGetItems' ? 'transactional' : body.ConsistentRead ? 'strong' : 'eventual';
    if (command === 'GetItem') {
      const item = output.Item ? asRaw(output.Item as Record<string, unknown>) : undefined;
      const bytes = item ? itemSize(item) : 0;
      const units = readUnits(bytes, mode);
      const p = pattern((body.Key as RawItem)[PK]?.S);
      records.push({
        operation,
        command,
        target: 'table',
        pattern: p,
        kind: 'read',
        units,
        unitsKeysOnly: units,
        detail: `${mode} ${bytes} B`,
      });
      return;
    }
    if (command === 'Query') {
      const items = ((output.Items ?? []) as Record<string, unknown>[]).map(asRaw);
      const bytes = items.reduce((n, i) => n + itemSize(i), 0);
      const index = TABLE_DEFINITION.globalSecondaryIndexes.find((g) => g.indexName === body.IndexName);
      const units = readUnits(bytes, mode);
      let unitsKeysOnly = units;
      const candidate = index !== undefined && KEYS_ONLY_CANDIDATES.includes(index.indexName);
      const hydrate = candidate && !body.ProjectionExpression;
      if (index && candidate) {
        const keys = [PK, SK, index.partitionKey.name, index.sortKey.name];
        unitsKeysOnly = readUnits(
          items.reduce((n, i) => n + projectedSize(i, keys), 0),
          mode,
        );
      }
      records.push({
        operation,
        command,
        target: index ? index.indexName : 'table',
        pattern: pattern(queriedPartition(body)),
        kind: 'read',
        units,
        unitsKeysOnly,
        detail: `${mode} ${items.length} items, ${bytes} B`,
      });
      // With KEYS_ONLY the page is hydrated with BatchGetItem: one eventually consistent read per item, on its own partition.
      if (hydrate) {
        for (const i of items) {
          const b = itemSize(i);
          records.push({
            operation,
            command: 'BatchGetItem (KEYS_ONLY hydration)',
            target: 'table',
            pattern: pattern(i[PK]?.S),
            kind: 'read',
            units: 0,
            unitsKeysOnly: readUnits(b, 'eventual'),
            detail: `eventual ${b} B`,
          });
        }
      }
      return;
    }
    if (command === 'BatchGetItem' || command === 'TransactGetItems') {
      const items: RawItem[] =
        command === 'BatchGetItem'
          ? Object.values((output.Responses ?? {}) as Record<string, Record<string, unknown>[]>)
              .flat()
              .map(asRaw)
          : ((output.Responses ?? []) as { Item?: Record<string, unknown> }[]).flatMap((r) => (r.Item ? [asRaw(r.Item)] : []));
      for (const i of items) {
        const b = itemSize(i);
        const units = readUnits(b, mode);
        records.push({
          operation,
          command,
          target: 'table',
          pattern: pattern(i[PK]?.S),
          kind: 'read',
          units,
          unitsKeysOnly: units,
          detail: `${mode} ${b} B`,
        });
      }
    }
  };

  const stack = baseClient().middlewareStack;
  stack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      if (current && CAPACITY_COMMANDS.has(command)) (args.input as Json).ReturnConsumedCapacity = 'INDEXES';
      return next(args);
    },
    { step: 'initialize', name: 'capacityConsumedCapacity', priority: 'low' },
  );
  stack.add(
    (next, context) => async (args) => {
      const operation = current;
      const command = String(context.commandName).replace(/Command$/, '');
      const request = args.request as { body?: unknown };
      const text =
        typeof request?.body === 'string'
          ? request.body
          : request?.body instanceof Uint8Array
            ? Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength).toString('utf8')
            : undefined;
      if (!operation || text === undefined) return next(args);
      calls.set(operation, [...(calls.get(operation) ?? []), command]);
      const body = JSON.parse(text) as Json;
      const targets = writeTargets(command, body);
      const before = await Promise.all(targets.map((t) => read(t.table, t.key)));
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (err) {
        targets.forEach((t, i) => {
          recordWrite(operation, command, t, before[i], before[i], true);
        });
        throw err;
      }
      const output = result.output as unknown as Json;
      reported.set(operation, (reported.get(operation) ?? 0) + reportedUnits(output.ConsumedCapacity));
      if (targets.length > 0) {
        const after = await Promise.all(targets.map((t) => read(t.table, t.key)));
        targets.forEach((t, i) => {
          recordWrite(operation, command, t, before[i], after[i], false);
        });
      } else {
        recordRead(operation, command, body, await fullItems(command, body, output));
      }
      return result;
    },
    { step: 'build', name: 'capacityRecorder', priority: 'low' },
  );

  return {
    records,
    reported,
    calls,
    async phase<T>(operation: string, fn: () => Promise<T>): Promise<T> {
      const previous = current;
      current = operation;
      try {
        return await fn();
      } finally {
        current = previous;
      }
    },
    takeNewEvents() {
      const out = newEvents;
      newEvents = [];
      return out;
    },
    samples: () => [...latest.values()],
    stop() {
      stack.remove('capacityConsumedCapacity');
      stack.remove('capacityRecorder');
      raw.destroy();
    },
  };
}
