/**
 * The single DynamoDB table: its keys, indexes and TTL attribute. This is the one
 * place they are declared; the local stack creates the table from it and the CDK
 * stack declares the deployed table from it.
 */

/** A key attribute: its name and DynamoDB scalar type (S = string). */
export interface KeyAttribute {
  name: string;
  type: 'S' | 'N';
}

/** A global secondary index; every index projects all attributes. */
export interface IndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
}

/** Shape of {@link TABLE_DEFINITION}. */
export interface TableDefinition {
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
  globalSecondaryIndexes: readonly IndexDefinition[];
  /** Attribute holding an expiry in Unix seconds; DynamoDB deletes the item after it. */
  timeToLiveAttribute: string;
}

/**
 * The table:
 * - `PK`/`SK`: one item per entity, keyed by merchant (see the repositories).
 * - `GSI1`: every entity of a kind for a merchant (or refunds of a payment, invoices of a subscription), sorted by `created_at#id`.
 * - `GSI2`: the same, filtered by one attribute (payment or subscription status, customer e-mail).
 * - A busy merchant's payments, events, customers and subscriptions partitions of GSI1/GSI2 are spread over
 *   list shards (`<partition>#S<k>`, shared/storage/list-shards.ts, docs/sharding.md).
 * - `GSI3`: payments and subscriptions of one customer (sparse: only linked payments).
 * - `GSI4`: a payment or refund by its bare id, across merchants — only for connector
 *   webhooks, which name our payment id but not the merchant.
 * - `GSI5`: open operations (sparse): payments in `Processing`/`RequiresAction` or holding a
 *   claim, `Pending` refunds and interrupted customer deletes, keyed by shard
 *   (`OPEN#<0..15>`) and sorted by when they are next due for reconciliation.
 * - `expires_at`: TTL, for short-lived records (idempotency keys).
 */
export const TABLE_DEFINITION: TableDefinition = {
  partitionKey: { name: 'PK', type: 'S' },
  sortKey: { name: 'SK', type: 'S' },
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: { name: 'GSI1PK', type: 'S' }, sortKey: { name: 'GSI1SK', type: 'S' } },
    { indexName: 'GSI2', partitionKey: { name: 'GSI2PK', type: 'S' }, sortKey: { name: 'GSI2SK', type: 'S' } },
    { indexName: 'GSI3', partitionKey: { name: 'GSI3PK', type: 'S' }, sortKey: { name: 'GSI3SK', type: 'S' } },
    { indexName: 'GSI4', partitionKey: { name: 'GSI4PK', type: 'S' }, sortKey: { name: 'GSI4SK', type: 'S' } },
    { indexName: 'GSI5', partitionKey: { name: 'GSI5PK', type: 'S' }, sortKey: { name: 'GSI5SK', type: 'S' } },
  ],
  timeToLiveAttribute: 'expires_at',
};

/** Default table name when `TABLE_NAME` is not set (the local stack). */
export const DEFAULT_TABLE_NAME = 'switchyard-local';

/** The table name this process uses: `TABLE_NAME`, else {@link DEFAULT_TABLE_NAME}. */
export function tableName(): string {
  return process.env.TABLE_NAME || DEFAULT_TABLE_NAME;
}

/**
 * The table's DynamoDB Streams setting: new images only. The webhook delivery fan-out
 * (functions/webhook-delivery/stream-handler.ts) reads every inserted event item from it;
 * locally scripts/local/event-stream.ts polls DynamoDB Local's stream of the table.
 */
export const STREAM_SPECIFICATION = { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' as const };

/**
 * The `CreateTable` input for {@link TABLE_DEFINITION} (on-demand billing), for the local stack and tests.
 * Without a stream unless `stream` is true ({@link STREAM_SPECIFICATION}): only a table whose stream is read
 * (scripts/local/event-stream.ts: the local stack, the webhook suites) needs one. DynamoDB Local describes a table's stream on every
 * request to it and on every write (`getStreamDescription`, a query over the stream records it keeps for 24 hours), so
 * with a stream no one reads, each request costs the emulator more as the run writes more: in the test run, about a
 * third of all CPU went to DynamoDB Local, most of it there.
 * @param name the table's name
 * @param options.stream give the table its stream of new images at creation (default false)
 */
export function createTableInput(name: string, options: { stream?: boolean } = {}) {
  const attrs = new Map<string, KeyAttribute>();
  for (const k of [TABLE_DEFINITION.partitionKey, TABLE_DEFINITION.sortKey]) attrs.set(k.name, k);
  for (const gsi of TABLE_DEFINITION.globalSecondaryIndexes) {
    attrs.set(gsi.partitionKey.name, gsi.partitionKey);
    attrs.set(gsi.sortKey.name, gsi.sortKey);
  }
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST' as const,
    ...(options.stream ? { StreamSpecification: STREAM_SPECIFICATION } : {}),
    AttributeDefinitions: [...attrs.values()].map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
    KeySchema: [
      { AttributeName: TABLE_DEFINITION.partitionKey.name, KeyType: 'HASH' as const },
      { AttributeName: TABLE_DEFINITION.sortKey.name, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: TABLE_DEFINITION.globalSecondaryIndexes.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [
        { AttributeName: g.partitionKey.name, KeyType: 'HASH' as const },
        { AttributeName: g.sortKey.name, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
