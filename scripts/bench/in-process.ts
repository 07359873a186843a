/**
 * Warm cost measured where it is paid: the payment handlers invoked in this process, the
 * way Lambda invokes them (an API Gateway payload-2.0 event and a context, no HTTP hop), one request
 * at a time, each invocation followed by the same DynamoDB calls made bare with the document client
 * (scripts/bench/bare-dynamodb.ts), so both see DynamoDB Local in the same state.
 *
 * - Events: built by the local gateway's `toEvent` (scripts/local/gateway.ts), the builder that
 *   test/http/payload-v2.test.ts checks field by field against payload-2.0 events recorded from real
 *   deployments, for the request a curl client sends (the headers of the hotsock/voker recording),
 *   with a fresh request id, time and trace id per invocation. Built before the clock starts.
 * - Calls: a middleware on the process-wide client (`baseClient()`) records every DynamoDB command
 *   during each invocation and each bare sequence; the report names the handler's commands (API-key
 *   lookups and rate-limit leases, amortized over many requests, counted apart) beside the bare
 *   sequence's, and flags a difference.
 * - Profile (optional): a V8 CPU profile of more invocations of each handler, self time grouped by
 *   npm package or our own directory.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { baseClient } from '../../shared/storage/client';
import { isRateLimitCounterKey } from '../../shared/storage/rate-limit-repository';
import { gatewayOrigin, type LambdaHandler, toEvent } from '../local/gateway';
import { bareConfirm, bareCreate, bareList, bareRefund, bareRetrieve, type PaymentItem, readPaymentItem } from './bare-dynamodb';
import { fmt, percentile, progress } from './stats';

/** The five handlers of the per-invocation warm targets, with their route table entries. */
export const WARM_HANDLERS = [
  { name: 'create', functionName: 'CreatePayment', entry: 'functions/payments/create-payment.ts', budgetMs: 0.5 },
  { name: 'retrieve', functionName: 'GetPayment', entry: 'functions/payments/get-payment.ts', budgetMs: 0.5 },
  { name: 'confirm', functionName: 'ConfirmPayment', entry: 'functions/payments/confirm-payment.ts', budgetMs: 1 },
  { name: 'refund', functionName: 'RefundPayment', entry: 'functions/payments/refund-payment.ts', budgetMs: 1 },
  { name: 'list', functionName: 'ListPayments', entry: 'functions/payments/list-payments.ts', budgetMs: 0.5 },
] as const;

export type WarmHandlerName = (typeof WARM_HANDLERS)[number]['name'];

/** What the requests send. */
export interface WarmRequests {
  apiKey: string;
  merchantId: string;
  createBody: string;
  confirmBody: string;
  refundBody: string;
  refundAmount: number;
}

/** Settings of the in-process measurement. */
export interface WarmOptions {
  /** Measured invocations per handler (each followed by one bare sequence). */
  iterations: number;
  /** Invocations (and bare sequences) per handler before measuring, dropped. */
  warmup: number;
  /** Invocations per handler under the CPU profiler (0: no profile). */
  profileIterations: number;
}

/** One handler's measurement. */
export interface WarmResult {
  name: WarmHandlerName;
  functionName: string;
  /** Target: p50 − bare p50 ≤ this, ms. */
  budgetMs: number;
  iterations: number;
  /** Handler duration (await handler(event, context)), ms. */
  p50: number;
  p99: number;
  mean: number;
  /** The bare DynamoDB sequence, ms. */
  bareP50: number;
  bareP99: number;
  bareMean: number;
  /** Invocations that did not answer 2xx, or threw; the first one. */
  failures: number;
  firstFailure?: string;
  bareErrors: number;
  firstBareError?: string;
  /** The handler's DynamoDB commands in the most frequent sequence (API key and rate-limit calls apart). */
  handlerCalls: string[];
  /** How many measured invocations made that sequence. */
  handlerCallsShare: number;
  /** The bare sequence's commands. */
  bareCalls: string[];
  /** API-key and rate-limit commands over all measured invocations. */
  bookkeepingCalls: number;
  /** Self time per group (package or own directory), ms per invocation, largest first; absent without profile. */
  profile?: { group: string; msPerInvocation: number }[];
  /** Sampled CPU time per invocation (everything but idle), ms. */
  profileCpuMs?: number;
  /** The same for the bare sequences, and per group handler − bare (largest first). */
  bareProfileCpuMs?: number;
  profileOverBare?: { group: string; msPerInvocation: number }[];
}

