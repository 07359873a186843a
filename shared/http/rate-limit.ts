/**
 * Per-merchant rate limits (docs/rate-limits.md): a limit per merchant and operation class
 * (`read` = GET, `write` = every other method) per second, on authenticated routes. Over it the API
 * answers 429 `rate_limit_error` / `rate_limit_exceeded` with `Retry-After` (RFC 9110 §10.2.3) and the
 * IETF RateLimit fields in their structured-field form (draft-ietf-httpapi-ratelimit-headers-10 §3,
 * §4: `RateLimit-Policy: "write";q=100;w=1`, `RateLimit: "write";r=0;t=1`,
 * https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/). The split by read and write
 * and the default order of magnitude follow Stripe's rate limiter (live mode: 100 read and 100 write
 * operations per second per account, answered 429 with error code `rate_limit`:
 * https://stripe.com/docs/rate-limits).
 *
 * Across Lambda containers an in-memory bucket does not bound a merchant (N containers would admit
 * N times the limit), so containers **lease** tokens from counters in the table
 * (shared/storage/rate-limit-repository.ts): fixed 1-second windows; a window's limit `L` is spread
 * over `S = ceil(L / 500)` counter shards (so no counter item takes more than ~500 lease writes per
 * second, half a partition's 1,000 write units), shard k holding its share of `L`; a container
 * leases `n` tokens with one conditional UpdateItem and spends them locally. The lease size adapts
 * to the container's traffic ({@link leaseSize}): an idle container leases 1, a busy one up to a
 * tenth of a shard. Tokens left at the end of a window are lost.
 *
 * Latency: the first request of a window in a container that was not refused in the previous
 * window is admitted at once and its lease runs in parallel with the request (awaited before the
 * response is returned, since Lambda freezes pending work): a low-traffic request waits for no
 * lease. A request that finds the container's tokens spent waits for a lease.
 *
 * Bounds (docs/rate-limits.md "Bounds"): in one window a merchant is admitted at most `L` plus one
 * request per container (the optimistic first request, when the window turns out full); a fixed
 * window can admit up to `2 L` across a window boundary; leased but unused tokens (at most `n − 1`
 * per container) can make a merchant be refused a little before `L`.
 *
 * Fail open: a lease that fails (DynamoDB unreachable, throttled, slower than
 * {@link RATE_LIMIT_LEASE_TIMEOUT_MS}) admits the request and every later one of that merchant and
 * class in this container for the rest of the window; one warning per window is logged and the
 * metric `RateLimiterErrors` (Count, shared/observability/metrics.ts) is emitted per failure. Rate limiting
 * never takes the API down. One exception: a container that refused this merchant and class in the
 * previous window refuses the window whose lease fails (a flood throttling its own counter must not
 * switch the limiter off); the window after fails open again.
 */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { RateLimitExceededError } from '../domain/errors';
import { logger } from '../observability/logger';
import { recordRateLimiterError } from '../observability/metrics';
import { wholeNumberSetting } from '../settings/whole-number-setting';
import {
  type CounterRef,
  isValidRateLimit,
  type LeaseResult,
  leaseTokens,
  type MerchantRateLimits,
  RATE_LIMIT_MAX,
} from '../storage/rate-limit-repository';

export { isValidRateLimit, RATE_LIMIT_MAX };

/** The operation classes a merchant's limits are set for: `read` (GET) and `write` (any other method). */
export const OPERATION_CLASSES = ['read', 'write'] as const;

/** One of {@link OPERATION_CLASSES}. */
export type OperationClass = (typeof OPERATION_CLASSES)[number];

/**
 * A merchant's own limits, requests per second per class, as its API-key items carry them
 * (`rate_limit_read`, `rate_limit_write`); an absent class uses the stage default
 * ({@link defaultRateLimit}).
 */
export type RateLimitOverrides = MerchantRateLimits;

/** Built-in limits per merchant, requests per second: read 200, write 100. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<OperationClass, number>> = { read: 200, write: 100 };

/** The environment variables that override {@link DEFAULT_RATE_LIMITS} for a stage or the local stack (0 or absent: the built-in default). */
export const RATE_LIMIT_ENV: Readonly<Record<OperationClass, string>> = {
  read: 'RATE_LIMIT_READ_PER_SECOND',
  write: 'RATE_LIMIT_WRITE_PER_SECOND',
};

