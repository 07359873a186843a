/**
 * Rate limits of the public pages, so they cannot be used to amplify traffic to processors: the payer pages (`/pay/{payment_id}/…`) and the sandbox's
 * hosted pages (`/sandbox/{kind}/{payment_id}`) need no api-key, so the per-merchant limiter of the API
 * (shared/http/rate-limit.ts) never sees them. They are limited **per payment** and **per client address**
 * (API Gateway payload 2.0 `requestContext.http.sourceIp`, which the gateway sets from the connection: a
 * client cannot choose it), per second, before anything else runs: over a limit the answer is a 429 page
 * with `Retry-After`, and nothing is read, written or asked of a processor.
 *
 * The limiter is the API's own distributed one, reused as is ({@link RateLimiter}): containers lease tokens
 * from small counter items in the table, so the limits hold across containers (an in-memory bucket would
 * admit N containers times the limit), the first request of a window in a container waits for no lease,
 * and a lease that fails admits (fail open: the limiter never takes the pages down). Its counters are keyed
 * by the payment id or the client address (`RATELIMIT#page#pay#<id>#…`, `RATELIMIT#page#ip#<address>#…`):
 * one key per payment or address, never a global one, so no counter is a hot partition (a key at its
 * limit takes at most one lease write per request over the limit's own handful per second). A path whose
 * payment id is not a payment id at all is counted per address only (no counter per garbage id).
 *
 * This bounds load, not processor calls: those are bounded on the payment itself, across containers — the
 * return route asks the processor at most once per payment per cooldown (`last_synced_at`,
 * shared/operations/payer/payer-return.ts) and a step takes at most three answers
 * (shared/operations/payments/payment-authentication.ts).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { isIdOf } from '../domain/ids';
import { logger } from '../observability/logger';
import { recordRateLimiterError } from '../observability/metrics';
import { wholeNumberSetting } from '../settings/whole-number-setting';
import { RATE_LIMIT_MAX, RateLimiter } from './rate-limit';

/** Page requests per second: per payment 10 (a payer loads a handful of pages), per client address 50 (many payers can share one address behind a carrier's NAT). */
export const DEFAULT_PAGE_RATE_LIMITS = { payment: 10, client: 50 } as const;

/** The environment variables that override {@link DEFAULT_PAGE_RATE_LIMITS} (absent or invalid: the default). */
export const PAGE_RATE_LIMIT_ENV = { payment: 'PAGE_RATE_LIMIT_PER_PAYMENT', client: 'PAGE_RATE_LIMIT_PER_CLIENT' } as const;

/** The limits in force, read on every call (so a stage or a test can set them). */
export function pageRateLimits(env: NodeJS.ProcessEnv = process.env): { payment: number; client: number } {
  return {
    payment: wholeNumberSetting(env[PAGE_RATE_LIMIT_ENV.payment], { min: 1, max: RATE_LIMIT_MAX }, DEFAULT_PAGE_RATE_LIMITS.payment),
    client: wholeNumberSetting(env[PAGE_RATE_LIMIT_ENV.client], { min: 1, max: RATE_LIMIT_MAX }, DEFAULT_PAGE_RATE_LIMITS.client),
  };
}

let pageLimiter: RateLimiter | undefined;

/** This container's page limiter (its own buckets; the same counters table as the API's). */
export function pageRateLimiter(): RateLimiter {
  pageLimiter ??= new RateLimiter({ onLeaseError: reportLeaseError });
  return pageLimiter;
}

let warnedWindow = -1;

/**
 * A failed page lease (the request is admitted: fail open): the `RateLimiterErrors` metric, and one warning
 * per window naming the kind of key only — never the client address or the payment id.
 */
function reportLeaseError(err: unknown, context: { merchantId: string; window: number }): void {
  try {
    recordRateLimiterError();
  } catch {
    // A metric must never fail a request.
  }
  if (warnedWindow === context.window) return;
  warnedWindow = context.window;
  logger.warn('page rate limiter lease failed; page requests admitted without a lease for the rest of the window (fail open)', {
    key_kind: context.merchantId.startsWith('page#ip#') ? 'client_address' : 'payment',
    error: err as Error,
  });
}

/** Replaces this container's page limiter (tests: a fresh one acts as a new container). */
export function setPageRateLimiter(limiter?: RateLimiter): void {
  pageLimiter = limiter;
}

/** What {@link admitPage} decided. */
export interface PageAdmission {
  allowed: boolean;
  /** For a refusal: seconds to wait (≥ 1). */
  retryAfterSeconds: number;
  /** The lease work of this request: awaited before the answer leaves the container. Never rejects. */
  settled: Promise<void>;
}

/**
 * Admits or refuses one public page request: per payment (when the path names one) and per client
 * address (when the event carries one), both counted in parallel; refused when either is over its limit.
 */
export async function admitPage(event: APIGatewayProxyEventV2): Promise<PageAdmission> {
  const limits = pageRateLimits();
  // Every method counts against the same limit (a page and its form are one budget): one class.
  const operationClass = 'read';
  const paymentId = event.pathParameters?.payment_id;
  const sourceIp = event.requestContext?.http?.sourceIp;
  const keys: [string, number][] = [];
  if (paymentId && isIdOf('payment', paymentId)) keys.push([`page#pay#${paymentId}`, limits.payment]);
  if (sourceIp) keys.push([`page#ip#${sourceIp}`, limits.client]);
  const admissions = await Promise.all(keys.map(([key, limit]) => pageRateLimiter().admit(key, operationClass, limit)));
  const refused = admissions.filter((a) => !a.allowed);
  return {
    allowed: refused.length === 0,
    retryAfterSeconds: Math.max(1, ...refused.map((a) => a.retryAfterSeconds)),
    settled: Promise.all(admissions.map((a) => a.settled)).then(() => undefined),
  };
}
