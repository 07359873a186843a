/**
 * Per-merchant caps under concurrency, through the local gateway against DynamoDB Local: at most 50 connector
 * accounts and 100 routing algorithms, held by a counter item changed in the same transaction as each create
 * (and each account delete), so no burst of concurrent creates can overshoot, and creates and deletes racing in
 * any order leave the counter equal to what is stored. A merchant whose counter does not exist yet (data from
 * before counters) gets it counted on first use, exactly. `CONNECTOR_CONFIG_CACHE_MS=0`: a delete waits 1 s.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { MAX_CONNECTOR_ACCOUNTS } from '../../shared/domain/connector-account';
import { MAX_ROUTING_ALGORITHMS } from '../../shared/operations/routing/routing-operations';
import { putApiKey } from '../../shared/storage/api-keys-repository';
import { documentClient } from '../../shared/storage/client';
import { connectorConfig, routingAlgorithmKeys } from '../../shared/storage/item-keys';
import { tableName } from '../../shared/storage/table-definition';
import { expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

let api: LocalApi;
const env = scopedEnv();

beforeAll(async () => {
  env.set({ CONNECTOR_CONFIG_CACHE_MS: '0' });
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
  env.restore();
});

/** A fresh merchant: its id (to read its counters) and its key. */
async function merchant(): Promise<{ id: string; key: string }> {
  const id = `mer_${randomUUID().replace(/-/g, '')}`;
  const key = `sk_test_${randomUUID().replace(/-/g, '')}`;
  await putApiKey(key, id, 'test');
  return { id, key };
}

/** A counter's value, or undefined when the item does not exist. */
async function counter(key: { PK: string; SK: string }): Promise<number | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return out.Item ? Number(out.Item.item_count) : undefined;
}

let labels = 0;
/** Connects a sandbox account with a label of its own (unlabelled creates racing may draw the same default). */
const connect = (key: string) => {
  labels += 1;
  return api.request('POST', '/connector_accounts', { key, body: { connector_name: 'sandbox', connector_label: `account ${labels}` } });
};

/** The merchant's live accounts, as the API lists them. */
async function liveAccounts(key: string): Promise<string[]> {
  const res = await api.request('GET', '/connector_accounts?limit=100', { key });
  expect(res.status).toBe(200);
  return res.body.data.map((a: { merchant_connector_id: string }) => a.merchant_connector_id);
}

/** Connects `n` sandbox accounts, 10 at a time. */
async function connectMany(key: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 10) {
    const batch = await Promise.all(Array.from({ length: Math.min(10, n - i) }, () => connect(key)));
    for (const res of batch) {
      expect(res.status).toBe(200);
      ids.push(res.body.merchant_connector_id);
    }
  }
  return ids;
}

const statusesOf = (responses: TestResponse[]) => responses.map((r) => r.status);

/** The merchant filled to the cap by the first test; the property then works at its cap. */
let full: { id: string; key: string };

test(`${MAX_CONNECTOR_ACCOUNTS + 2} concurrent creates of connector accounts (unlabelled) store exactly ${MAX_CONNECTOR_ACCOUNTS}, each with its own default label; the rest are 400 connector_account_limit`, async () => {
  const m = await merchant();
  full = m;
  const answers = await Promise.all(
    Array.from({ length: MAX_CONNECTOR_ACCOUNTS + 2 }, () =>
      api.request('POST', '/connector_accounts', { key: m.key, body: { connector_name: 'sandbox' } }),
    ),
  );
  const refused = answers.filter((r) => r.status !== 200);
  expect(answers.length - refused.length).toBe(MAX_CONNECTOR_ACCOUNTS);
  for (const r of refused) expectError(r, 400, 'connector_account_limit');
  expect(await liveAccounts(m.key)).toHaveLength(MAX_CONNECTOR_ACCOUNTS);
  expect(await counter(connectorConfig.accountCount(m.id))).toBe(MAX_CONNECTOR_ACCOUNTS);
  // Default labels were drawn concurrently: each took the next free one (sandbox_1 … sandbox_50).
  const list = await api.request('GET', '/connector_accounts?limit=100', { key: m.key });
  const drawn = list.body.data.map((a: { connector_label: string }) => a.connector_label).sort();
  expect(drawn).toEqual(Array.from({ length: MAX_CONNECTOR_ACCOUNTS }, (_, i) => `sandbox_${i + 1}`).sort());
});