/**
 * Tokens one counter shard holds per window at most: 500, half of one partition's 1,000 write units
 * per second (Amazon DynamoDB Developer Guide, "Understanding DynamoDB warm throughput in different
 * scenarios": https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html),
 * so that even a container leasing one token at a time never makes a counter item a hot partition.
 */
export const SHARD_TOKENS = 500;

/** The window, in seconds (fixed windows aligned on the epoch second). */
export const RATE_LIMIT_WINDOW_SECONDS = 1;

/** How long a lease may take before the request is admitted without it (fail open), milliseconds: `RATE_LIMIT_LEASE_TIMEOUT_MS`, default 1,000. */
export const RATE_LIMIT_LEASE_TIMEOUT_MS = wholeNumberSetting(process.env.RATE_LIMIT_LEASE_TIMEOUT_MS, { min: 1 }, 1000);

/**
 * The operation class of an HTTP method: `read` for GET (and HEAD), `write` for every other one.
 * @param method the request method, any case
 */
export function operationClassOf(method: string): OperationClass {
  const m = method.toUpperCase();
  return m === 'GET' || m === 'HEAD' ? 'read' : 'write';
}

/**
 * The stage's default limit for a class, requests per second: `RATE_LIMIT_READ_PER_SECOND` /
 * `RATE_LIMIT_WRITE_PER_SECOND` when they hold a valid limit, else {@link DEFAULT_RATE_LIMITS}
 * (0, absent or unreadable values mean the built-in default).
 * @param env where to read the variables (default `process.env`, read on every call)
 */
export function defaultRateLimit(operationClass: OperationClass, env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env[RATE_LIMIT_ENV[operationClass]]);
  return isValidRateLimit(raw) ? raw : DEFAULT_RATE_LIMITS[operationClass];
}

/**
 * The limit that applies to a merchant's class: its own (from its API-key item) when set, else the
 * stage default ({@link defaultRateLimit}).
 */
export function effectiveRateLimit(
  operationClass: OperationClass,
  overrides: RateLimitOverrides | undefined,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const own = overrides?.[operationClass];
  return isValidRateLimit(own) ? own : defaultRateLimit(operationClass, env);
}

/** How many counter shards a window of limit `limit` is spread over: `ceil(limit / SHARD_TOKENS)`, at least 1. */
export function shardCount(limit: number): number {
  return Math.max(1, Math.ceil(limit / SHARD_TOKENS));
}

/**
 * Shard `shard`'s share of a window's limit: the limit divided as evenly as integers allow (the first
 * `limit mod S` shards hold one more), so the shares add up to exactly `limit`.
 * @throws RangeError when `shard` is not in 0..S−1
 */
export function shardCap(limit: number, shard: number): number {
  const shards = shardCount(limit);
  if (!Number.isInteger(shard) || shard < 0 || shard >= shards) throw new RangeError(`shard ${shard} is outside 0..${shards - 1}`);
  return Math.floor(limit / shards) + (shard < limit % shards ? 1 : 0);
}

/**
 * How many tokens a container leases at once:
 * `clamp(ceil(max(previous, current) / 4), 1, max(1, floor(smallest shard cap / 10)))`, with `previous` the
 * requests this container admitted for the merchant and class in the previous window and `current`
 * those admitted so far in this one (counting the one asking). An idle container leases 1 (no token
 * wasted); a busy one about a quarter of its rate, so it writes about four leases per second, never
 * more than a tenth of a shard (so ten containers can share one shard without starving each other).
 */
export function leaseSize(previousServed: number, currentServed: number, limit: number): number {
  const maxLease = Math.max(1, Math.floor(Math.floor(limit / shardCount(limit)) / 10));
  return Math.min(maxLease, Math.max(1, Math.ceil(Math.max(previousServed, currentServed) / 4)));
}

/**
 * The headers of a 429 (all values strings):
 * - `Retry-After`: delay-seconds (RFC 9110 §10.2.3) until the window ends;
 * - `RateLimit-Policy`: `"<class>";q=<limit>;w=<window seconds>` (draft-ietf-httpapi-ratelimit-headers-10 §3.1);
 * - `RateLimit`: `"<class>";r=0;t=<seconds until new quota>` (same draft, §4.1; Retry-After is never
 *   earlier than `t`, as its §6 asks).
 * @param resetSeconds seconds until the window ends, an integer ≥ 1
 */
