/**
 * Idempotency records are spread over the table (no hot partition per function): one partition per record
 * (`PK = idempotency#<function>#<base64 md5>`, `SK = IDEMPOTENCY`), never one partition per function
 * shared by every merchant. Replay semantics are unchanged.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/storage/client';
import { tableName } from '../../shared/storage/table-definition';
import { type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

/** Every idempotency record whose stored answer mentions one of `ids` (a test-only Scan). */
async function recordsMentioning(ids: string[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(PK, :p)',
        ExpressionAttributeValues: { ':p': 'idempotency#' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) if (ids.some((id) => JSON.stringify(item).includes(id))) found.push(item);
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

test('keyed creates of two merchants, even with the same key, land in distinct partitions; a retry replays', async () => {
  const key = `layout-${randomUUID()}`;
  const otherKey = await api.newMerchantKey();
  const body = { amount: 1000, currency: 'NGN', payment_method: 'card' };
  const first = await api.request('POST', '/payments', { body, headers: { 'Idempotency-Key': key } });
  const second = await api.request('POST', '/payments', { body: { ...body, amount: 2000 }, headers: { 'Idempotency-Key': `${key}-2` } });
  const otherMerchant = await api.request('POST', '/payments', { body, headers: { 'Idempotency-Key': key }, key: otherKey });
  expect([first.status, second.status, otherMerchant.status]).toEqual([200, 200, 200]);
  const ids = [first.body.payment_id, second.body.payment_id, otherMerchant.body.payment_id] as string[];
  expect(new Set(ids).size).toBe(3);

  const records = await recordsMentioning(ids);
  expect(records).toHaveLength(3);
  for (const r of records) {
    expect(r.SK).toBe('IDEMPOTENCY');
    // `idempotency#<function prefix>#<base64 md5 of the key selection>` (the prefix is empty off Lambda)
    expect(String(r.PK)).toMatch(/^idempotency#[^#]*#[A-Za-z0-9+/]{22}==$/);
  }
  expect(new Set(records.map((r) => r.PK)).size).toBe(3);

  const replay = await api.request('POST', '/payments', { body, headers: { 'Idempotency-Key': key } });
  expect(replay.status).toBe(200);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.payment_id).toBe(first.body.payment_id);
  expect(await recordsMentioning(ids)).toHaveLength(3);
});