test(`${MAX_ROUTING_ALGORITHMS + 2} concurrent creates of routing algorithms store exactly ${MAX_ROUTING_ALGORITHMS}; the rest are 400 routing_algorithm_limit`, async () => {
  const m = await merchant();
  const [account] = await connectMany(m.key, 1);
  const create = (i: number) =>
    api.request('POST', '/routing', {
      key: m.key,
      body: { name: `algorithm ${i}`, algorithm: { type: 'single', data: { merchant_connector_id: account } } },
    });
  const answers = await Promise.all(Array.from({ length: MAX_ROUTING_ALGORITHMS + 2 }, (_, i) => create(i)));
  const refused = answers.filter((r) => r.status !== 200);
  expect(answers.length - refused.length).toBe(MAX_ROUTING_ALGORITHMS);
  for (const r of refused) expectError(r, 400, 'routing_algorithm_limit');
  const first = await api.request('GET', '/routing?limit=100', { key: m.key });
  expect(first.body.data).toHaveLength(MAX_ROUTING_ALGORITHMS);
  expect(first.body.has_more).toBe(false);
  expect(await counter(routingAlgorithmKeys.count(m.id))).toBe(MAX_ROUTING_ALGORITHMS);
});

test('a merchant whose algorithms predate the counter gets it counted on first use, and the cap holds', async () => {
  const m = await merchant();
  const [account] = await connectMany(m.key, 1);
  const body = (i: number) => ({ name: `a${i}`, algorithm: { type: 'single', data: { merchant_connector_id: account } } });
  const made = await Promise.all(Array.from({ length: 6 }, (_, i) => api.request('POST', '/routing', { key: m.key, body: body(i) })));
  expect(statusesOf(made)).toEqual(Array(6).fill(200));
  // As if these six had been written before counters existed.
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: routingAlgorithmKeys.count(m.id) }));
  const more = await Promise.all(Array.from({ length: 5 }, (_, i) => api.request('POST', '/routing', { key: m.key, body: body(10 + i) })));
  expect(statusesOf(more)).toEqual(Array(5).fill(200));
  expect(await counter(routingAlgorithmKeys.count(m.id))).toBe(11);
  expect((await api.request('GET', '/routing?limit=100', { key: m.key })).body.data).toHaveLength(11);
});

describe('creates and deletes racing at the cap', () => {
  /** One step of a run: connect an account, or delete the i-th account live at the run's start (mod their count). */
  type Op = { kind: 'create' } | { kind: 'delete'; pick: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.constant<Op>({ kind: 'create' }) },
    { weight: 2, arbitrary: fc.nat(1000).map((pick): Op => ({ kind: 'delete', pick })) },
  );

  test('in any order, the live accounts never pass the cap and the counter always equals them (counter present or counted on first use)', async () => {
    const m = full;
    expect(m).toBeDefined();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 8 }), fc.boolean(), fc.scheduler(), async (ops, legacy, s) => {
        const before = await liveAccounts(m.key);
        if (legacy) {
          // The merchant's accounts predate counters: the first create or delete counts them.
          await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: connectorConfig.accountCount(m.id) }));
        }
        const run = async (o: Op): Promise<{ o: Op; res: TestResponse }> => ({
          o,
          res:
            o.kind === 'create'
              ? await connect(m.key)
              : await api.request('DELETE', `/connector_accounts/${before[o.pick % before.length]}`, { key: m.key }),
        });
        // The scheduler decides in which order the requests start; they then run concurrently.
        const all = Promise.all(ops.map((o) => s.schedule(Promise.resolve(o)).then(run)));
        await s.waitAll();
        const answers = await all;
        const after = await liveAccounts(m.key);
        const created = answers.filter((a) => a.o.kind === 'create' && a.res.status === 200).length;
        const deleted = new Set(
          answers
            .filter((a) => a.o.kind === 'delete' && a.res.status === 200)
            .map((a) => (a.res.body as { merchant_connector_id: string }).merchant_connector_id),
        );
        for (const a of answers) {
          if (a.res.status === 200) continue;
          // A create refused at the cap; a second delete of one account (404, or 409 while the first runs).
          if (a.o.kind === 'create') expectError(a.res, 400, 'connector_account_limit');
          else expect([404, 409]).toContain(a.res.status);
        }
        expect(after.length).toBeLessThanOrEqual(MAX_CONNECTOR_ACCOUNTS);
        expect(after.length).toBe(before.length + created - deleted.size);
        expect(await counter(connectorConfig.accountCount(m.id))).toBe(after.length);
        // A create was refused only when the cap was reached at some point: never with room left throughout.
        const refusedCreates = answers.filter((a) => a.o.kind === 'create' && a.res.status !== 200).length;
        if (refusedCreates > 0) expect(before.length + created).toBeGreaterThanOrEqual(MAX_CONNECTOR_ACCOUNTS);
      }),
      { numRuns: 8 },
    );
  }, 240_000);
});
