/**
 * The delivery worker's endpoint cache (shared/operations/events/fan-out-endpoint-cache.ts) against
 * DynamoDB Local: a merchant's endpoints are read once per cache period per container, a change
 * shows after the period, event types are filtered per call, and a failed read is not remembered.
 */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../scripts/local/ensure-table';
import {
  clearFanOutEndpointCache,
  DEFAULT_FAN_OUT_ENDPOINT_CACHE_MS,
  endpointsForFanOut,
  fanOutEndpointCacheMs,
} from '../../shared/operations/events/fan-out-endpoint-cache';
import { findApiKey } from '../../shared/storage/api-keys-repository';
import { baseClient } from '../../shared/storage/client';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const table = `switchyard-fanout-cache-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;
const savedCache = process.env.WEBHOOK_ENDPOINT_CACHE_MS;
/** The period under test: the default (the test setup turns the cache off for the other suites). */
const FAN_OUT_ENDPOINT_CACHE_MS = DEFAULT_FAN_OUT_ENDPOINT_CACHE_MS;
let api: LocalApi;
let receiver: WebhookReceiver;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  delete process.env.WEBHOOK_ENDPOINT_CACHE_MS;
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table);
  api = await startLocalApi();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await api?.close();
  if (savedTable === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = savedTable;
  if (savedCache === undefined) delete process.env.WEBHOOK_ENDPOINT_CACHE_MS;
  else process.env.WEBHOOK_ENDPOINT_CACHE_MS = savedCache;
});
beforeEach(() => clearFanOutEndpointCache());

/** Counts the Query commands the process-wide client sends while `run` runs. */
async function countQueries<T>(run: () => Promise<T>): Promise<{ result: T; queries: number }> {
  let queries = 0;
  const name = `count-queries-${randomUUID()}`;
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries += 1;
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await run(), queries };
  } finally {
    baseClient().middlewareStack.remove(name);
  }
}

async function merchantWithEndpoint(events: string[]) {
  const key = await api.newMerchantKey();
  const merchantId = (await findApiKey(key))?.merchant_id as string;
  const create = async (enabled: string[]) => {
    const res = await api.request('POST', '/webhook_endpoints', { key, body: { url: receiver.url, enabled_events: enabled } });
    expect(res.status).toBe(200);
    return (res.body as { webhook_endpoint_id: string }).webhook_endpoint_id;
  };
  const first = await create(events);
  return { merchantId, create, first };
}

test('the period: 1 s by default; a whole number of ms from 0 to 60,000 when set', () => {
  expect(fanOutEndpointCacheMs()).toBe(1000);
  expect(fanOutEndpointCacheMs('0')).toBe(0);
  expect(fanOutEndpointCacheMs('2500')).toBe(2500);
  for (const bad of ['', '-1', '1.5', '60001', 'soon']) expect(fanOutEndpointCacheMs(bad)).toBe(1000);
});

test('with the period 0 every call reads', async () => {
  const { merchantId } = await merchantWithEndpoint(['*']);
  process.env.WEBHOOK_ENDPOINT_CACHE_MS = '0';
  try {
    const reads = await countQueries(async () => {
      await endpointsForFanOut(merchantId, 'payment.created');
      await endpointsForFanOut(merchantId, 'payment.created');
    });
    expect(reads.queries).toBe(2);
  } finally {
    delete process.env.WEBHOOK_ENDPOINT_CACHE_MS;
  }
});

test('one read per period per merchant, concurrent events share it; a new endpoint shows after the period', async () => {
  const { merchantId, create, first } = await merchantWithEndpoint(['*']);
  const t0 = Date.now();
  const firstRound = await countQueries(() =>
    Promise.all(Array.from({ length: 20 }, () => endpointsForFanOut(merchantId, 'payment.created', t0))),
  );
  expect(firstRound.queries).toBe(1);
  for (const list of firstRound.result) expect(list.map((e) => e.webhook_endpoint_id)).toEqual([first]);

  const second = await create(['*']);
  const within = await countQueries(() => endpointsForFanOut(merchantId, 'payment.created', t0 + FAN_OUT_ENDPOINT_CACHE_MS - 1));
  expect(within.queries).toBe(0);
  expect(within.result.map((e) => e.webhook_endpoint_id)).toEqual([first]);

  const after = await countQueries(() => endpointsForFanOut(merchantId, 'payment.created', t0 + FAN_OUT_ENDPOINT_CACHE_MS));
  expect(after.queries).toBe(1);
  expect(new Set(after.result.map((e) => e.webhook_endpoint_id))).toEqual(new Set([first, second]));
});

test('the cached list is filtered by each event type; merchants are cached apart', async () => {
  const a = await merchantWithEndpoint(['refund.succeeded']);
  const b = await merchantWithEndpoint(['payment.created']);
  const now = Date.now();
  expect(await endpointsForFanOut(a.merchantId, 'payment.created', now)).toEqual([]);
  expect((await endpointsForFanOut(a.merchantId, 'refund.succeeded', now)).map((e) => e.webhook_endpoint_id)).toEqual([a.first]);
  expect((await endpointsForFanOut(b.merchantId, 'payment.created', now)).map((e) => e.webhook_endpoint_id)).toEqual([b.first]);
});

test('a failed read is not remembered: the next event reads again and succeeds', async () => {
  const { merchantId, first } = await merchantWithEndpoint(['*']);
  const now = Date.now();
  process.env.TABLE_NAME = `${table}-missing`;
  try {
    await expect(endpointsForFanOut(merchantId, 'payment.created', now)).rejects.toThrow();
  } finally {
    process.env.TABLE_NAME = table;
  }
  const retried = await countQueries(() => endpointsForFanOut(merchantId, 'payment.created', now));
  expect(retried.queries).toBe(1);
  expect(retried.result.map((e) => e.webhook_endpoint_id)).toEqual([first]);
});
