/**
 * `npm run bench`: a benchmark script (not a test). See docs/benchmarks.md.
 *
 * 1. Bundles every handler of the route table the way the CDK stack does, plus a
 *    baseline bundle holding only the DynamoDB document client, and measures
 *    each bundle's size and cold import time.
 * 2. Starts an in-memory DynamoDB Local, creates the bench table, seeds one API
 *    key, and starts the local gateway (the real handlers) in a child process
 *    on a free loopback port.
 * 3. Warms DynamoDB Local up, then for create, retrieve, confirm, refund and
 *    list: drives the endpoint with autocannon (10 connections, then 1), each
 *    run followed by the same DynamoDB calls made directly with the document
 *    client against the same DynamoDB Local (10 loops, then 1).
 * 4. Counts the DynamoDB round trips of one request of each operation (handlers run
 *    in this process, the client hooked as test/http/round-trips-and-faults.test.ts does).
 * 5. Stops everything and prints a markdown report on stdout (progress on stderr),
 *    ending with one line per target over HTTP (cold start, warm overhead, round
 *    trips) and per invocation: the measured value and whether it is met. A report, not a test: nothing fails.
 *
 * Tunables (environment, seconds unless noted): BENCH_CONNECTIONS (10),
 * BENCH_DB_WARMUP_SECONDS (8), BENCH_WARMUP_SECONDS (1), BENCH_HTTP_SECONDS (5),
 * BENCH_HTTP_SERIAL_SECONDS (1.5), BENCH_BARE_SECONDS (2), BENCH_BARE_SERIAL_SECONDS (1.5),
 * BENCH_IMPORT_RUNS (5), BENCH_IMPORT_RUNS_SOURCE_MAPS (3), BENCH_SKIP_BUNDLES=1,
 * BENCH_ROUTING_ITERATIONS (20000), BENCH_ONLY_ROUTING_DECISION=1 (only step 0).
 * 0. First, in this process with nothing else running: the success-rate routing decision against priority
 *    routing (scripts/bench/routing-decision.ts), with its target line.
 */
