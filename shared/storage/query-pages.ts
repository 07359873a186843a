/**
 * Reading a Query of the table page by page: every Query the repositories make goes through here. A page is one
 * round trip; DynamoDB ends it at the request's `Limit` or after 1 MB read, and answers `LastEvaluatedKey` when more
 * may follow: the cursor the next page passes as `ExclusiveStartKey` (Amazon DynamoDB API Reference, Query,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html).
 */
import { paginateQuery, QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { tableName } from './table-definition';

/** A Query of this table: the document client's Query input without `TableName` (always this table's). */
export type TableQuery = Omit<QueryCommandInput, 'TableName'>;

/** Where a Query continues (`LastEvaluatedKey` of the page before, the next one's `ExclusiveStartKey`); undefined: no page follows. */
export type QueryCursor = Record<string, unknown> | undefined;

/** One page of a Query: its items, in the Query's order, and the cursor after them. */
export interface QueryPage<T = Record<string, unknown>> {
  items: T[];
  next: QueryCursor;
}

/**
 * One page of a Query: one round trip.
 * @param input the Query; its `ExclusiveStartKey` (a cursor) says where the page starts, its `Limit` how many items it holds at most
 * @returns the page's items and the cursor after them (undefined on the last page)
 * @throws the SDK's error (storage unavailable, a malformed Query)
 */
export async function queryPage(input: TableQuery): Promise<QueryPage> {
  const out = await documentClient().send(new QueryCommand({ ...input, TableName: tableName() }));
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}

/**
 * The pages of a Query, one round trip each, as the document client's paginator (`paginateQuery` of
 * @aws-sdk/lib-dynamodb) follows `LastEvaluatedKey` from the input's `ExclusiveStartKey` on. A caller that stops
 * iterating (`break`, `return`) makes no further round trip.
 * @param pageSize each page's `Limit` when the input sets none; none: as many items as 1 MB holds
 * @returns the Query's output per page (`Items`, `Count`, `LastEvaluatedKey`)
 */
export function queryPages(input: TableQuery, pageSize?: number): AsyncIterable<QueryCommandOutput> {
  return paginateQuery({ client: documentClient(), ...(pageSize ? { pageSize } : {}) }, { ...input, TableName: tableName() });
}

/**
 * Every item a Query matches, page after page ({@link queryPages}). For small, bounded collections only (a
 * merchant's API keys or webhook endpoints, an event's deliveries): the whole result is held in memory.
 * @param input the Query, from its start (no `ExclusiveStartKey`)
 * @returns the items, in the Query's order
 */
export async function queryAllItems(input: Omit<TableQuery, 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(input)) items.push(...(page.Items ?? []));
  return items;
}

/**
 * Up to `wanted` items of a Query from its cursor on: one Query asking for the items still wanted (at most
 * `maxPageSize`), another only when a page came back short with a cursor (DynamoDB's 1 MB page limit cut it, or
 * `read` dropped items). The paginator's page size is fixed, so it would ask the last page for more than is wanted
 * and move the cursor past items not returned; here each page asks for exactly what is left.
 * @param input the Query without `Limit`; its `ExclusiveStartKey` is the cursor to start from
 * @param wanted how many items to return at most (≥ 1)
 * @param maxPageSize the most items one page asks for
 * @param read turns a stored item into what is returned; undefined drops it (it does not count toward `wanted`)
 * @returns the items and the cursor after the last page read (undefined when the Query has no more)
 */
export async function queryUpTo<T = Record<string, unknown>>(
  input: Omit<TableQuery, 'Limit'>,
  wanted: number,
  maxPageSize: number,
  read: (item: Record<string, unknown>) => T | undefined = (item) => item as T,
): Promise<QueryPage<T>> {
  const items: T[] = [];
  let cursor: QueryCursor = input.ExclusiveStartKey;
  do {
    const page = await queryPage({ ...input, Limit: Math.min(wanted - items.length, maxPageSize), ExclusiveStartKey: cursor });
    for (const raw of page.items) {
      const item = read(raw);
      if (item !== undefined) items.push(item);
    }
    cursor = page.next;
  } while (cursor && items.length < wanted);
  return { items, next: cursor };
}
