/**
 * The local stack the benchmark drives: an in-memory DynamoDB Local, the bench
 * table, one API key, and the local gateway in a child process.
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { putApiKey, setRateLimits } from '../../shared/storage/api-keys-repository';
import { RATE_LIMIT_MAX } from '../../shared/storage/rate-limit-repository';
import { type DynamoDbLocalHandle, startDynamoDbLocal } from '../local/dynamodb-local';
import { ensureTable } from '../local/ensure-table';

/** The merchant and API key the benchmark seeds (local, in-memory only). */
export const BENCH_MERCHANT_ID = 'mer_bench';
/** API key of {@link BENCH_MERCHANT_ID}; exists only in the benchmark's in-memory table. */
export const BENCH_API_KEY = 'sk_test_switchyard_bench_key';

/** What Powertools Metrics prints (console.warn) when an invocation flushes no stored metric. */
const EMPTY_METRICS_WARNING = /^No application metrics to publish/;

/** The running gateway child process. */
export interface GatewayProcess {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  /**
   * Lines the gateway wrote to stderr (handler failures are reported there), at
   * most 200, without Powertools Metrics' empty-metrics warning, which is only counted.
   */
  stderr: string[];
  /** How many times Powertools Metrics warned "No application metrics to publish" so far. */
  emptyMetricsWarnings(): number;
  /** Asks the child to close the gateway and exit; kills it after 5 s. */
  stop(): Promise<void>;
}

/**
 * Starts scripts/bench/gateway-process.ts as a child Node process (TypeScript via
 * tsx's `--import` hook, like `npm start`), with this process's environment, and
 * waits until it listens.
 * @throws when the child exits or does not report its URL within 30 s
 */
export async function startGatewayProcess(): Promise<GatewayProcess> {
  const child = fork(resolve(process.cwd(), 'scripts/bench/gateway-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: process.env,
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const stderr: string[] = [];
  let emptyMetrics = 0;
  let partial = '';
  const collect = (line: string): void => {
    if (EMPTY_METRICS_WARNING.test(line)) emptyMetrics += 1;
    else if (stderr.length < 200 && line.trim() !== '') stderr.push(line);
  };
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    lines.forEach(collect);
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('the gateway process did not start within 30 s')), 30_000);
    child.once('message', (message: { url?: string }) => {
      clearTimeout(timer);
      if (message?.url) ok(message.url);
      else fail(new Error(`unexpected message from the gateway process: ${JSON.stringify(message)}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the gateway process exited with code ${code}: ${stderr.join('\n')}${partial}`));
    });
  });
  return {
    url,
    stderr,
    emptyMetricsWarnings: () => emptyMetrics,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      if (partial) collect(partial);
      partial = '';
    },
  };
}

/** DynamoDB Local with the bench table and API key in it. */
export interface BenchDatabase {
  dynamo: DynamoDbLocalHandle;
  endpoint: string;
}

/**
 * Starts an in-memory DynamoDB Local, points `DYNAMODB_ENDPOINT` at it (before
 * any client of this process is created), creates the table named by
 * `TABLE_NAME` and stores {@link BENCH_API_KEY} for {@link BENCH_MERCHANT_ID}, with the highest rate
 * limits (`RATE_LIMIT_MAX` reads and writes per second), so the load is never throttled.
 * The first run on a machine fetches DynamoDB Local (see scripts/local/dynamodb-local.ts).
 */
export async function startBenchDatabase(): Promise<BenchDatabase> {
  const tableName = process.env.TABLE_NAME;
  if (!tableName) throw new Error('TABLE_NAME must be set before the bench database starts');
  const dynamo = await startDynamoDbLocal({ inMemory: true });
  try {
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    await ensureTable(dynamo.endpoint, tableName);
    await putApiKey(BENCH_API_KEY, BENCH_MERCHANT_ID, 'benchmark key');
    // The benchmark measures the API, not the per-merchant limits (docs/rate-limits.md): its merchant
    // gets the highest limits, so it is never answered 429 (its leases are still written and counted).
    await setRateLimits(BENCH_MERCHANT_ID, { read: RATE_LIMIT_MAX, write: RATE_LIMIT_MAX });
    return { dynamo, endpoint: dynamo.endpoint };
  } catch (err) {
    await dynamo.stop();
    throw err;
  }
}
