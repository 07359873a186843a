/**
 * Sharded merchant lists (docs/sharding.md): thousands of payments, their events and a few
 * hundred customers of one merchant spread over list shards, the shard count raised mid-way
 * (read phase, then write phase, with writers still on the old count in between), and every
 * list, filter and cursor compared with a reference ordering computed here (`created_at#id`,
 * newest first). Bulk items are written through the repositories (BatchWriteItem of the items
 * `paymentCreationWrites` builds; `createCustomer`), a few hundred payments through HTTP.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import type { Payment } from '../../shared/domain/payment';
import { findApiKey, putApiKey, raiseListShards } from '../../shared/storage/api-keys-repository';
import { documentClient } from '../../shared/storage/client';
import { createCustomer } from '../../shared/storage/customers-repository';
import { listPartition, primaryKey } from '../../shared/storage/item-keys';
import { type ListShards, shardOf, shardPartition } from '../../shared/storage/list-shards';
import { listPayments, paymentCreationWrites } from '../../shared/storage/payments-repository';
import { tableName } from '../../shared/storage/table-definition';
import { card, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

// No key cache in this file's handlers: a raised shard count is seen by the next request.
process.env.API_KEY_CACHE_SECONDS = '0';

let api: LocalApi;

interface Ref {
  id: string;
  created_at: string;
  status?: string;
  type?: string;
  email?: string | null;
}

const sortKey = (r: Ref) => `${r.created_at}#${r.id}`;
/** Newest first by `created_at#id`, as every list is ordered. */
const newestFirst = (rs: Ref[]) => [...rs].sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : sortKey(a) > sortKey(b) ? -1 : 0));

const payments = new Map<string, Ref>();
const events = new Map<string, Ref>();
const customers = new Map<string, Ref>();

/**
 * Bulk items live in a window a day ago, so HTTP-made items (now) never fall inside it; recent
 * enough that their events are within the 30-day retention (an expired event is no cursor).
 */
const WINDOW_START = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000;
let tick = 0;
/** The next bulk `created_at`: three items per millisecond, so ties are broken by id. */
const nextCreatedAt = () => new Date(WINDOW_START + Math.floor(tick++ / 3)).toISOString();
const windowEnd = () => new Date(WINDOW_START + Math.floor(tick / 3) + 1).toISOString();

const BULK_STATUSES = ['RequiresConfirmation', 'Succeeded', 'Failed', 'Cancelled'] as const;
let template: Payment;

async function batchWrite(items: Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  const worker = async () => {
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      let request: Record<string, unknown>[] | undefined = chunk.map((Item) => ({ PutRequest: { Item } }));
      while (request && request.length > 0) {
        const out = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: request } }));
        request = out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/**
 * Writes `count` payments with the given shard counts, as a container holding them would, and the
 * `payment.created` events of every third (enough events for their lists, and a third of the writes).
 */
async function bulkPayments(count: number, shards: ListShards): Promise<string[]> {
  const items: Record<string, unknown>[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const created_at = nextCreatedAt();
    const payment: Payment = {
      ...template,
      payment_id: `pay_${randomUUID().replace(/-/g, '')}`,
      status: BULK_STATUSES[i % BULK_STATUSES.length] as Payment['status'],
      amount: 100 + i,
      created_at,
      updated_at: created_at,
    };
    const writes = paymentCreationWrites(api.merchantId, payment, undefined, shards);
    items.push(writes.item);
    payments.set(payment.payment_id, { id: payment.payment_id, created_at, status: payment.status });
    if (i % 3 === 0) {
      items.push(writes.event.put.Put.Item);
      events.set(writes.event.event.event_id, { id: writes.event.event.event_id, created_at, type: 'payment.created' });
    }
    ids.push(payment.payment_id);
  }
  await batchWrite(items);
  return ids;
}

const EMAILS = ['a@example.com', 'b@example.com', 'c@example.com'];