/** A curl client's headers, as in the hotsock/voker recording (test/http/payload-v2.test.ts, recording 1). */
const CLIENT_HEADERS = { accept: '*/*', 'user-agent': 'curl/8.7.1' };
const ORIGIN = gatewayOrigin('https://api.switchyard.example');

function event(method: string, target: string, apiKey: string, body?: string): APIGatewayProxyEventV2 {
  const headers: Record<string, string[]> = { 'api-key': [apiKey] };
  for (const [k, v] of Object.entries(CLIENT_HEADERS)) headers[k] = [v];
  if (body) headers['content-type'] = ['application/json'];
  const built = toEvent(
    { method, target, headers, body: Buffer.from(body ?? '', 'utf8'), sourceIp: '68.8.83.18', httpVersion: '1.1' },
    ORIGIN,
  );
  if (!built) throw new Error(`no event for ${method} ${target}`);
  return built;
}

let invocation = 0;
function context(functionName: string): Context {
  const deadline = Date.now() + 29_000;
  invocation += 1;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: `00000000-0000-4000-8000-${String(invocation).padStart(12, '0')}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Whether a command concerns an API-key item or a rate-limit counter (as scripts/bench/round-trips.ts decides). */
function isBookkeeping(input: unknown): boolean {
  const key = (input as { Key?: { PK?: unknown } })?.Key;
  const pk = key?.PK as unknown;
  const pkText = typeof pk === 'object' && pk !== null && 'S' in pk ? (pk as { S: unknown }).S : pk;
  return JSON.stringify(key ?? {}).includes('APIKEY#') || isRateLimitCounterKey(pkText);
}

let recording: { calls: string[]; bookkeeping: number } | undefined;
let hooked = false;
function hookClient(): void {
  if (hooked) return;
  hooked = true;
  baseClient().middlewareStack.add(
    (next, ctx) => async (args) => {
      if (recording) {
        if (isBookkeeping(args.input)) recording.bookkeeping += 1;
        else recording.calls.push(String(ctx.commandName).replace(/Command$/, ''));
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchWarmCallRecorder' },
  );
}

async function recorded<T>(fn: () => Promise<T>): Promise<{ value: T; calls: string[]; bookkeeping: number }> {
  recording = { calls: [], bookkeeping: 0 };
  try {
    const value = await fn();
    return { value, ...recording };
  } finally {
    recording = undefined;
  }
}

const modules = new Map<string, LambdaHandler>();
async function load(entry: string): Promise<LambdaHandler> {
  let h = modules.get(entry);
  if (!h) {
    const m = (await import(`../../${entry}`)) as { handler?: LambdaHandler };
    if (typeof m.handler !== 'function') throw new Error(`${entry} does not export a handler`);
    h = m.handler;
    modules.set(entry, h);
  }
  return h;
}

interface Invocation {
  /** Builds the event (not timed). */
  event: (i: number) => APIGatewayProxyEventV2;
  /** Sees each 2xx answer's parsed body. */
  onAnswer?: (body: Record<string, unknown>) => void;
  /** The bare sequence for iteration i. */
  bare: (i: number) => Promise<unknown>;
}

/** One timed invocation: duration, 2xx or not, and the body. */
async function invoke(handler: LambdaHandler, functionName: string, ev: APIGatewayProxyEventV2) {
  const ctx = context(functionName);
  const t0 = performance.now();
  const result = (await handler(ev, ctx)) as APIGatewayProxyStructuredResultV2;
  const ms = performance.now() - t0;
  const status = result.statusCode ?? 200;
  return { ms, status, body: typeof result.body === 'string' ? result.body : '' };
}

function mostFrequent(sequences: string[][]): { calls: string[]; count: number } {
  const counts = new Map<string, number>();
  for (const s of sequences) counts.set(s.join(' + '), (counts.get(s.join(' + ')) ?? 0) + 1);
  let best = '';
  let n = 0;
  for (const [k, c] of counts)
    if (c > n) {
      best = k;
      n = c;
    }
  return { calls: best ? best.split(' + ') : [], count: n };
}

const mean = (v: readonly number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN);

async function measureHandler(
  spec: (typeof WARM_HANDLERS)[number],
  inv: Invocation,
  options: WarmOptions,
  counter: { i: number },
): Promise<WarmResult> {
  const handler = await load(spec.entry);
  const durations: number[] = [];
  const bare: number[] = [];
  const handlerSeqs: string[][] = [];
  let bareSeq: string[] = [];
  let bookkeeping = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  let bareErrors = 0;
  let firstBareError: string | undefined;
  const total = options.warmup + options.iterations;
  for (let k = 0; k < total; k++) {
    const measured = k >= options.warmup;
    const i = counter.i++;
    const ev = inv.event(i);
    try {
      const r = await recorded(() => invoke(handler, spec.functionName, ev));
      if (r.value.status < 200 || r.value.status > 299) {
        failures += measured ? 1 : 0;
        firstFailure ??= `${r.value.status} ${r.value.body.slice(0, 300)}`;
      } else {
        if (inv.onAnswer) inv.onAnswer(JSON.parse(r.value.body) as Record<string, unknown>);
        if (measured) {
          durations.push(r.value.ms);
          handlerSeqs.push(r.calls);
          bookkeeping += r.bookkeeping;
        }
      }
    } catch (err) {
      failures += measured ? 1 : 0;
      firstFailure ??= `threw ${(err as Error).message}`;
    }
    try {
      const t0 = performance.now();
      const r = await recorded(() => inv.bare(i));
      const ms = performance.now() - t0;
      if (measured) {
        bare.push(ms);
        bareSeq = r.calls;
      }
    } catch (err) {
      bareErrors += measured ? 1 : 0;
      firstBareError ??= `${(err as Error).name}: ${(err as Error).message}`;
    }
  }
  const modal = mostFrequent(handlerSeqs);
  const result: WarmResult = {
    name: spec.name,
    functionName: spec.functionName,
    budgetMs: spec.budgetMs,
    iterations: durations.length,
    p50: percentile(durations, 50),
    p99: percentile(durations, 99),
    mean: mean(durations),
    bareP50: percentile(bare, 50),
    bareP99: percentile(bare, 99),
    bareMean: mean(bare),
    failures,
    ...(firstFailure ? { firstFailure } : {}),
    bareErrors,
    ...(firstBareError ? { firstBareError } : {}),
    handlerCalls: modal.calls,
    handlerCallsShare: handlerSeqs.length ? modal.count / handlerSeqs.length : 0,
    bareCalls: bareSeq,
    bookkeepingCalls: bookkeeping,
  };
  progress(
    `in-process ${spec.name}: handler p50 ${fmt(result.p50, 2)} ms p99 ${fmt(result.p99, 2)} ms; bare p50 ${fmt(result.bareP50, 2)} ms ` +
      `p99 ${fmt(result.bareP99, 2)} ms; over bare ${fmt(result.p50 - result.bareP50, 2)} ms` +
      (failures ? `; ${failures} failed, first: ${firstFailure}` : ''),
  );
  return result;
}

/** V8 CPU profile node (the fields used). */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
}

/** The group a profile node's self time goes to: an npm package, our own directory, or a V8/Node bucket. */
function groupOf(node: ProfileNode, root: string): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node internals';
  const path = url.replace(/^file:\/\//, '');
  if (path.startsWith(root)) {
    const rel = path.slice(root.length + 1).split('/');
    return `(own) ${rel.slice(0, Math.min(2, rel.length - 1)).join('/') || rel[0]}`;
  }
  return 'other';
}

/**
 * Runs `run` under the V8 sampling profiler; self time per group, ms. With `BENCH_PROFILE_DIR` set, the raw profile
 * is also written there as `<label>.cpuprofile` (Chrome DevTools and `speedscope` open it), for the inclusive time
 * of each function, which the grouped table does not show.
 */
async function profiled(run: () => Promise<void>, label = 'profile'): Promise<Map<string, number>> {
  const inspector = await import('node:inspector/promises');
  const session = new inspector.Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    await run();
    const { profile } = (await session.post('Profiler.stop')) as unknown as {
      profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] };
    };
    const dumpDir = process.env.BENCH_PROFILE_DIR;
    if (dumpDir) {
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(dumpDir, { recursive: true });
      await writeFile(`${dumpDir}/${label}.cpuprofile`, JSON.stringify(profile));
    }
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const groups = new Map<string, number>();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    const root = process.cwd();
    for (let s = 0; s < samples.length; s++) {
      const node = byId.get(samples[s] as number);
      if (!node) continue;
      // A sample's time is the delta to the next sample.
      const us = deltas[s + 1] ?? 0;
      const g = groupOf(node, root);
      groups.set(g, (groups.get(g) ?? 0) + us / 1000);
    }
    return groups;
  } finally {
    await session.post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}

/**
 * Measures create, retrieve, confirm, refund and list in this process (DYNAMODB_ENDPOINT and TABLE_NAME
 * set, the API key seeded): create's payments feed retrieve and confirm, confirm's refund. The bare
 * creates and confirms build their own pool the same way.
 */
export async function measureWarmInvocations(requests: WarmRequests, options: WarmOptions): Promise<WarmResult[]> {
  hookClient();
  const m = requests.merchantId;
  const perHandler = options.warmup + options.iterations;
  const spec = (name: WarmHandlerName) => WARM_HANDLERS.find((h) => h.name === name) as (typeof WARM_HANDLERS)[number];
  const counter = { i: 0 };
  const results: WarmResult[] = [];

  // A template payment for the bare creates, made by the handler itself.
  const createHandler = await load(spec('create').entry);
  const first = await invoke(createHandler, 'CreatePayment', event('POST', '/payments', requests.apiKey, requests.createBody));
  const firstId = (JSON.parse(first.body) as { payment_id?: unknown }).payment_id;
  if (first.status !== 200 || typeof firstId !== 'string') throw new Error(`create answered ${first.status}: ${first.body}`);
  const template: PaymentItem = await readPaymentItem(m, firstId);

  const created: string[] = [];
  const bareCreated: string[] = [];
  const profileSpare = options.profileIterations;
  results.push(
    await measureHandler(
      spec('create'),
      {
        event: () => event('POST', '/payments', requests.apiKey, requests.createBody),
        onAnswer: (b) => {
          if (typeof b.payment_id === 'string') created.push(b.payment_id);
        },
        bare: async () => bareCreated.push(await bareCreate(m, template)),
      },
      options,
      counter,
    ),
  );
  // Fresh payments for the confirms under the profiler.
  const spare: string[] = [];
  const bareSpare: string[] = [];
  for (let k = 0; k < profileSpare; k++) spare.push(await bareCreate(m, template));
  for (let k = 0; k < profileSpare; k++) bareSpare.push(await bareCreate(m, template));

  let r = 0;
  results.push(
    await measureHandler(
      spec('retrieve'),
      {
        event: () => event('GET', `/payments/${created[r++ % created.length]}`, requests.apiKey),
        bare: (i) => bareRetrieve(m, created[i % created.length] as string),
      },
      options,
      counter,
    ),
  );

  if (created.length < perHandler || bareCreated.length < perHandler)
    throw new Error(`create made ${created.length} payments through the handler and ${bareCreated.length} bare; ${perHandler} needed`);
  let c = 0;
  let bc = 0;
  const succeeded: string[] = [];
  const bareSucceeded: string[] = [];
  results.push(
    await measureHandler(
      spec('confirm'),
      {
        event: () => event('POST', `/payments/${created[c++]}/confirm`, requests.apiKey, requests.confirmBody),
        onAnswer: (b) => {
          if (b.status === 'Succeeded' && typeof b.payment_id === 'string') succeeded.push(b.payment_id);
        },
        bare: async () => {
          const id = bareCreated[bc++] as string;
          await bareConfirm(m, id);
          bareSucceeded.push(id);
        },
      },
      options,
      counter,
    ),
  );

  let f = 0;
  let bf = 0;
  results.push(
    await measureHandler(
      spec('refund'),
      {
        event: () => event('POST', `/payments/${succeeded[f++ % succeeded.length]}/refund`, requests.apiKey, requests.refundBody),
        bare: () => bareRefund(m, bareSucceeded[bf++ % bareSucceeded.length] as string, requests.refundAmount),
      },
      options,
      counter,
    ),
  );

  results.push(
    await measureHandler(
      spec('list'),
      { event: () => event('GET', '/payments?limit=20', requests.apiKey), bare: () => bareList(m) },
      options,
      counter,
    ),
  );

  if (options.profileIterations > 0) {
    const targets: Record<WarmHandlerName, (k: number) => APIGatewayProxyEventV2> = {
      create: () => event('POST', '/payments', requests.apiKey, requests.createBody),
      retrieve: (k) => event('GET', `/payments/${created[k % created.length]}`, requests.apiKey),
      confirm: (k) => event('POST', `/payments/${spare[k]}/confirm`, requests.apiKey, requests.confirmBody),
      refund: (k) => event('POST', `/payments/${succeeded[k % succeeded.length]}/refund`, requests.apiKey, requests.refundBody),
      list: () => event('GET', '/payments?limit=20', requests.apiKey),
    };
    const bareOps: Record<WarmHandlerName, (k: number) => Promise<unknown>> = {
      create: () => bareCreate(m, template),
      retrieve: (k) => bareRetrieve(m, created[k % created.length] as string),
      confirm: (k) => bareConfirm(m, bareSpare[k] as string),
      refund: (k) => bareRefund(m, bareSucceeded[k % bareSucceeded.length] as string, requests.refundAmount),
      list: () => bareList(m),
    };
    const perInvocation = (groups: Map<string, number>, n: number) => {
      const out = new Map<string, number>();
      let cpu = 0;
      for (const [g, ms] of groups) {
        if (g === '(idle)') continue;
        cpu += ms;
        out.set(g, ms / n);
      }
      return { out, cpu: cpu / n };
    };
    for (const result of results) {
      const fn = await load(spec(result.name).entry);
      const events = Array.from({ length: options.profileIterations }, (_, k) => targets[result.name](k));
      progress(`in-process ${result.name}: CPU profile of ${options.profileIterations} invocations`);
      const groups = await profiled(async () => {
        for (const ev of events) await fn(ev, context(result.functionName));
      }, result.name);
      const bareGroups = await profiled(async () => {
        for (let k = 0; k < options.profileIterations; k++) await bareOps[result.name](k);
      }, `${result.name}-bare`);
      const n = options.profileIterations;
      const h = perInvocation(groups, n);
      const b = perInvocation(bareGroups, n);
      result.profile = [...h.out]
        .map(([group, ms]) => ({ group, msPerInvocation: ms }))
        .sort((x, y) => y.msPerInvocation - x.msPerInvocation);
      result.profileCpuMs = h.cpu;
      result.bareProfileCpuMs = b.cpu;
      const names = new Set([...h.out.keys(), ...b.out.keys()]);
      result.profileOverBare = [...names]
        .map((group) => ({ group, msPerInvocation: (h.out.get(group) ?? 0) - (b.out.get(group) ?? 0) }))
        .sort((x, y) => y.msPerInvocation - x.msPerInvocation);
    }
  }
  return results;
}