import './bench/env';
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { FUNCTION_NODE_OPTIONS } from '../lib/function-runtime';
import { FALLBACK_ROUTE, ROUTES } from '../shared/api/routes';
import { destroyDocumentClient } from '../shared/storage/client';
import {
  type BareRunResult,
  BENCH_CARD,
  bareConfirm,
  bareCreate,
  bareList,
  bareRefund,
  bareRetrieve,
  type PaymentItem,
  readPaymentItem,
  runBare,
} from './bench/bare-dynamodb';
import { type BundleResult, measureBundles } from './bench/bundles';
import { type HttpLoadResult, type HttpLoadSpec, runHttpLoad } from './bench/http-load';
import { measureWarmInvocations, WARM_HANDLERS, type WarmResult } from './bench/in-process';
import { coldTable, perInvocationTargets, warmReport } from './bench/per-invocation-report';
import { countRoundTrips, type RoundTripCount } from './bench/round-trips';
import { measureRoutingDecision, routingDecisionReport } from './bench/routing-decision';
import {
  BENCH_API_KEY,
  BENCH_MERCHANT_ID,
  type BenchDatabase,
  type GatewayProcess,
  startBenchDatabase,
  startGatewayProcess,
} from './bench/stack';
import { fmt, markdownTable, progress } from './bench/stats';
import { DYNAMODB_LOCAL_PACKAGE } from './local/dynamodb-local';

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${raw}`);
  return value;
}

const CONFIG = {
  connections: Math.max(1, Math.round(numberFromEnv('BENCH_CONNECTIONS', 10))),
  dbWarmupSeconds: numberFromEnv('BENCH_DB_WARMUP_SECONDS', 8),
  httpSeconds: numberFromEnv('BENCH_HTTP_SECONDS', 5),
  warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 1),
  httpSerialSeconds: numberFromEnv('BENCH_HTTP_SERIAL_SECONDS', 1.5),
  bareSeconds: numberFromEnv('BENCH_BARE_SECONDS', 2),
  bareSerialSeconds: numberFromEnv('BENCH_BARE_SERIAL_SECONDS', 1.5),
  importRuns: Math.max(1, Math.round(numberFromEnv('BENCH_IMPORT_RUNS', 5))),
  importRunsSourceMaps: Math.round(numberFromEnv('BENCH_IMPORT_RUNS_SOURCE_MAPS', 3)),
  skipBundles: process.env.BENCH_SKIP_BUNDLES === '1',
  /** In-process invocations per handler (one at a time), after the warm-up ones. */
  warmIterations: Math.max(1, Math.round(numberFromEnv('BENCH_INPROCESS_ITERATIONS', 300))),
  warmWarmup: Math.round(numberFromEnv('BENCH_INPROCESS_WARMUP', 50)),
  profileIterations: Math.round(numberFromEnv('BENCH_PROFILE_ITERATIONS', 100)),
  /** Skips the HTTP endpoint phase (a quick run of the bundles and the in-process part; DynamoDB Local then starts cold). */
  skipHttp: process.env.BENCH_SKIP_HTTP === '1',
  routingIterations: Math.max(1, Math.round(numberFromEnv('BENCH_ROUTING_ITERATIONS', 20_000))),
};

/** Minor units of each benchmark payment: large, so small refunds never run out. */
const PAYMENT_AMOUNT = 5_000_000;
const REFUND_AMOUNT = 100;
/** Payments the refund phases cycle through (≫ connections, so no two concurrent refunds share a payment). */
const REFUND_POOL = 200;
const BARE_WARMUP_MS = 300;
/** The bundle every handler bundle is compared with. */
const BASELINE = { name: 'DynamoDBDocumentClient only (baseline)', entry: 'scripts/bench/dynamodb-client-baseline.ts' };
/**
 * The floor the fixed choices set (scripts/bench/library-floor.ts): the baseline plus middy, zod and
 * Powertools Logger and Metrics, without and with Powertools Tracer. Not handlers: reported beside
 * the cold-start target, whose ratio no handler can beat without dropping one of these libraries.
 */
const FLOORS = [
  { name: 'Floor: client + middy + zod + Logger + Metrics', entry: 'scripts/bench/library-floor.ts' },
  { name: 'Floor: the same + Tracer (X-Ray SDK)', entry: 'scripts/bench/library-floor-tracer.ts' },
] as const;
const isFloor = (name: string) => FLOORS.some((f) => f.name === name);
/** The targets over HTTP: cold start against the baseline bundle, warm overhead against bare DynamoDB calls. */
const TARGETS = {
  /** Each bundle's import under the stack's NODE_OPTIONS ÷ the baseline's under the same. */
  coldStartRatio: 1.25,
  /** 1-connection p50 − bare p50, ms. */
  warmOverheadMs: 0.5,
};

const CREATE_BODY = JSON.stringify({
  amount: PAYMENT_AMOUNT,
  currency: 'USD',
  description: 'benchmark payment',
  metadata: { order_id: 'bench-1' },
});
const CONFIRM_BODY = JSON.stringify({ payment_method: 'card', payment_method_data: { card: BENCH_CARD } });
const REFUND_BODY = JSON.stringify({ amount: REFUND_AMOUNT });

/** One row of the endpoint table. */
interface EndpointRow {
  name: string;
  route: string;
  calls: string;
  /** Under load: {@link CONFIG.connections} connections. */
  http: HttpLoadResult;
  /** One connection: one request at a time. */
  httpSerial: HttpLoadResult;
  /** HTTP requests sent in all runs of the endpoint (warm-up and in-flight ones included). */
  allRequests: number;
  /** Powertools Metrics empty-metrics warnings the gateway printed meanwhile. */
  emptyMetricsWarnings: number;
  bare: BareRunResult;
  bareSerial: BareRunResult;
  notes: string[];
}

/** All measurements of one endpoint. */
interface EndpointMeasurements {
  http: HttpLoadResult;
  httpSerial: HttpLoadResult;
  allRequests: number;
  emptyMetricsWarnings: number;
  bare: BareRunResult;
  bareSerial: BareRunResult;
}

/** The endpoint's DynamoDB calls, for the bare measurement. */
interface BareSpec {
  /** Makes the calls once; `i` counts from 0 within each run. */
  operation: (i: number) => Promise<unknown>;
  /** How many more calls the data allows (e.g. fresh payments left); unlimited when absent. */
  available?: () => number;
}

/**
 * Measures one endpoint, each HTTP run next to its bare counterpart so that
 * DynamoDB Local is in the same state for both: HTTP warm-up (dropped), HTTP on
 * all connections, bare warm-up (dropped), bare on as many loops, HTTP on one
 * connection, bare on one loop.
 */
async function measureEndpoint(
  name: string,
  spec: HttpLoadSpec,
  bareSpec: BareSpec,
  gateway: GatewayProcess,
): Promise<EndpointMeasurements> {
  const options = { baseUrl: gateway.url, apiKey: BENCH_API_KEY, connections: CONFIG.connections };
  const bare = (concurrency: number, durationMs: number): Promise<BareRunResult> => {
    const left = bareSpec.available?.() ?? Number.POSITIVE_INFINITY;
    return runBare(bareSpec.operation, { concurrency, durationMs, ...(Number.isFinite(left) ? { maxCalls: left } : {}) });
  };
  const warningsBefore = gateway.emptyMetricsWarnings();
  let allRequests = 0;
  if (CONFIG.warmupSeconds > 0) {
    progress(`${name}: HTTP warm-up ${CONFIG.warmupSeconds} s`);
    allRequests += (await runHttpLoad(spec, { ...options, durationSeconds: CONFIG.warmupSeconds })).sent;
  }
  progress(`${name}: HTTP ${CONFIG.httpSeconds} s and bare ${CONFIG.bareSeconds} s on ${CONFIG.connections} connections/loops`);
  const http = await runHttpLoad(spec, { ...options, durationSeconds: CONFIG.httpSeconds });
  await bare(CONFIG.connections, BARE_WARMUP_MS);
  const bareLoad = await bare(CONFIG.connections, CONFIG.bareSeconds * 1000);
  progress(`${name}: HTTP ${CONFIG.httpSerialSeconds} s and bare ${CONFIG.bareSerialSeconds} s on 1 connection/loop`);
  const httpSerial = await runHttpLoad(spec, { ...options, connections: 1, durationSeconds: CONFIG.httpSerialSeconds });
  const bareSerial = await bare(1, CONFIG.bareSerialSeconds * 1000);
  allRequests += http.sent + httpSerial.sent;
  progress(
    `${name}: ${fmt(http.requestsPerSecond, 0)} req/s, p50 ${fmt(http.p50, 2)} ms (bare ${fmt(bareLoad.p50, 2)}), p99 ${fmt(http.p99, 2)} ms, ` +
      `non-2xx ${http.non2xx}, errors ${http.errors}; 1 connection p50 ${fmt(httpSerial.p50, 2)} ms (bare ${fmt(bareSerial.p50, 2)})`,
  );
  for (const r of [bareLoad, bareSerial]) if (r.errors) progress(`${name}: ${r.errors} bare call(s) failed, first: ${r.firstError}`);
  // Let the last stderr lines of the gateway arrive before counting.
  await new Promise((ok) => setTimeout(ok, 200));
  return {
    http,
    httpSerial,
    allRequests,
    emptyMetricsWarnings: gateway.emptyMetricsWarnings() - warningsBefore,
    bare: bareLoad,
    bareSerial,
  };
}

function parseJson(body: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Brings DynamoDB Local's JVM up to speed before anything is measured (its
 * throughput roughly triples over the first 15-20 s of load): runs the bare
 * create → retrieve → confirm → refund → list sequence from concurrent loops.
 */
async function warmUpDatabase(template: PaymentItem): Promise<void> {
  if (CONFIG.dbWarmupSeconds <= 0) return;
  progress(`DynamoDB Local warm-up: ${CONFIG.dbWarmupSeconds} s of bare create/retrieve/confirm/refund/list`);
  const m = BENCH_MERCHANT_ID;
  const r = await runBare(
    async () => {
      const id = await bareCreate(m, template);
      await bareRetrieve(m, id);
      await bareConfirm(m, id);
      await bareRefund(m, id, REFUND_AMOUNT);
      await bareList(m);
    },
    { concurrency: CONFIG.connections, durationMs: CONFIG.dbWarmupSeconds * 1000 },
  );
  if (r.errors) throw new Error(`DynamoDB warm-up failed: ${r.firstError}`);
  progress(`DynamoDB Local warm-up: ${fmt(r.callsPerSecond, 0)} sequences/s on average`);
}

/** Creates one payment through the API and returns its stored item, the template of the bare creates. */
async function templatePayment(baseUrl: string): Promise<PaymentItem> {
  const res = await fetch(`${baseUrl}/payments`, {
    method: 'POST',
    headers: { 'api-key': BENCH_API_KEY, 'content-type': 'application/json' },
    body: CREATE_BODY,
  });
  const body = await res.text();
  const id = res.status === 200 ? parseJson(body)?.payment_id : undefined;
  if (typeof id !== 'string') throw new Error(`POST /payments answered ${res.status}: ${body}`);
  return readPaymentItem(BENCH_MERCHANT_ID, id);
}

/** The five endpoints, in an order where each phase feeds the next with payments in the right state. */
async function benchmarkEndpoints(gateway: GatewayProcess): Promise<EndpointRow[]> {
  const m = BENCH_MERCHANT_ID;
  const rows: EndpointRow[] = [];
  const template = await templatePayment(gateway.url);
  await warmUpDatabase(template);

  // create: every 200 gives a RequiresConfirmation payment for retrieve and confirm.
  const created: string[] = [];
  const bareCreated: string[] = [];
  const create = await measureEndpoint(
    'create',
    {
      method: 'POST',
      next: () => ({ path: '/payments', body: CREATE_BODY }),
      onResponse: (status, body) => {
        const id = status === 200 ? parseJson(body)?.payment_id : undefined;
        if (typeof id === 'string') created.push(id);
      },
    },
    { operation: async () => bareCreated.push(await bareCreate(m, template)) },
    gateway,
  );
  if (created.length === 0) throw new Error(`create returned no payment; first responses: ${JSON.stringify(create.http.errorSamples)}`);
  rows.push({ name: 'create', route: 'POST /payments', calls: 'TransactWriteItems (payment + event)', ...create, notes: [] });

  // retrieve: cycles through the created payments.
  let r = 0;
  const retrieve = await measureEndpoint(
    'retrieve',
    { method: 'GET', next: () => ({ path: `/payments/${created[r++ % created.length]}` }) },
    { operation: (i) => bareRetrieve(m, created[i % created.length] as string) },
    gateway,
  );
  rows.push({ name: 'retrieve', route: 'GET /payments/{id}', calls: 'GetItem', ...retrieve, notes: [] });

  // confirm: each request takes a payment never confirmed before (RequiresConfirmation),
  // from one pool shared by the HTTP and the bare runs.
  const pool = [...created, ...bareCreated];
  const wanted = Math.ceil(
    1.3 *
      (create.http.requestsPerSecond * (CONFIG.warmupSeconds + CONFIG.httpSeconds) +
        create.httpSerial.requestsPerSecond * CONFIG.httpSerialSeconds +
        create.bare.callsPerSecond * (CONFIG.bareSeconds + BARE_WARMUP_MS / 1000) +
        create.bareSerial.callsPerSecond * CONFIG.bareSerialSeconds),
  );
  if (pool.length < wanted) {
    progress(`confirm: topping up the pool of fresh payments from ${pool.length} to ${wanted}`);
    await runBare(async () => pool.push(await bareCreate(m, template)), {
      concurrency: CONFIG.connections,
      durationMs: 60_000,
      maxCalls: wanted - pool.length,
    });
  }
  let cursor = 0;
  let reused = 0;
  const succeeded: string[] = [];
  const bareSucceeded: string[] = [];
  const confirm = await measureEndpoint(
    'confirm',
    {
      method: 'POST',
      next: () => {
        let id = pool[cursor++];
        if (id === undefined) {
          reused += 1;
          id = pool[pool.length - 1] as string;
        }
        return { path: `/payments/${id}/confirm`, body: CONFIRM_BODY };
      },
      onResponse: (status, body) => {
        const payment = status === 200 ? parseJson(body) : undefined;
        if (payment?.status === 'Succeeded' && typeof payment.payment_id === 'string') succeeded.push(payment.payment_id);
      },
    },
    {
      operation: async () => {
        const id = pool[cursor++];
        if (id === undefined) throw new Error('no fresh payment left');
        await bareConfirm(m, id);
        bareSucceeded.push(id);
      },
      available: () => Math.max(0, pool.length - cursor),
    },
    gateway,
  );
  rows.push({
    name: 'confirm',
    route: 'POST /payments/{id}/confirm',
    calls: 'GetItem + 2 × TransactWriteItems (update + event)',
    ...confirm,
    notes: reused ? [`the pool of fresh payments ran out: ${reused} confirm request(s) reused a payment (expect 409s)`] : [],
  });

  // refund: small refunds cycling through Succeeded payments of large amounts.
  const httpRefundPool = succeeded.slice(0, REFUND_POOL);
  const bareRefundPool = bareSucceeded.length >= REFUND_POOL ? bareSucceeded.slice(0, REFUND_POOL) : succeeded.slice(-REFUND_POOL);
  if (httpRefundPool.length === 0)
    throw new Error(`confirm produced no Succeeded payment; first responses: ${JSON.stringify(confirm.http.errorSamples)}`);
  let f = 0;
  const refund = await measureEndpoint(
    'refund',
    { method: 'POST', next: () => ({ path: `/payments/${httpRefundPool[f++ % httpRefundPool.length]}/refund`, body: REFUND_BODY }) },
    { operation: (i) => bareRefund(m, bareRefundPool[i % bareRefundPool.length] as string, REFUND_AMOUNT) },
    gateway,
  );
  rows.push({
    name: 'refund',
    route: 'POST /payments/{id}/refund',
    calls: 'GetItem + 2 × TransactWriteItems (with events)',
    ...refund,
    notes:
      httpRefundPool.length < REFUND_POOL
        ? [`only ${httpRefundPool.length} Succeeded payments to refund (concurrent refunds of one payment become more likely)`]
        : [],
  });

  // list: the first page of 20 of everything created above.
  const list = await measureEndpoint(
    'list',
    { method: 'GET', next: () => ({ path: '/payments?limit=20' }) },
    { operation: () => bareList(m) },
    gateway,
  );
  rows.push({ name: 'list', route: 'GET /payments?limit=20', calls: 'Query GSI1, Limit 21', ...list, notes: [] });
  return rows;
}

function machineLines(): string[] {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return [
    `- Machine: ${cpu}, ${availableParallelism()} logical CPUs, ${fmt(totalmem() / 1024 ** 3, 1)} GiB RAM, ${process.platform}/${process.arch}`,
    `- Node ${process.version}; DynamoDB Local from ${DYNAMODB_LOCAL_PACKAGE.name}@${DYNAMODB_LOCAL_PACKAGE.version}, in memory`,
  ];
}

function endpointReport(rows: EndpointRow[], gatewayStderr: string[]): string {
  const c = CONFIG.connections;
  const loadTable = markdownTable(
    [
      'Endpoint',
      'Requests',
      'req/s',
      'p50 ms',
      'p99 ms',
      'non-2xx',
      'DynamoDB calls',
      'bare p50 ms',
      'bare p99 ms',
      'bare seq/s',
      'p50 ÷ bare p50',
    ],
    rows.map((row) => [
      `${row.name} \`${row.route}\``,
      String(row.http.requests),
      fmt(row.http.requestsPerSecond, 0),
      fmt(row.http.p50, 2),
      fmt(row.http.p99, 2),
      String(row.http.non2xx + row.http.errors),
      row.calls,
      fmt(row.bare.p50, 2),
      fmt(row.bare.p99, 2),
      fmt(row.bare.callsPerSecond, 0),
      `${fmt(row.http.p50 / row.bare.p50, 2)}×`,
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r'],
  );
  const serialTable = markdownTable(
    ['Endpoint', 'Requests', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'bare p50 ms', 'bare p99 ms', 'p50 ÷ bare p50', 'p50 − bare p50 ms'],
    rows.map((row) => [
      row.name,
      String(row.httpSerial.requests),
      fmt(row.httpSerial.requestsPerSecond, 0),
      fmt(row.httpSerial.p50, 2),
      fmt(row.httpSerial.p99, 2),
      String(row.httpSerial.non2xx + row.httpSerial.errors),
      fmt(row.bareSerial.p50, 2),
      fmt(row.bareSerial.p99, 2),
      `${fmt(row.httpSerial.p50 / row.bareSerial.p50, 2)}×`,
      fmt(row.httpSerial.p50 - row.bareSerial.p50, 2),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const problems: string[] = [];
  for (const row of rows) {
    for (const note of row.notes) problems.push(`- ${row.name}: ${note}`);
    for (const [kind, r] of [
      [`${c} connections`, row.http],
      ['1 connection', row.httpSerial],
    ] as const) {
      if (!r.non2xx && !r.errors) continue;
      problems.push(
        `- ${row.name} (${kind}): ${r.non2xx} non-2xx, ${r.errors} socket errors/timeouts; status counts ${JSON.stringify(r.statusCounts)}`,
      );
      for (const sample of r.errorSamples) problems.push(`  - ${sample.status}: \`${sample.body.slice(0, 500)}\``);
    }
    for (const [kind, r] of [
      [`bare, ${c} loops`, row.bare],
      ['bare, 1 loop', row.bareSerial],
    ] as const) {
      if (r.errors) problems.push(`- ${row.name} (${kind}): ${r.errors} DynamoDB call(s) failed, first: ${r.firstError}`);
    }
  }
  if (gatewayStderr.length) problems.push('- gateway stderr (first lines):', '', '```', ...gatewayStderr.slice(0, 40), '```');
  const warnings = rows.reduce((n, row) => n + row.emptyMetricsWarnings, 0);
  const requests = rows.reduce((n, row) => n + row.allRequests, 0);
  const warningLine = warnings
    ? `Powertools Metrics printed "No application metrics to publish…" (console.warn) ${warnings} times for ${requests} HTTP requests sent (${rows
        .map((row) => `${row.name} ${row.emptyMetricsWarnings}/${row.allRequests}`)
        .join(', ')}).`
    : '';
  return [
    `#### Under load: ${c} connections`,
    '',
    loadTable,
    '',
    `#### One request at a time: 1 connection`,
    '',
    serialTable,
    '',
    `HTTP: autocannon, keep-alive connections on loopback, gateway (real handlers) in its own Node process. ` +
      `Bare: the endpoint's DynamoDB calls with the document client (bare seq/s: call sequences per second). ` +
      `Per endpoint: ${CONFIG.warmupSeconds} s HTTP warm-up, ${CONFIG.httpSeconds} s HTTP on ${c} connections, ${CONFIG.bareSeconds} s bare on ${c} loops, ` +
      `${CONFIG.httpSerialSeconds} s HTTP on 1 connection, ${CONFIG.bareSerialSeconds} s bare on 1 loop. ` +
      `DynamoDB Local warmed up for ${CONFIG.dbWarmupSeconds} s first. Latencies over 2xx responses / successful calls.`,
    '',
    problems.length
      ? ['Problems seen during the run:', '', ...problems].join('\n')
      : 'No non-2xx responses, socket errors, failed bare calls or gateway errors.',
    ...(warningLine ? ['', warningLine] : []),
  ].join('\n');
}

const signed = (value: number, decimals = 1) => (Number.isFinite(value) && value >= 0 ? `+${fmt(value, decimals)}` : fmt(value, decimals));

/** How the report names the stack's NODE_OPTIONS. */
const stackNodeOptionsLabel = FUNCTION_NODE_OPTIONS ? `NODE_OPTIONS=${FUNCTION_NODE_OPTIONS}` : 'no NODE_OPTIONS';

function bundleReport(results: BundleResult[]): string {
  const baseline = results.find((r) => r.name === BASELINE.name);
  const rows = results.map((r) => [
    r.name === BASELINE.name ? `**${r.name}**` : r.name,
    fmt(r.bytes / 1024, 1),
    baseline ? `${fmt(r.bytes / baseline.bytes, 2)}×` : 'n/a',
    fmt(r.lazyBytes / 1024, 0),
    fmt(r.importMs, 1),
    baseline && r !== baseline ? signed(r.importMs - baseline.importMs) : '',
    ...(FUNCTION_NODE_OPTIONS ? [fmt(r.importStackMs, 1)] : []),
    baseline ? `${fmt(r.importStackMs / baseline.importStackMs, 2)}×` : 'n/a',
    fmt(r.importStackCpuMs, 1),
    baseline ? `${fmt(r.importStackCpuMs / baseline.importStackCpuMs, 2)}×` : 'n/a',
    fmt(r.importWithSourceMapsMs, 1),
    r.largest
      .slice(0, 4)
      .map((p) => `${p.name} ${fmt(p.bytes / 1024, 0)}`)
      .join(', '),
  ]);
  return [
    markdownTable(
      [
        'Function',
        'Size KB',
        '× baseline',
        'On first use KB',
        `Import ms (median of ${CONFIG.importRuns})`,
        'vs baseline ms',
        ...(FUNCTION_NODE_OPTIONS ? [`Import ms, ${stackNodeOptionsLabel} (median of ${CONFIG.importRuns})`] : []),
        `Import ÷ baseline, ${stackNodeOptionsLabel}`,
        'Import CPU ms (same runs)',
        'CPU ÷ baseline',
        `Import ms, --enable-source-maps (median of ${CONFIG.importRunsSourceMaps})`,
        'Largest parts (KB)',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', ...(FUNCTION_NODE_OPTIONS ? (['r'] as const) : []), 'r', 'r', 'r', 'r', 'l'],
    ),
    '',
    'Bundled as the stack bundles them (lib/function-bundling.ts `bundleFunction`: ESM, node22, minified, source map without sourcesContent, ' +
      'AWS SDK bundled with the environment-only credential provider, the Encryption SDK as ES modules, main fields module/main, createRequire banner, ' +
      'code splitting); entries from shared/api/routes.ts (ROUTES and the fallback); the baseline is bundled the same way. ' +
      'Size: what a cold start loads (index.mjs and the chunks it imports statically), without .map; on first use: the chunks reached only by `await import()` ' +
      "(a connector's adapter, the Encryption SDK, the SDK's own lazy parts), loaded once per container when a request needs them. " +
      'Import: `await import()` of the bundle in a fresh `node` (start-up excluded), in rounds over all bundles, the NODE_OPTIONS variants interleaved. ' +
      `The stack sets ${FUNCTION_NODE_OPTIONS ? `NODE_OPTIONS=${FUNCTION_NODE_OPTIONS}` : 'no NODE_OPTIONS'} (lib/function-runtime.ts); ` +
      'the --enable-source-maps column is the setting the stack had before, for comparison.',
  ].join('\n');
}

/** The bundles over the cold-start target, the five worst named (sorted worst first by the caller). */
function overList(over: readonly { name: string; ratio: number }[]): string {
  if (over.length === 0) return 'none over';
  const named = over.slice(0, 5).map((h) => `${h.name} ${fmt(h.ratio, 2)}×`);
  return `${over.length} over, worst: ${named.join(', ')}${over.length > 5 ? ', …' : ''}`;
}

/** `met` / `not met`. */
const verdict = (met: boolean) => (met ? '**met**' : '**not met**');

/**
 * One line per target over HTTP with the measured value and whether it is met: cold start per
 * bundle, warm overhead per endpoint, DynamoDB round trips per operation.
 */
function targetsReport(bundles: BundleResult[], rows: EndpointRow[], roundTrips: RoundTripCount[] | string): string {
  const lines: string[] = [];
  const baseline = bundles.find((b) => b.name === BASELINE.name);
  if (baseline) {
    const handlers = bundles
      .filter((b) => b !== baseline && !isFloor(b.name))
      .map((b) => ({
        name: b.name,
        ratio: b.importStackMs / baseline.importStackMs,
        ms: b.importStackMs,
        cpuRatio: b.importStackCpuMs / baseline.importStackCpuMs,
      }))
      .sort((a, b) => b.ratio - a.ratio);
    const worst = handlers[0];
    const within = handlers.filter((h) => h.ratio <= TARGETS.coldStartRatio).length;
    lines.push(
      `- Cold start, every handler bundle's import ≤ ${TARGETS.coldStartRatio}× the baseline's (${stackNodeOptionsLabel}, the stack's): ` +
        (worst
          ? `worst ${worst.name} ${fmt(worst.ratio, 2)}× (${fmt(worst.ms, 1)} ms vs ${fmt(baseline.importStackMs, 1)} ms; CPU time ${fmt(worst.cpuRatio, 2)}×); ` +
            `${within} of ${handlers.length} bundles within; ${overList(handlers.filter((h) => h.ratio > TARGETS.coldStartRatio))} — ` +
            verdict(within === handlers.length)
          : 'no handler bundle measured — **not measured**'),
    );
    const floors = bundles.filter((b) => isFloor(b.name));
    if (floors.length) {
      lines.push(
        `- Floor of the fixed choices (not a target; scripts/bench/library-floor.ts): ` +
          floors
            .map(
              (f) =>
                `${f.name} ${fmt(f.importStackMs / baseline.importStackMs, 2)}× (CPU ${fmt(f.importStackCpuMs / baseline.importStackCpuMs, 2)}×)`,
            )
            .join('; ') +
          ` — a handler cannot import faster than the libraries it must load.`,
      );
    }
  } else {
    lines.push(
      `- Cold start, every handler bundle's import ≤ ${TARGETS.coldStartRatio}× the baseline's: not measured (BENCH_SKIP_BUNDLES=1)`,
    );
  }
  const overheads = rows.map((r) => ({ name: r.name, ms: r.httpSerial.p50 - r.bareSerial.p50 }));
  const worstOverhead = [...overheads].sort((a, b) => b.ms - a.ms)[0];
  lines.push(
    `- Warm overhead, 1-connection p50 − bare p50 ≤ ${TARGETS.warmOverheadMs} ms per endpoint: ` +
      `${overheads.map((o) => `${o.name} ${fmt(o.ms, 2)}`).join(', ')} ms; worst ${worstOverhead?.name ?? 'n/a'} — ` +
      verdict(overheads.length > 0 && overheads.every((o) => Number.isFinite(o.ms) && o.ms <= TARGETS.warmOverheadMs)),
  );
  if (typeof roundTrips === 'string') {
    lines.push(`- Round trips per operation at the floor: not counted (${roundTrips})`);
  } else {
    const parts = roundTrips.map((c) => {
      const n = c.made.length;
      const floor = c.allowed > c.floor ? `floor ${c.floor}, ${c.allowed} allowed when not atomic in ${c.floor}` : `floor ${c.floor}`;
      const bad = c.status < 200 || c.status > 299 ? `, HTTP ${c.status}` : '';
      return `${c.name} ${n} (${c.made.join(' + ') || 'none'}; ${floor}${bad})${n <= c.allowed ? '' : ' ✗'}`;
    });
    const met = roundTrips.every((c) => c.made.length <= c.allowed && c.status >= 200 && c.status <= 299);
    lines.push(`- Round trips per operation at the floor (list: the bench merchant has one shard): ${parts.join('; ')} — ${verdict(met)}`);
  }
  return lines.join('\n');
}

/** `git describe`-like revision of the working tree, or undefined outside git. */
function gitRevision(): string | undefined {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return undefined;
  }
}

const loadAverage = () =>
  loadavg()
    .map((l) => fmt(l, 2))
    .join(' / ');

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadAverage();
  progress(`routing decision: priority vs success_rate, ${CONFIG.routingIterations} payments each, in this process`);
  const routing = routingDecisionReport(await measureRoutingDecision(CONFIG.routingIterations));
  if (process.env.BENCH_ONLY_ROUTING_DECISION === '1') {
    process.stdout.write(
      `${['## Benchmark run (routing decision only)', '', `- Date: ${new Date().toISOString()}`, ...machineLines(), `- Code: ${gitRevision() ?? 'not a git checkout'}`, `- Load average (1/5/15 min) at start: ${loadAtStart}`, '', routing, ''].join('\n')}\n`,
    );
    return;
  }
  let bundles: BundleResult[] = [];
  if (!CONFIG.skipBundles) {
    const entries = [
      ...ROUTES.map((r) => ({ name: r.name, entry: r.entry })),
      { name: FALLBACK_ROUTE.name, entry: FALLBACK_ROUTE.entry },
      BASELINE,
      ...FLOORS,
    ];
    progress(`bundling ${entries.length} entries with esbuild, then timing cold imports`);
    bundles = await measureBundles(
      entries,
      { plain: CONFIG.importRuns, withSourceMaps: CONFIG.importRunsSourceMaps },
      FUNCTION_NODE_OPTIONS,
      process.env,
      progress,
    );
  }

  progress('starting DynamoDB Local (in memory; the first run on a machine fetches it, ~57 MB) and the gateway');
  let db: BenchDatabase | undefined;
  let gateway: GatewayProcess | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await gateway?.stop();
      destroyDocumentClient();
      await db?.dynamo.stop();
    })();
    return stopping;
  };
  const onSignal = () => {
    progress('interrupted, stopping');
    void stop().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let rows: EndpointRow[] = [];
  let roundTrips: RoundTripCount[] | string;
  let warm: WarmResult[] | string;
  try {
    db = await startBenchDatabase();
    if (!CONFIG.skipHttp) {
      gateway = await startGatewayProcess();
      progress(`gateway at ${gateway.url}, DynamoDB Local at ${db.endpoint}, table ${process.env.TABLE_NAME}`);
      rows = await benchmarkEndpoints(gateway);
      await gateway.stop();
    }
    progress(
      `per invocation: invoking create, retrieve, confirm, refund and list in this process, ${CONFIG.warmWarmup} + ${CONFIG.warmIterations} ` +
        `invocations each, each followed by its bare DynamoDB calls${CONFIG.profileIterations ? `, then ${CONFIG.profileIterations} under the CPU profiler` : ''}`,
    );
    warm = await measureWarmInvocations(
      {
        apiKey: BENCH_API_KEY,
        merchantId: BENCH_MERCHANT_ID,
        createBody: CREATE_BODY,
        confirmBody: CONFIRM_BODY,
        refundBody: REFUND_BODY,
        refundAmount: REFUND_AMOUNT,
      },
      { iterations: CONFIG.warmIterations, warmup: CONFIG.warmWarmup, profileIterations: CONFIG.profileIterations },
    ).catch((err: unknown) => `failed: ${(err as Error).stack ?? String(err)}`);
    progress('counting DynamoDB round trips: one request of each operation, handlers in this process');
    roundTrips = await countRoundTrips({
      apiKey: BENCH_API_KEY,
      createBody: CREATE_BODY,
      confirmBody: CONFIRM_BODY,
      refundBody: REFUND_BODY,
    }).catch((err: unknown) => `failed: ${(err as Error).message}`);
  } finally {
    await stop();
  }
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);

  const handlerNames = [...ROUTES.map((r) => r.name), FALLBACK_ROUTE.name];
  const paymentHandlerNames = WARM_HANDLERS.map((h) => ROUTES.find((r) => r.entry === h.entry)?.name ?? h.functionName);
  const warmSettings = { iterations: CONFIG.warmIterations, warmup: CONFIG.warmWarmup, profileIterations: CONFIG.profileIterations };
  const report = [
    '## Benchmark run',
    '',
    `- Date: ${new Date().toISOString()}`,
    ...machineLines(),
    `- Code: ${gitRevision() ?? 'not a git checkout'}`,
    `- Load average (1/5/15 min) at start: ${loadAtStart}; at end: ${loadAverage()} (other work on the machine skews the numbers)`,
    `- Total run time: ${fmt((Date.now() - started) / 1000, 0)} s`,
    '',
    ...(rows.length ? ['### Endpoints', '', endpointReport(rows, gateway?.stderr ?? []), ''] : []),
    ...(bundles.length ? ['### Bundles', '', bundleReport(bundles), ''] : []),
    '### In-process invocations',
    '',
    typeof warm === 'string' ? `Not measured: ${warm}` : warmReport(warm, warmSettings),
    '',
    ...(bundles.length
      ? ['#### Cold import ÷ the fixed-choice floor with Tracer', '', coldTable(bundles, FLOORS[1].name, handlerNames), '']
      : []),
    ...(rows.length ? ['### Targets over HTTP', '', targetsReport(bundles, rows, roundTrips), ''] : []),
    '### Routing decision',
    '',
    routing,
    '',
    '### Targets per invocation',
    '',
    perInvocationTargets(bundles, typeof warm === 'string' ? [] : warm, FLOORS[1].name, handlerNames, paymentHandlerNames),
    '',
  ].join('\n');
  process.stdout.write(`${report}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`npm run bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