/** Creates `count` customers through the repository (each its own transaction), `concurrency` at a time. */
async function bulkCustomers(count: number, shards: ListShards): Promise<void> {
  const todo = Array.from({ length: count }, (_, i) => i);
  const worker = async () => {
    for (let i = todo.shift(); i !== undefined; i = todo.shift()) {
      const created_at = nextCreatedAt();
      const email = i % 4 === 0 ? (EMAILS[i % EMAILS.length] as string) : null;
      const customer_id = `cus_${randomUUID().replace(/-/g, '')}`;
      await createCustomer(
        api.merchantId,
        {
          customer_id,
          email,
          name: null,
          phone: null,
          description: null,
          test_clock: null,
          metadata: {},
          created_at,
          updated_at: created_at,
        },
        shards,
      );
      customers.set(customer_id, { id: customer_id, created_at, email });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Runs `fn` over `inputs`, `concurrency` at a time. */
async function pool<T>(inputs: T[], concurrency: number, fn: (x: T) => Promise<void>): Promise<void> {
  const todo = [...inputs];
  const worker = async () => {
    for (let x = todo.shift(); x !== undefined; x = todo.shift()) await fn(x);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Creates payments through HTTP: a quarter succeed, a quarter fail, half wait for confirmation. */
async function httpPayments(count: number): Promise<void> {
  await pool(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const body =
        i % 4 === 0
          ? { amount: 1000 + i, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') }
          : i % 4 === 1
            ? { amount: 1000 + i, currency: 'USD', confirm: true, payment_method_data: card('4000000000000002') }
            : { amount: 1000 + i, currency: 'NGN', payment_method: 'card' };
      const res = await api.request('POST', '/payments', { body });
      expect(res.status).toBe(200);
      payments.set(res.body.payment_id, { id: res.body.payment_id, created_at: res.body.created_at, status: res.body.status });
    },
  );
}

/** Confirms payments through HTTP (status change: GSI2 rewritten in the payment's own shard, an event written). */
async function confirm(ids: string[]): Promise<void> {
  await pool(ids, 8, async (id) => {
    const res = await api.request('POST', `/payments/${id}/confirm`, { body: { payment_method_data: card('4242424242424242') } });
    expect(res.status).toBe(200);
    (payments.get(id) as Ref).status = res.body.status;
  });
}

interface Page {
  data: Record<string, unknown>[];
  has_more: boolean;
}

function page(res: TestResponse): Page {
  expect(res.status).toBe(200);
  return res.body as Page;
}

/** Every item of a list, walking `starting_after` pages of `limit`; asserts `has_more` on each page. */
async function walk(path: string, params: string, idField: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (;;) {
    const sep = params ? '&' : '';
    const res = page(await api.request('GET', `${path}?${params}${sep}limit=${limit}${after ? `&starting_after=${after}` : ''}`));
    seen.push(...res.data.map((x) => String(x[idField])));
    if (!res.has_more) {
      expect(res.data.length).toBeLessThanOrEqual(limit);
      return seen;
    }
    expect(res.data).toHaveLength(limit);
    after = seen.at(-1);
  }
}

/** The reference page: `all` (newest first) after the cursor or offset, cut to `limit`, with its exact `has_more`. */
function refPage(all: Ref[], q: { limit: number; offset?: number; startingAfter?: Ref }): { ids: string[]; has_more: boolean } {
  let rest = all;
  if (q.startingAfter) {
    const cursor = sortKey(q.startingAfter);
    rest = all.filter((r) => sortKey(r) < cursor);
  }
  rest = rest.slice(q.offset ?? 0);
  return { ids: rest.slice(0, q.limit).map((r) => r.id), has_more: rest.length > q.limit };
}

type Bound = 'gt' | 'gte' | 'lt' | 'lte';
/** The reference of a `created[...]` filter, on ISO 8601 strings (same instant, same text). */
function inRange(r: Ref, created: Partial<Record<Bound, string>>): boolean {
  const t = r.created_at;
  return (
    (created.gt === undefined || t > created.gt) &&
    (created.gte === undefined || t >= created.gte) &&
    (created.lt === undefined || t < created.lt) &&
    (created.lte === undefined || t <= created.lte)
  );
}
const createdParams = (created: Partial<Record<Bound, string>>) =>
  Object.entries(created)
    .map(([k, v]) => `created[${k}]=${encodeURIComponent(v as string)}`)
    .join('&');

const allPayments = () => newestFirst([...payments.values()]);

beforeAll(async () => {
  api = await startLocalApi();
  const first = await api.request('POST', '/payments', { body: { amount: 500, currency: 'NGN', payment_method: 'card' } });
  expect(first.status).toBe(200);
  template = first.body as Payment;
  payments.set(template.payment_id, { id: template.payment_id, created_at: template.created_at, status: template.status });

  // Phase 1: one shard (every merchant's start).
  await bulkPayments(500, { read: 1, write: 1 });
  await bulkCustomers(60, { read: 1, write: 1 });
  await httpPayments(40);
}, 120_000);

afterAll(async () => {
  await api.close();
});

describe('raising the shard count, two-phase', () => {
  let beforeRaise: string[] = [];

  test('read phase: lists read 4 shards while every writer still writes shard 0; nothing is lost', async () => {
    beforeRaise = [...payments.keys()].filter((id) => payments.get(id)?.status === 'RequiresConfirmation').slice(0, 8);
    await raiseListShards(api.merchantId, 'read', 4);
    // A container that still holds the old counts (read 1, write 1) and one with the new read count write alike.
    await bulkPayments(250, { read: 1, write: 1 });
    await bulkPayments(250, { read: 4, write: 1 });
    await httpPayments(30);
    const ref = allPayments();
    // A stale container (read 1) lists everything: nothing was written outside shard 0 yet.
    const stale = await listPayments(api.merchantId, { limit: 100 }, {}, undefined, 1);
    expect(stale.data.map((p) => p.payment_id)).toEqual(ref.slice(0, 100).map((r) => r.id));
    expect(await walk('/payments', '', 'payment_id', 100)).toEqual(ref.map((r) => r.id));
  }, 120_000);

  test('refuses a write count above read, and any lowering', async () => {
    await expect(raiseListShards(api.merchantId, 'write', 8)).rejects.toThrow(/read shard count/);
    await expect(raiseListShards(api.merchantId, 'read', 2)).rejects.toThrow(/never lowered/);
  });

  test('write phase: new items spread over 4 shards; older ones stay in shard 0, status changes included', async () => {
    await raiseListShards(api.merchantId, 'write', 4);
    await expect(raiseListShards(api.merchantId, 'write', 3)).rejects.toThrow(/never lowered/);
    expect((await raiseListShards(api.merchantId, 'write', 4)).map((k) => k.list_shards)).toEqual([{ read: 4, write: 4 }]); // re-run: no change
    // A key issued later joins its merchant's counts.
    const second = `sk_test_${randomUUID().replace(/-/g, '')}`;
    await putApiKey(second, api.merchantId, 'second');
    expect((await findApiKey(second))?.list_shards).toEqual({ read: 4, write: 4 });
    const spread = await bulkPayments(1000, { read: 4, write: 4 });
    await bulkCustomers(90, { read: 4, write: 4 });
    await httpPayments(60);
    // Payments created before the raise keep shard 0 when their status changes; new ones keep theirs.
    const after = spread.filter((id) => payments.get(id)?.status === 'RequiresConfirmation').slice(0, 8);
    await confirm([...beforeRaise, ...after]);
    for (const id of [...beforeRaise, ...after]) {
      const item = (await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.payment(api.merchantId, id) })))
        .Item;
      const k = beforeRaise.includes(id) ? 0 : shardOf(id, 4);
      expect(item?.GSI2PK).toBe(shardPartition(listPartition.paymentsByStatus(api.merchantId, 'Succeeded'), k));
    }
    const shardsUsed = new Set(spread.map((id) => shardOf(id, 4)));
    expect(shardsUsed).toEqual(new Set([0, 1, 2, 3]));
    expect(payments.size).toBeGreaterThan(2100);
  }, 120_000);
});

describe('payments over 4 shards match the reference ordering', () => {
  test('a starting_after walk returns every payment once, in order', async () => {
    const ids = allPayments().map((r) => r.id);
    expect(await walk('/payments', '', 'payment_id', 100)).toEqual(ids);
  }, 120_000);

  test.each(['RequiresConfirmation', 'Succeeded', 'Failed', 'Cancelled'])('status=%s: a walk equals the reference', async (status) => {
    const ref = allPayments().filter((r) => r.status === status);
    expect(ref.length).toBeGreaterThan(100);
    expect(await walk('/payments', `status=${status}`, 'payment_id', 100)).toEqual(ref.map((r) => r.id));
  });

  test('offset and limit, to the end and past it; has_more exact', async () => {
    // Deep offsets read offset + limit + 1 entries from every shard: the ends are checked on one status list.
    const all = allPayments();
    const cancelled = all.filter((r) => r.status === 'Cancelled');
    const n = cancelled.length;
    for (const [list, params, offset, limit] of [
      [all, '', 0, 1],
      [all, '', 1, 17],
      [all, '', 777, 50],
      [cancelled, 'status=Cancelled&', n - 99, 100],
      [cancelled, 'status=Cancelled&', n - 100, 100],
      [cancelled, 'status=Cancelled&', n, 5],
    ] as const) {
      const res = page(await api.request('GET', `/payments?${params}offset=${offset}&limit=${limit}`));
      const want = refPage(list, { offset, limit });
      expect({ params, offset, ids: res.data.map((p) => p.payment_id), has_more: res.has_more }).toEqual({ params, offset, ...want });
    }
  });

  test('created ranges (ties at the bounds), with status, offset and starting_after', async () => {
    const ref = allPayments();
    const at = (i: number) => (ref[i] as Ref).created_at;
    const ranges: Partial<Record<Bound, string>>[] = [
      { gte: at(900), lte: at(300) },
      { gt: at(900), lt: at(300) },
      { lt: at(1500) },
      { gt: at(10), lte: at(5) },
      { gte: windowEnd() }, // only the HTTP payments
      { lt: new Date(WINDOW_START).toISOString() }, // nothing
    ];
    for (const created of ranges) {
      const inside = ref.filter((r) => inRange(r, created));
      expect(await walk('/payments', createdParams(created), 'payment_id', 100)).toEqual(inside.map((r) => r.id));
      const succeeded = inside.filter((r) => r.status === 'Succeeded');
      expect(await walk('/payments', `${createdParams(created)}&status=Succeeded`, 'payment_id', 100)).toEqual(succeeded.map((r) => r.id));
      const res = page(await api.request('GET', `/payments?${createdParams(created)}&offset=7&limit=20`));
      expect({ ids: res.data.map((p) => p.payment_id), has_more: res.has_more }).toEqual(refPage(inside, { offset: 7, limit: 20 }));
    }
  }, 120_000);

  test('property: any page (status, created bounds, offset or starting_after, limit) equals the reference page', async () => {
    const ref = allPayments();
    const statuses = [undefined, 'RequiresConfirmation', 'Succeeded', 'Failed', 'Cancelled'];
    const index = fc.integer({ min: 0, max: ref.length - 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          status: fc.constantFrom(...statuses),
          lower: fc.option(fc.tuple(fc.constantFrom<Bound>('gt', 'gte'), index), { nil: undefined }),
          upper: fc.option(fc.tuple(fc.constantFrom<Bound>('lt', 'lte'), index), { nil: undefined }),
          cursor: fc.option(fc.oneof(fc.record({ offset: fc.integer({ min: 0, max: 400 }) }), fc.record({ after: index })), {
            nil: undefined,
          }),
          limit: fc.integer({ min: 1, max: 100 }),
        }),
        async (q) => {
          const created: Partial<Record<Bound, string>> = {};
          if (q.lower) created[q.lower[0]] = (ref[q.lower[1]] as Ref).created_at;
          if (q.upper) created[q.upper[0]] = (ref[q.upper[1]] as Ref).created_at;
          const startingAfter = q.cursor && 'after' in q.cursor ? (ref[q.cursor.after] as Ref) : undefined;
          const offset = q.cursor && 'offset' in q.cursor ? q.cursor.offset : undefined;
          const params = [
            `limit=${q.limit}`,
            q.status ? `status=${q.status}` : '',
            createdParams(created),
            startingAfter ? `starting_after=${startingAfter.id}` : '',
            offset !== undefined ? `offset=${offset}` : '',
          ].filter(Boolean);
          const res = page(await api.request('GET', `/payments?${params.join('&')}`));
          const base = ref.filter((r) => (!q.status || r.status === q.status) && inRange(r, created));
          expect({ ids: res.data.map((p) => p.payment_id), has_more: res.has_more }).toEqual(
            refPage(base, { limit: q.limit, offset, startingAfter }),
          );
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('events and customers over 4 shards', () => {
  test('events: the bulk window equals the reference; type filters equal the unfiltered list filtered', async () => {
    const window = { gte: new Date(WINDOW_START).toISOString(), lt: windowEnd() };
    const ref = newestFirst([...events.values()]);
    // The window also holds the bulk customers' `customer.created` events (their ids are not kept here).
    const windowAll = await walk('/events', createdParams(window), 'event_id', 100);
    expect(windowAll.filter((id) => events.has(id))).toEqual(ref.map((r) => r.id));
    expect(windowAll).toHaveLength(ref.length + customers.size);
    expect(await walk('/events', `${createdParams(window)}&type=payment.created`, 'event_id', 100)).toEqual(ref.map((r) => r.id));

    // Every event (HTTP-made ones included): newest first, no duplicates; each type list is that list filtered.
    const all: { id: string; type: string; sk: string }[] = [];
    let after: string | undefined;
    for (;;) {
      const res = page(await api.request('GET', `/events?limit=100${after ? `&starting_after=${after}` : ''}`));
      all.push(...res.data.map((e) => ({ id: String(e.event_id), type: String(e.type), sk: `${e.created_at}#${e.event_id}` })));
      if (!res.has_more) break;
      after = all.at(-1)?.id;
    }
    for (let i = 1; i < all.length; i += 1) expect((all[i - 1] as { sk: string }).sk > (all[i] as { sk: string }).sk).toBe(true);
    expect(all.filter((e) => e.sk < window.lt).map((e) => e.id)).toEqual(windowAll);
    for (const type of ['payment.succeeded', 'payment.failed', 'customer.created']) {
      const wanted = all.filter((e) => e.type === type).map((e) => e.id);
      expect(wanted.length).toBeGreaterThan(10);
      expect(await walk('/events', `type=${type}`, 'event_id', 100)).toEqual(wanted);
    }
    const res = page(await api.request('GET', '/events?offset=250&limit=40'));
    expect(res.data.map((e) => e.event_id)).toEqual(all.slice(250, 290).map((e) => e.id));
  }, 120_000);

  test('customers: walks, offsets and e-mail filters equal the reference', async () => {
    const ref = newestFirst([...customers.values()]);
    expect(ref.length).toBe(150);
    expect(await walk('/customers', '', 'customer_id', 100)).toEqual(ref.map((r) => r.id));
    expect(await walk('/customers', '', 'customer_id', 9)).toEqual(ref.map((r) => r.id));
    for (const email of EMAILS) {
      const want = ref.filter((r) => r.email === email).map((r) => r.id);
      expect(await walk('/customers', `email=${encodeURIComponent(email.toUpperCase())}`, 'customer_id', 10)).toEqual(want);
    }
    const created = { gt: (ref[120] as Ref).created_at, lte: (ref[20] as Ref).created_at };
    const inside = ref.filter((r) => inRange(r, created));
    const res = page(await api.request('GET', `/customers?${createdParams(created)}&offset=5&limit=50`));
    expect({ ids: res.data.map((c) => c.customer_id), has_more: res.has_more }).toEqual(refPage(inside, { offset: 5, limit: 50 }));
  });
});