export function rateLimitHeaders(operationClass: OperationClass, limit: number, resetSeconds: number): Record<string, string> {
  return {
    'Retry-After': String(resetSeconds),
    'RateLimit-Policy': `"${operationClass}";q=${limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    RateLimit: `"${operationClass}";r=0;t=${resetSeconds}`,
  };
}

/** What {@link RateLimiter.admit} decided. */
export interface Admission {
  allowed: boolean;
  /**
   * Resolves when this request's lease work is done (the optimistic first request's lease runs in
   * parallel with it): await it before answering. Never rejects.
   */
  settled: Promise<void>;
  /** For a refusal: seconds until the window ends (≥ 1). */
  retryAfterSeconds: number;
}

/** What a container knows of one merchant and class. */
interface Bucket {
  /** The window the fields below are about (epoch second). */
  window: number;
  /** Tokens leased and not spent yet, in this window. */
  tokens: number;
  /** Requests admitted in this window. */
  served: number;
  /** Requests admitted in the previous window (0 when there were none, or the bucket is older). */
  previousServed: number;
  /** The last window in which a request was refused because the counters said the window was full. */
  refusedWindow: number;
  /** Every shard of this window is spent. */
  exhausted: boolean;
  /** A lease failed in this window: admit without leasing until it ends. */
  failedOpen: boolean;
  /** The window is refused because its lease failed after an over-limit window (not because the counter said full). */
  failedClosed: boolean;
  /** A lease was started in this window. */
  leased: boolean;
  /** Shards found spent in this window. */
  fullShards: Set<number>;
  /** Where this container starts looking for tokens in this window, in [0, 1) (times S = shard). */
  startFraction: number;
  /** The lease in flight, if any. */
  pending: Promise<void> | undefined;
}

/** Leases tokens from one counter shard (shared/storage/rate-limit-repository.ts `leaseTokens`). */
export type LeaseFunction = (ref: CounterRef, n: number, cap: number, options: { abortSignal?: AbortSignal }) => Promise<LeaseResult>;

/** How a {@link RateLimiter} is built; every field has a default. */
export interface RateLimiterOptions {
  /** Milliseconds since the epoch (default `Date.now()`, through {@link setRateLimitClock}). */
  clock?: () => number;
  /** The lease write (default: the DynamoDB conditional UpdateItem). */
  lease?: LeaseFunction;
  /** Uniform in [0, 1): picks the shard a container starts at (default `Math.random`). */
  random?: () => number;
  /** Milliseconds a lease may take before the request is admitted without it (default {@link RATE_LIMIT_LEASE_TIMEOUT_MS}). */
  leaseTimeoutMs?: number;
  /** Called on every failed lease (default: warn once per window and emit `RateLimiterErrors`). */
  onLeaseError?: (err: unknown, context: { merchantId: string; operationClass: OperationClass; window: number }) => void;
}

/** Conditional writes tried on one shard before moving on (each refusal after the first means another container leased meanwhile). */
const LEASE_ROUNDS_PER_SHARD = 8;

/** Bucket entries kept before old ones are dropped (a container serves a few merchants; this bounds memory). */
const MAX_BUCKETS = 10_000;

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * One container's share of the distributed limiter: its buckets per (merchant, class), leasing
 * tokens from the table's counters. A Lambda container holds one ({@link rateLimiter}); tests build
 * several to act as several containers.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: () => number;
  private readonly leaseFn: LeaseFunction;
  private readonly random: () => number;
  private readonly leaseTimeoutMs: number;
  private readonly onLeaseError: NonNullable<RateLimiterOptions['onLeaseError']>;
  private warnedWindow = -1;

  constructor(options: RateLimiterOptions = {}) {
    this.clock = options.clock ?? (() => currentTimeMs());
    this.leaseFn = options.lease ?? leaseTokens;
    this.random = options.random ?? Math.random;
    this.leaseTimeoutMs = options.leaseTimeoutMs ?? RATE_LIMIT_LEASE_TIMEOUT_MS;
    this.onLeaseError = options.onLeaseError ?? ((err, context) => this.reportLeaseError(err, context));
  }

  /**
   * Admits or refuses one request of a merchant in a class.
   * @param limit the merchant's limit for the class, requests per second (integer ≥ 1)
   * @returns the decision; `settled` must be awaited before the response leaves the container
   */
  async admit(merchantId: string, operationClass: OperationClass, limit: number): Promise<Admission> {
    const bucket = this.bucket(merchantId, operationClass);
    for (;;) {
      const now = this.clock();
      const window = Math.floor(now / 1000);
      this.roll(bucket, window);
      if (bucket.failedOpen) {
        bucket.served += 1;
        return { allowed: true, settled: RESOLVED, retryAfterSeconds: 0 };
      }
      if (bucket.tokens > 0) {
        bucket.tokens -= 1;
        bucket.served += 1;
        return { allowed: true, settled: RESOLVED, retryAfterSeconds: 0 };
      }
      if (bucket.exhausted) {
        // Only a window the counter said was full counts as over the limit (a failed-closed one does not,
        // so an outage never keeps a merchant refused past one window).
        if (!bucket.failedClosed) bucket.refusedWindow = window;
        return { allowed: false, settled: RESOLVED, retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * 1000 - now) / 1000)) };
      }
      if (bucket.pending) {
        await bucket.pending;
        continue;
      }
      const optimistic = !bucket.leased && bucket.refusedWindow !== window - 1;
      const n = leaseSize(bucket.previousServed, bucket.served + 1, limit);
      const lease = this.lease(bucket, { merchantId, operationClass, window }, limit, n, optimistic ? 1 : 0);
      bucket.leased = true;
      bucket.pending = lease;
      void lease.then(() => {
        if (bucket.pending === lease) bucket.pending = undefined;
      });
      if (optimistic) {
        bucket.served += 1;
        return { allowed: true, settled: lease, retryAfterSeconds: 0 };
      }
      await lease;
    }
  }

  /** Drops every bucket (as a new container would start). */
  reset(): void {
    this.buckets.clear();
  }

  private bucket(merchantId: string, operationClass: OperationClass): Bucket {
    const key = `${operationClass}\u0000${merchantId}`;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) {
        const current = Math.floor(this.clock() / 1000);
        for (const [k, b] of this.buckets) if (b.window < current - 1 && !b.pending) this.buckets.delete(k);
        if (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string);
      }
      bucket = {
        window: -1,
        tokens: 0,
        served: 0,
        previousServed: 0,
        refusedWindow: -1,
        exhausted: false,
        failedOpen: false,
        failedClosed: false,
        leased: false,
        fullShards: new Set(),
        startFraction: 0,
        pending: undefined,
      };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Moves a bucket to `window` when it is about an earlier one: its tokens are lost, its traffic remembered. */
  private roll(bucket: Bucket, window: number): void {
    if (bucket.window === window) return;
    bucket.previousServed = bucket.window === window - 1 ? bucket.served : 0;
    bucket.window = window;
    bucket.tokens = 0;
    bucket.served = 0;
    bucket.exhausted = false;
    bucket.failedOpen = false;
    bucket.failedClosed = false;
    bucket.leased = false;
    bucket.fullShards = new Set();
    bucket.startFraction = this.random();
    bucket.pending = undefined;
  }

  /**
   * Leases up to `n` tokens for the bucket's window: from the container's starting shard onwards,
   * each shard asked for `n` (capped by its share), then for what it has left when it has less, then
   * the next shard; all spent → the bucket is exhausted. `debt` tokens were already spent (the
   * optimistic first request) and are taken out of what is granted. Never rejects: a failed write
   * puts the bucket in fail-open mode for the window.
   */
  private async lease(
    bucket: Bucket,
    at: { merchantId: string; operationClass: OperationClass; window: number },
    limit: number,
    n: number,
    debt: number,
  ): Promise<void> {
    const shards = shardCount(limit);
    const start = Math.min(shards - 1, Math.floor(bucket.startFraction * shards));
    let granted = 0;
    try {
      for (let i = 0; i < shards && granted === 0; i++) {
        const shard = (start + i) % shards;
        if (bucket.fullShards.has(shard)) continue;
        const cap = shardCap(limit, shard);
        let want = Math.min(n, cap);
        // A shard asked for more than it has answers with what it had out (ALL_OLD): ask for the rest.
        // Each further refusal means other containers took tokens meanwhile; a few rounds at most.
        for (let round = 0; round < LEASE_ROUNDS_PER_SHARD && want > 0; round++) {
          const result = await this.leaseFn({ ...at, shard }, want, cap, { abortSignal: AbortSignal.timeout(this.leaseTimeoutMs) });
          if (!('refused' in result)) {
            granted = want;
            break;
          }
          want = Math.min(want, cap - result.used);
        }
        if (granted === 0) bucket.fullShards.add(shard);
      }
    } catch (err) {
      this.onLeaseError(err, at);
      if (bucket.window !== at.window) return;
      // Over its limit a second ago: a flood is the likeliest reason the counter cannot be written
      // (its own refused leases throttle the item), so this window is refused rather than opened —
      // otherwise the limiter would switch itself off during the flood it is there to stop. Bounded to
      // one window: the next one fails open again if the counter still cannot be reached.
      if (bucket.refusedWindow === at.window - 1) {
        bucket.exhausted = true;
        bucket.failedClosed = true;
      } else bucket.failedOpen = true;
      return;
    }
    if (bucket.window !== at.window) return; // the window ended meanwhile: its tokens are lost
    if (granted === 0) {
      bucket.exhausted = true;
      return;
    }
    bucket.tokens += Math.max(0, granted - debt);
  }

  /** The default {@link RateLimiterOptions.onLeaseError}: the metric every time, a warning once per window. */
  private reportLeaseError(err: unknown, context: { merchantId: string; operationClass: OperationClass; window: number }): void {
    try {
      recordRateLimiterError();
    } catch {
      // A metric must never fail a request.
    }
    if (this.warnedWindow === context.window) return;
    this.warnedWindow = context.window;
    logger.warn('rate limiter lease failed; requests admitted without a lease for the rest of the window (fail open)', {
      merchant_id: context.merchantId,
      operation_class: context.operationClass,
      error: err as Error,
    });
  }
}

let clockOverride: (() => number) | undefined;

/** The limiter's clock: {@link setRateLimitClock}'s function when set, else `Date.now()`. */
function currentTimeMs(): number {
  return clockOverride ? clockOverride() : Date.now();
}

/**
 * Replaces the clock of the container's limiter (tests: deterministic windows). Without an argument
 * it goes back to `Date.now()`.
 * @param clock milliseconds since the epoch
 */
export function setRateLimitClock(clock?: () => number): void {
  clockOverride = clock;
}

let containerLimiter: RateLimiter | undefined;

/** This container's limiter (one per Lambda container, built on first use). */
export function rateLimiter(): RateLimiter {
  containerLimiter ??= new RateLimiter();
  return containerLimiter;
}

/**
 * Replaces this container's limiter (tests: a fresh one acts as a new container; one with its own
 * options, e.g. a failing lease). Without an argument the next request builds a default one.
 */
export function setRateLimiter(limiter?: RateLimiter): void {
  containerLimiter = limiter;
}

/** What the rate-limit middleware reads from, and leaves on, the request context. */
export interface RateLimitedContext extends Context {
  /** Set by the api-key middleware (shared/http/authentication.ts). */
  merchantId?: string;
  /** The merchant's own limits, from its API-key item as cached (shared/http/authentication.ts). */
  rateLimits?: RateLimitOverrides;
  /** This request's lease work (see {@link Admission.settled}); awaited before the response is returned. */
  rateLimitSettled?: Promise<void>;
}

/**
 * Waits for a request's lease work, if any (never rejects): called before the response leaves the
 * container (shared/http/api-handler.ts), since Lambda freezes pending work once the handler returns.
 */
export async function rateLimitSettled(context: unknown): Promise<void> {
  const pending = (context as RateLimitedContext | undefined)?.rateLimitSettled;
  if (pending) await pending;
}

/**
 * middy middleware, after the api-key middleware and before body parsing, validation and
 * idempotency (so invalid requests count, and a 429 stores no idempotency record): admits the
 * request or throws {@link RateLimitExceededError} (429, with `Retry-After`, `RateLimit` and
 * `RateLimit-Policy`, added to the error response by shared/http/api-handler.ts). Its `after` and
 * `onError` wait for the request's lease work.
 */
export function rateLimit(): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, RateLimitedContext> {
  const settle = async (request: { context: RateLimitedContext }) => rateLimitSettled(request.context);
  return {
    before: async (request) => {
      const merchantId = request.context.merchantId;
      if (!merchantId) return;
      const operationClass = operationClassOf(request.event.requestContext?.http?.method ?? 'GET');
      const limit = effectiveRateLimit(operationClass, request.context.rateLimits);
      const admission = await rateLimiter().admit(merchantId, operationClass, limit);
      request.context.rateLimitSettled = admission.settled;
      if (!admission.allowed) {
        throw new RateLimitExceededError(operationClass, limit, rateLimitHeaders(operationClass, limit, admission.retryAfterSeconds));
      }
    },
    after: settle,
    onError: settle,
  };
}
