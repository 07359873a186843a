/**
 * Test clocks (issue 24, non-prod stages): one item each, and the due entries of their customers' billing work
 * (GSI5, the clock's own partition: `billingDue.clockPartition`), read in due order by an advance.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TEST_CLOCK_FIELDS, type TestClock } from '../domain/test-clock';
import { documentClient } from './client';
import { billingDue, primaryKey } from './item-keys';
import { pickFields } from './list-items';
import { ItemExistsError } from './storage-errors';
import { tableName } from './table-definition';

/** A clock changed since it was read (another advance moved it). */
export class TestClockChangedError extends Error {
  constructor() {
    super('The test clock changed since it was read.');
    this.name = 'TestClockChangedError';
  }
}

/** Stores a new clock. @throws ItemExistsError when its id exists */
export async function putTestClock(merchantId: string, clock: TestClock): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...primaryKey.testClock(merchantId, clock.test_clock_id), entity: 'test_clock', merchant_id: merchantId, ...clock },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new ItemExistsError(clock.test_clock_id);
    throw err;
  }
}

/** One consistent read of a clock; undefined when it does not exist for this merchant. */
export async function getTestClock(merchantId: string, testClockId: string): Promise<TestClock | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.testClock(merchantId, testClockId), ConsistentRead: true }),
  );
  return out.Item ? pickFields<TestClock>(out.Item, TEST_CLOCK_FIELDS) : undefined;
}

/**
 * Moves a clock to `frozenTime` with `status`, if it still shows `readTime`.
 * @throws TestClockChangedError when another advance moved it
 */
export async function moveTestClock(
  merchantId: string,
  testClockId: string,
  readTime: string,
  frozenTime: string,
  status: TestClock['status'],
): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: primaryKey.testClock(merchantId, testClockId),
        UpdateExpression: 'SET frozen_time = :t, #s = :s',
        ConditionExpression: 'attribute_exists(PK) AND frozen_time = :read',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':t': frozenTime, ':s': status, ':read': readTime },
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) throw new TestClockChangedError();
    throw err;
  }
}

/**
 * The earliest billing work of a clock's customers due at or before `until` (one Query, ascending), or undefined.
 * @returns the item's id (`sub_…` or `pm_…`) and when it is due (ISO 8601 UTC, clock time)
 */
export async function nextClockDue(
  merchantId: string,
  testClockId: string,
  until: string,
): Promise<{ id: string; dueAt: string } | undefined> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI5',
      KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK <= :until',
      ExpressionAttributeValues: { ':pk': billingDue.clockPartition(merchantId, testClockId), ':until': `${until}#~` },
      ProjectionExpression: 'GSI5SK',
      Limit: 1,
    }),
  );
  const sk = out.Items?.[0]?.GSI5SK;
  if (typeof sk !== 'string') return undefined;
  const [dueAt = '', id = ''] = sk.split('#');
  return { id, dueAt };
}
