/**
 * HTTP load with autocannon's programmatic API against the local gateway.
 *
 * autocannon has no type declarations in this repository (and package.json is
 * not to be changed for a bench script), so it is loaded with `require` and
 * typed by the small interfaces below, which cover only what is used here.
 */
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { percentile } from './stats';

/** One request template of autocannon's `requests` option. */
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before every request is written; returns the request to send. */
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  /** Called with every response (status, full body). */
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, unknown>) => void;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Seconds without a response before a request counts as a timeout. */
  timeout?: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}

interface AutocannonResult {
  /** Seconds the run actually took. */
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  requests: { total: number; sent: number };
  statusCodeStats: Record<string, { count: number }>;
}

type AutocannonInstance = EventEmitter & PromiseLike<AutocannonResult> & { stop(): void };
type Autocannon = (options: AutocannonOptions) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** What one benchmarked endpoint sends. */
export interface HttpLoadSpec {
  method: 'GET' | 'POST';
  /**
   * Returns the next request's path (with query string) and JSON body. Called
   * once per request, so it can hand out a fresh payment id each time.
   */
  next: () => { path: string; body?: string };
  /** Sees every response (status and body), e.g. to collect created ids. */
  onResponse?: (status: number, body: string) => void;
}

/** Load settings. */
export interface HttpLoadOptions {
  baseUrl: string;
  apiKey: string;
  connections: number;
  durationSeconds: number;
}

/** The outcome of one autocannon run. */
export interface HttpLoadResult {
  /** Completed requests (any status). */
  requests: number;
  /** Requests written, including those still in flight when the run stopped. */
  sent: number;
  durationSeconds: number;
  requestsPerSecond: number;
  /** Over 2xx responses only (autocannon's convention), in ms. */
  p50: number;
  p99: number;
  /** Responses that were not 2xx. */
  non2xx: number;
  /** Socket errors and timeouts (requests without any response). */
  errors: number;
  statusCounts: Record<string, number>;
  /** The first few non-2xx responses, verbatim, for the report. */
  errorSamples: { status: number; body: string }[];
}

const MAX_ERROR_SAMPLES = 5;

/**
 * Drives one endpoint with autocannon for a bounded time, on a fixed number of
 * keep-alive connections, with the `api-key` header set. Latency is measured
 * per response from autocannon's `response` events (sub-millisecond precision;
 * autocannon's own histogram rounds to whole milliseconds).
 * @returns throughput, p50/p99 of 2xx latencies, non-2xx and error counts, and up to 5 non-2xx bodies
 */
export async function runHttpLoad(spec: HttpLoadSpec, options: HttpLoadOptions): Promise<HttpLoadResult> {
  const latencies: number[] = [];
  const errorSamples: { status: number; body: string }[] = [];
  const instance = autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 10,
    headers: { 'api-key': options.apiKey, 'content-type': 'application/json' },
    requests: [
      {
        method: spec.method,
        setupRequest: (request) => {
          const { path, body } = spec.next();
          return { ...request, method: spec.method, path, ...(body === undefined ? {} : { body }) };
        },
        onResponse: (status, body) => {
          if ((status < 200 || status > 299) && errorSamples.length < MAX_ERROR_SAMPLES) errorSamples.push({ status, body });
          spec.onResponse?.(status, body);
        },
      },
    ],
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode <= 299) latencies.push(responseTime);
  });
  const result = await instance;
  const statusCounts: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats)) statusCounts[code] = stat.count;
  return {
    requests: result.requests.total,
    sent: result.requests.sent,
    durationSeconds: result.duration,
    requestsPerSecond: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors,
    statusCounts,
    errorSamples,
  };
}
