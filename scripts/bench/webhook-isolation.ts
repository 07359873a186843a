/**
 * `npm run bench:webhooks`: the noisy-neighbour benchmark of webhook delivery ("Delivery
 * isolation", docs/api.md). Two merchants on one local stack (in-memory DynamoDB Local with its
 * stream, the local stream reader, the local delivery queue and worker at the **dev stage's worker
 * width and lanes** (lib/config/stage-config.ts), the local gateway, all in this process), in two
 * scenarios, each on a fresh delivery queue:
 *
 * - `hanging`: merchant A ("noisy") has 5 endpoints that hold every request 16 s (past the 15 s
 *   delivery timeout) and makes 150 events (customer creates) at 25 a second;
 * - `slow`: merchant A has 16 endpoints that answer `200` after 8 s (every call answers, so no
 *   circuit opens) and makes 150 events at 25 a second;
 *
 * and in both, merchant B ("quiet") has 1 healthy endpoint and makes one event a second for 40 s,
 * from the start of the flood, so its events span the moment the held requests end (16 s) and the
 * noisy backlog that follows.
 *
 * Measured: for each of B's events, the time from the event's `created_at` to its first attempt
 * arriving at B's endpoint (the receiver's clock; same host); an event not received within 30 s of
 * B's last event counts as late. Retries are handed over when due (scripts/local/delivery-retry-timer.ts,
 * as `npm start` does), so the noisy merchant's failed attempts come back 5 s later. Also: how many delivery batches each merchant had in flight at
 * most (the per-merchant bound), and A's attempts that reached its endpoints. Goal: B's first
 * attempts p99 ≤ 2 s in both scenarios. The machine's load average is printed with each scenario:
 * on a shared machine the figures move with it.
 *
 * Options (environment): `BENCH_SCENARIOS` (`hanging,slow`), `BENCH_ROUNDS` (1 per scenario),
 * `BENCH_NOISY_EVENTS` (150), `BENCH_NOISY_RATE` (25 events/s), `BENCH_QUIET_EVENTS` (40),
 * `BENCH_QUIET_INTERVAL_MS` (1 000), `BENCH_WIDTH` (the dev stage's `maxConcurrency`).
 * Results are recorded in docs/benchmarks.md ("Webhook delivery isolation").
 */
import './env';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { stageConfig } from '../../lib/config/stage-config';
import { putApiKey, setRateLimits } from '../../shared/storage/api-keys-repository';
import { RATE_LIMIT_MAX } from '../../shared/storage/rate-limit-repository';
import { startDeliveryQueue } from '../local/delivery-queue';
import { startDeliveryRetryTimer } from '../local/delivery-retry-timer';
import { startDynamoDbLocal } from '../local/dynamodb-local';
import { ensureTable } from '../local/ensure-table';
import { startEventStream } from '../local/event-stream';
import { startGateway } from '../local/gateway';
import { percentile } from './stats';

