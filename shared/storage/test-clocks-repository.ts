/**
 * Test clocks (non-prod stages): one item each, and the due entries of their customers' billing work
 * (GSI5, the clock's own partition: `billingDue.clockPartition`), read in due order by an advance. An advance claims
 * its clock before any billing (`advance_claim`, `advance_claim_until`: internal attributes, not in the resource),
 * so two advances of one clock never bill at once.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { TEST_CLOCK_FIELDS, type TestClock } from '../domain/test-clock';
import { documentClient } from './client';
import { conditionalPut, conditionalUpdate } from './conditional-write';
import { billingDue, primaryKey } from './item-keys';
import { pickFields } from './list-items';
import { queryPage } from './query-pages';
import { ItemExistsError } from './storage-errors';
import { tableName } from './table-definition';

/** A clock changed since it was read (another advance holds it or moved it). */
export class TestClockChangedError extends Error {
  constructor() {
    super('The test clock changed since it was read.');
    this.name = 'TestClockChangedError';
  }
}

/** Stores a new clock. @throws ItemExistsError when its id exists */
export async function putTestClock(merchantId: string, clock: TestClock): Promise<void> {
  const out = await conditionalPut({
    TableName: tableName(),
    Item: { ...primaryKey.testClock(merchantId, clock.test_clock_id), entity: 'test_clock', merchant_id: merchantId, ...clock },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
  if (!out.written) throw new ItemExistsError(clock.test_clock_id);
}

/** One consistent read of a clock; undefined when it does not exist for this merchant. */
export async function getTestClock(merchantId: string, testClockId: string): Promise<TestClock | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.testClock(merchantId, testClockId), ConsistentRead: true }),
  );
  return out.Item ? pickFields<TestClock>(out.Item, TEST_CLOCK_FIELDS) : undefined;
}

/** A clock as stored: the resource and, while an advance holds it, until when (epoch ms, real time) its claim lasts. */
export interface StoredTestClock {
  clock: TestClock;
  /** Epoch ms until which the advance holding the clock keeps it; undefined when none holds it. */
  claimedUntilMs: number | undefined;
}

/** One consistent read of a clock with its claim; undefined when it does not exist for this merchant. */
export async function getStoredTestClock(merchantId: string, testClockId: string): Promise<StoredTestClock | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.testClock(merchantId, testClockId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const until = out.Item.advance_claim_until;
  return { clock: pickFields<TestClock>(out.Item, TEST_CLOCK_FIELDS), claimedUntilMs: typeof until === 'number' ? until : undefined };
}

/**
 * Claims a clock for one advance before it does any billing (one conditional write): `status: advancing`, the
 * claim's id and how long it lasts, if the clock still shows `readTime` and no other advance's claim is live
 * (none, or one whose `advance_claim_until` passed: its request died). The claim ends with {@link finishTestClockAdvance}.
 * @param claimId a random id of this advance
 * @param untilMs epoch ms (real time) the claim lasts to: past the advance's own deadline, so it never ends under it
 * @param nowMs epoch ms (real time) now
 * @throws TestClockChangedError when another advance holds the clock or moved it (nothing was written)
 */
export async function claimTestClock(
  merchantId: string,
  testClockId: string,
  readTime: string,
  claimId: string,
  untilMs: number,
  nowMs: number,
): Promise<void> {
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: primaryKey.testClock(merchantId, testClockId),
    UpdateExpression: 'SET #s = :advancing, advance_claim = :claim, advance_claim_until = :until',
    ConditionExpression:
      'attribute_exists(PK) AND frozen_time = :read AND (attribute_not_exists(advance_claim) OR advance_claim_until < :now)',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':advancing': 'advancing', ':claim': claimId, ':until': untilMs, ':read': readTime, ':now': nowMs },
  });
  if (!out.written) throw new TestClockChangedError();
}

/**
 * Ends an advance's claim: moves the clock to `frozenTime` with `status` and drops the claim, if this advance still
 * holds it.
 * @throws TestClockChangedError when it does not (its claim lasted less than its work: never within its deadline)
 */
export async function finishTestClockAdvance(
  merchantId: string,
  testClockId: string,
  claimId: string,
  frozenTime: string,
  status: TestClock['status'],
): Promise<void> {
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: primaryKey.testClock(merchantId, testClockId),
    UpdateExpression: 'SET frozen_time = :t, #s = :s REMOVE advance_claim, advance_claim_until',
    ConditionExpression: 'attribute_exists(PK) AND advance_claim = :claim',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':t': frozenTime, ':s': status, ':claim': claimId },
  });
  if (!out.written) throw new TestClockChangedError();
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
  const { items } = await queryPage({
    IndexName: 'GSI5',
    KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK <= :until',
    ExpressionAttributeValues: { ':pk': billingDue.clockPartition(merchantId, testClockId), ':until': `${until}#~` },
    ProjectionExpression: 'GSI5SK',
    Limit: 1,
  });
  const sk = items[0]?.GSI5SK;
  if (typeof sk !== 'string') return undefined;
  const [dueAt = '', id = ''] = sk.split('#');
  return { id, dueAt };
}