const dev = stageConfig('dev').webhookDelivery;
const WIDTH = Number(process.env.BENCH_WIDTH ?? dev.maxConcurrency);
process.env.WEBHOOK_DELIVERY_LANES = String(dev.lanes);
process.env.WEBHOOK_SLOW_DELIVERY_LANES = String(dev.slowLanes);
const NOISY_EVENTS = Number(process.env.BENCH_NOISY_EVENTS ?? 150);
const NOISY_RATE = Number(process.env.BENCH_NOISY_RATE ?? 25);
const QUIET_EVENTS = Number(process.env.BENCH_QUIET_EVENTS ?? 40);
const QUIET_INTERVAL_MS = Number(process.env.BENCH_QUIET_INTERVAL_MS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
/** The goal: p99 of the quiet merchant's first-attempt latency, in ms. */
const TARGET_P99_MS = 2_000;
/** How long the quiet merchant's deliveries are waited for, in ms, after its last event. */
const WAIT_MS = 30_000;

interface Scenario {
  name: 'hanging' | 'slow';
  endpoints: number;
  /** How long each noisy endpoint holds a request before answering 200, ms. */
  holdMs: number;
  describe: string;
}

const SCENARIOS: Record<Scenario['name'], Scenario> = {
  hanging: { name: 'hanging', endpoints: 5, holdMs: 16_000, describe: '5 endpoints holding every request 16 s (past the 15 s timeout)' },
  slow: { name: 'slow', endpoints: 16, holdMs: 8_000, describe: '16 endpoints answering 200 after 8 s' },
};

interface Receiver {
  url: string;
  /** `event_id` → when its first attempt arrived and when the event was made (epoch ms). */
  firstArrival: Map<string, { at: number; createdAt: number }>;
  attempts: number;
  close(): void;
}

async function receiver(delayMs: number): Promise<Receiver> {
  const firstArrival = new Map<string, { at: number; createdAt: number }>();
  const sockets = new Set<import('node:net').Socket>();
  const state = { attempts: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.attempts += 1;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id: string; created_at: string };
      if (!firstArrival.has(event.event_id)) firstArrival.set(event.event_id, { at, createdAt: Date.parse(event.created_at) });
      const answer = () => {
        if (!res.destroyed) res.writeHead(200).end();
      };
      if (delayMs > 0) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    firstArrival,
    get attempts() {
      return state.attempts;
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** What one round measured. */
interface Round {
  /** The quiet merchant's event → first attempt latencies, ms (late events: the wait, as a floor). */
  latencies: number[];
  /** Seconds into the flood at which each late (> 2 s) quiet event was made. */
  lateAt: number[];
  received: number;
  noisyAttempts: number;
  /** Per stage, ms: event written → stream handler, → fan-out in the worker, → delivery in the worker, → received. */
  stages: Record<'stream' | 'fanOut' | 'delivery' | 'received', number[]>;
  /** Most delivery batches each merchant had in flight at once. */
  maxInFlight: { noisy: number; quiet: number };
  loadBefore: number;
  loadAfter: number;
}

/** Where the quiet merchant's events are, by event id (epoch ms per stage): filled by the wrapped handlers. */
const stageTimes = new Map<string, { stream?: number; fanOut?: number; delivery?: number }>();
let quietMerchant = '';
const note = (eventId: string, stage: 'stream' | 'fanOut' | 'delivery') => {
  const entry = stageTimes.get(eventId) ?? {};
  entry[stage] ??= Date.now();
  stageTimes.set(eventId, entry);
};

/** Delivery batches in flight per merchant (filled by the wrapped queue handler), and the most seen. */
const inFlight = new Map<string, number>();
const maxInFlight = new Map<string, number>();

type Call = (key: string, method: string, path: string, body: unknown) => Promise<unknown>;

async function round(scenario: Scenario, n: number, call: Call): Promise<Round> {
  const queue = await startDeliveryQueue({ concurrency: WIDTH, handler: wrappedHandler });
  // Retries handed over when due, as `npm start` does (the noisy merchant's timed-out attempts come back 5 s later).
  const retries = startDeliveryRetryTimer();
  const tag = `${scenario.name}_${n}_${Date.now().toString(36)}`;
  const noisyMerchant = { id: `mer_bench_noisy_${tag}`, key: `sk_test_bench_noisy_${tag}_0001` };
  const quiet = { id: `mer_bench_quiet_${tag}`, key: `sk_test_bench_quiet_${tag}_0001` };
  for (const m of [noisyMerchant, quiet]) {
    await putApiKey(m.key, m.id, 'webhook isolation benchmark');
    await setRateLimits(m.id, { read: RATE_LIMIT_MAX, write: RATE_LIMIT_MAX });
  }
  inFlight.clear();
  maxInFlight.clear();
  quietMerchant = quiet.id;
  const noisyEndpoints = await Promise.all(Array.from({ length: scenario.endpoints }, () => receiver(scenario.holdMs)));
  const healthy = await receiver(0);
  try {
    for (const r of noisyEndpoints)
      await call(noisyMerchant.key, 'POST', '/webhook_endpoints', { url: r.url, enabled_events: ['customer.created'] });
    await call(quiet.key, 'POST', '/webhook_endpoints', { url: healthy.url, enabled_events: ['customer.created'] });
    const loadBefore = loadavg()[0] ?? 0;
    const started = Date.now();
    // The noisy merchant: NOISY_RATE events a second, each request started on time (not after the previous answer).
    const noisyRun = Promise.all(
      Array.from({ length: NOISY_EVENTS }, async (_, i) => {
        await new Promise((r) => setTimeout(r, (i * 1000) / NOISY_RATE));
        await call(noisyMerchant.key, 'POST', '/customers', { name: `Noisy ${i}` });
      }),
    );
    const quietMade: number[] = [];
    const quietRun = (async () => {
      for (let i = 0; i < QUIET_EVENTS; i += 1) {
        const due = started + i * QUIET_INTERVAL_MS;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        quietMade.push(Date.now() - started);
        await call(quiet.key, 'POST', '/customers', { name: `Quiet ${i}` });
      }
    })();
    await Promise.all([noisyRun, quietRun]);
    const deadline = Date.now() + WAIT_MS;
    while (healthy.firstArrival.size < QUIET_EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const result: Round = {
      latencies: [],
      lateAt: [],
      stages: { stream: [], fanOut: [], delivery: [], received: [] },
      received: healthy.firstArrival.size,
      noisyAttempts: noisyEndpoints.reduce((sum, r) => sum + r.attempts, 0),
      maxInFlight: { noisy: maxInFlight.get(noisyMerchant.id) ?? 0, quiet: maxInFlight.get(quiet.id) ?? 0 },
      loadBefore,
      loadAfter: loadavg()[0] ?? 0,
    };
    for (const [id, v] of healthy.firstArrival) {
      const t = stageTimes.get(id) ?? {};
      if (t.stream !== undefined) result.stages.stream.push(t.stream - v.createdAt);
      if (t.stream !== undefined && t.fanOut !== undefined) result.stages.fanOut.push(t.fanOut - t.stream);
      if (t.fanOut !== undefined && t.delivery !== undefined) result.stages.delivery.push(t.delivery - t.fanOut);
      if (t.delivery !== undefined) result.stages.received.push(v.at - t.delivery);
      const latency = v.at - v.createdAt;
      result.latencies.push(latency);
      if (latency > TARGET_P99_MS) result.lateAt.push((v.createdAt - started) / 1000);
    }
    // Events never received within the wait count as late, at least the wait long.
    for (let i = result.received; i < QUIET_EVENTS; i += 1) result.latencies.push(WAIT_MS);
    return result;
  } finally {
    for (const r of [...noisyEndpoints, healthy]) r.close();
    await retries.stop();
    await queue.stop();
  }
}

let queueHandler: typeof import('../../functions/webhook-delivery/queue-handler').handler;

/** The real worker, wrapped to count each merchant's delivery batches in flight. */
const wrappedHandler: NonNullable<Parameters<typeof startDeliveryQueue>[0]>['handler'] = async (event, context) => {
  const first = JSON.parse(event.Records[0]?.body ?? '{}') as { kind?: string; merchant_id?: string };
  const merchant = first.kind === 'fan_out' ? undefined : first.merchant_id;
  for (const r of event.Records) {
    const m = JSON.parse(r.body) as { kind: string; merchant_id: string; event_id?: string; delivery_id?: string };
    if (m.merchant_id !== quietMerchant) continue;
    if (m.kind === 'fan_out') note(String(m.event_id), 'fanOut');
    else note(String(m.delivery_id).split(':')[0] ?? '', 'delivery');
  }
  if (merchant) {
    const now = (inFlight.get(merchant) ?? 0) + 1;
    inFlight.set(merchant, now);
    maxInFlight.set(merchant, Math.max(maxInFlight.get(merchant) ?? 0, now));
  }
  try {
    return await queueHandler(event, context);
  } finally {
    if (merchant) inFlight.set(merchant, (inFlight.get(merchant) ?? 1) - 1);
  }
};

async function main(): Promise<void> {
  const names = (process.env.BENCH_SCENARIOS ?? 'hanging,slow').split(',').map((s) => s.trim()) as Scenario['name'][];
  const scenarios = names.map((name) => {
    const s = SCENARIOS[name];
    if (!s) throw new Error(`Unknown scenario ${name}: hanging or slow`);
    return s;
  });
  const dynamo = await startDynamoDbLocal({ inMemory: true });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME as string, { stream: true });
  const gateway = await startGateway(0, '127.0.0.1');
  queueHandler = (await import('../../functions/webhook-delivery/queue-handler')).handler;
  const { handler: streamHandler } = await import('../../functions/webhook-delivery/stream-handler');
  const stream = await startEventStream({
    startingPosition: 'latest',
    intervalMs: 100,
    handler: (event, context) => {
      for (const r of event.Records) {
        const image = r.dynamodb?.NewImage;
        if (image?.entity?.S === 'event' && image.merchant_id?.S === quietMerchant && image.event_id?.S) note(image.event_id.S, 'stream');
      }
      return streamHandler(event, context);
    },
  });
  const call: Call = async (key, method, path, body) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { 'api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  try {
    const out = (line: string) => process.stdout.write(`${line}\n`);
    const ms = (values: number[]) =>
      `p50 ${percentile(values, 50).toFixed(0)}, p99 ${percentile(values, 99).toFixed(0)}, max ${Math.max(...values).toFixed(0)}`;
    out(
      `Webhook delivery isolation (${new Date().toISOString()}, Node ${process.version}, worker width ${WIDTH} batches, ` +
        `lanes per merchant ${process.env.WEBHOOK_DELIVERY_LANES} + slow ${process.env.WEBHOOK_SLOW_DELIVERY_LANES}, ${ROUNDS} round(s) per scenario)`,
    );
    let allMet = true;
    for (const scenario of scenarios) {
      out(
        `  ${scenario.name}: a noisy merchant with ${scenario.describe} makes ${NOISY_EVENTS} events at ${NOISY_RATE}/s; ` +
          `a quiet merchant makes ${QUIET_EVENTS} events, one every ${QUIET_INTERVAL_MS} ms, to 1 healthy endpoint`,
      );
      const rounds: Round[] = [];
      for (let n = 1; n <= ROUNDS; n += 1) {
        const r = await round(scenario, n, call);
        rounds.push(r);
        const late = r.latencies.filter((l) => l > TARGET_P99_MS).length;
        out(
          `    round ${n}: quiet first attempts ${r.received}/${QUIET_EVENTS}, event → first attempt ${ms(r.latencies)} ms, ` +
            `${late} late (> ${TARGET_P99_MS} ms)${r.lateAt.length ? ` made at ${r.lateAt.map((s) => s.toFixed(0)).join(',')} s` : ''}; ` +
            `most batches in flight: noisy ${r.maxInFlight.noisy}, quiet ${r.maxInFlight.quiet}; noisy attempts that reached its endpoints ${r.noisyAttempts}; ` +
            `load average ${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)}`,
        );
      }
      const stage = (k: keyof Round['stages']) => ms(rounds.flatMap((r) => r.stages[k]));
      out(
        `    where the quiet events' time goes (ms): event written → stream handler ${stage('stream')}; → fan-out in the worker ${stage('fanOut')}; → delivery in the worker ${stage('delivery')}; → received ${stage('received')}`,
      );
      const pooled = rounds.flatMap((r) => r.latencies);
      const p99 = percentile(pooled, 99);
      const met = rounds.every((r) => r.received === QUIET_EVENTS) && p99 <= TARGET_P99_MS;
      allMet &&= met;
      out(`    ${scenario.name}: quiet first attempts p99 ${p99.toFixed(0)} ms — ${met ? 'met' : 'NOT met'}`);
    }
    out(
      `  goal: the quiet merchant's first attempts p99 ≤ ${TARGET_P99_MS} ms in every scenario at worker width ${WIDTH} — ${allMet ? 'met' : 'NOT met'}`,
    );
    process.exitCode = allMet ? 0 : 1;
  } finally {
    await stream.stop();
    await gateway.close();
    await dynamo.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
