/**
 * The rate limiter's arithmetic and its lease algorithm (shared/http/rate-limit.ts), against an
 * in-memory stand-in of the counter items that behaves as the conditional UpdateItem does (atomic
 * per shard: `used + n <= cap` or refused with the old `used`). The same algorithm against
 * DynamoDB Local, through the gateway: test/http/rate-limits.test.ts.
 */
import {
  DEFAULT_RATE_LIMITS,
  defaultRateLimit,
  effectiveRateLimit,
  type LeaseFunction,
  leaseSize,
  operationClassOf,
  RateLimiter,
  rateLimitHeaders,
  SHARD_TOKENS,
  shardCap,
  shardCount,
} from '../../shared/http/rate-limit';
import type { CounterRef } from '../../shared/storage/rate-limit-repository';

/** Counter items in memory: `used` per (merchant, class, window, shard), with every lease call recorded. */
function memoryCounters(options: { delayMs?: number } = {}) {
  const used = new Map<string, number>();
  const calls: { ref: CounterRef; n: number; cap: number; granted: boolean }[] = [];
  const key = (r: CounterRef) => `${r.merchantId}|${r.operationClass}|${r.window}|${r.shard}`;
  const lease: LeaseFunction = async (ref, n, cap) => {
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    const u = used.get(key(ref)) ?? 0;
    if (u + n <= cap) {
      used.set(key(ref), u + n);
      calls.push({ ref, n, cap, granted: true });
      return { granted: n, used: u + n };
    }
    calls.push({ ref, n, cap, granted: false });
    return { granted: 0, used: u, refused: true };
  };
  return {
    lease,
    used,
    calls,
    total: (window: number) => [...used].filter(([k]) => k.split('|')[2] === String(window)).reduce((s, [, v]) => s + v, 0),
  };
}

/** A clock the test moves: milliseconds since the epoch. */
function testClock(startMs = 1_800_000_000_000) {
  let now = startMs;
  return {
    now: () => now,
    set: (ms: number) => {
      now = ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    window: () => Math.floor(now / 1000),
  };
}

describe('limits and classes', () => {
  test('GET (and HEAD) is a read; every other method a write', () => {
    expect(operationClassOf('GET')).toBe('read');
    expect(operationClassOf('get')).toBe('read');
    expect(operationClassOf('HEAD')).toBe('read');
    for (const m of ['POST', 'PUT', 'DELETE', 'PATCH']) expect(operationClassOf(m)).toBe('write');
  });

  test('stage defaults: the env variable when it holds a valid limit, else read 200 / write 100 (0 or absent = default)', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({ read: 200, write: 100 });
    expect(defaultRateLimit('write', {})).toBe(100);
    expect(defaultRateLimit('write', { RATE_LIMIT_WRITE_PER_SECOND: '0' })).toBe(100);
    expect(defaultRateLimit('write', { RATE_LIMIT_WRITE_PER_SECOND: 'lots' })).toBe(100);
    expect(defaultRateLimit('write', { RATE_LIMIT_WRITE_PER_SECOND: '2.5' })).toBe(100);
    expect(defaultRateLimit('write', { RATE_LIMIT_WRITE_PER_SECOND: '5000' })).toBe(5000);
    expect(defaultRateLimit('read', { RATE_LIMIT_WRITE_PER_SECOND: '5000' })).toBe(200);
    expect(defaultRateLimit('read', { RATE_LIMIT_READ_PER_SECOND: '700' })).toBe(700);
  });

  test("a merchant's own limit wins over the stage default; an absent or invalid one falls back", () => {
    const env = { RATE_LIMIT_WRITE_PER_SECOND: '300' };
    expect(effectiveRateLimit('write', { write: 5 }, env)).toBe(5);
    expect(effectiveRateLimit('write', { read: 5 }, env)).toBe(300);
    expect(effectiveRateLimit('write', undefined, env)).toBe(300);
    expect(effectiveRateLimit('write', { write: 0 }, env)).toBe(300);
    expect(effectiveRateLimit('read', { write: 5 }, {})).toBe(200);
  });

  test('429 headers in the draft-ietf-httpapi-ratelimit-headers structured-field form', () => {
    expect(rateLimitHeaders('write', 100, 1)).toEqual({
      'Retry-After': '1',
      'RateLimit-Policy': '"write";q=100;w=1',
      RateLimit: '"write";r=0;t=1',
    });
  });
});

describe('shards and lease sizes', () => {
  test('S = ceil(limit / 500): no counter item is asked for more than 500 tokens a window', () => {
    expect(SHARD_TOKENS).toBe(500);
    expect([1, 5, 100, 500, 501, 1000, 2000, 2001, 100_000].map(shardCount)).toEqual([1, 1, 1, 1, 2, 2, 4, 5, 200]);
  });

  test('shard shares add up to the limit exactly, differ by at most one, and stay ≤ 500', () => {
    for (const limit of [1, 7, 100, 499, 500, 501, 999, 1234, 2000, 2001, 25_003, 100_000]) {
      const caps = Array.from({ length: shardCount(limit) }, (_, k) => shardCap(limit, k));
      expect(caps.reduce((a, b) => a + b, 0)).toBe(limit);
      expect(Math.max(...caps) - Math.min(...caps)).toBeLessThanOrEqual(1);
      expect(Math.max(...caps)).toBeLessThanOrEqual(SHARD_TOKENS);
    }
    expect(() => shardCap(100, 1)).toThrow(RangeError);
    expect(() => shardCap(100, -1)).toThrow(RangeError);
  });

  test('lease size: 1 when idle, a quarter of the traffic when busy, at most a tenth of a shard', () => {
    expect(leaseSize(0, 1, 100)).toBe(1); // an idle container wastes nothing
    expect(leaseSize(3, 1, 100)).toBe(1);
    expect(leaseSize(8, 1, 100)).toBe(2);
    expect(leaseSize(40, 1, 100)).toBe(10); // a quarter of 40, = a tenth of the 100-token shard
    expect(leaseSize(400, 1, 100)).toBe(10); // capped
    expect(leaseSize(0, 40, 100)).toBe(10); // grows within a window too
    expect(leaseSize(200, 1, 2000)).toBe(50); // 4 shards of 500: at most 50
    expect(leaseSize(1000, 1, 2000)).toBe(50);
    expect(leaseSize(100, 1, 5)).toBe(1); // a tiny limit: never more than 1
    for (const limit of [1, 5, 99, 100, 500, 501, 2000, 100_000])
      for (const prev of [0, 1, 10, 100, 10_000]) {
        const n = leaseSize(prev, 1, limit);
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(Math.max(1, Math.floor(shardCap(limit, shardCount(limit) - 1) / 10)));
      }
  });
});

describe('one container', () => {
  test('admits the limit, then refuses with Retry-After until the window ends; the next window starts afresh', async () => {
    const clock = testClock();
    const store = memoryCounters();
    const limiter = new RateLimiter({ clock: clock.now, lease: store.lease });
    const decisions = [];
    for (let i = 0; i < 8; i++) {
      const d = await limiter.admit('mer_a', 'write', 5);
      await d.settled;
      decisions.push(d.allowed);
    }
    expect(decisions).toEqual([true, true, true, true, true, false, false, false]);
    expect(store.total(clock.window())).toBe(5);
    clock.advance(300);
    const refused = await limiter.admit('mer_a', 'write', 5);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.set((clock.window() + 1) * 1000);
    expect((await limiter.admit('mer_a', 'write', 5)).allowed).toBe(true);
  });

  test('the first request of a window is admitted before its lease returns (it runs in parallel); settled waits for it', async () => {
    const clock = testClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const store = memoryCounters();
    const lease: LeaseFunction = async (...args) => {
      await gate;
      return store.lease(...args);
    };
    const limiter = new RateLimiter({ clock: clock.now, lease });
    const first = await limiter.admit('mer_a', 'read', 10);
    expect(first.allowed).toBe(true);
    let settled = false;
    void first.settled.then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).toBe(false); // the lease is still out: the request did not wait for it
    release();
    await first.settled;
    expect(settled).toBe(true);
    expect(store.total(clock.window())).toBe(1);
  });

  test('after a refused window, the first request of the next one waits for its lease (no optimistic overshoot)', async () => {
    const clock = testClock();
    const store = memoryCounters();
    const limiter = new RateLimiter({ clock: clock.now, lease: store.lease });
    for (let i = 0; i < 3; i++) await (await limiter.admit('mer_a', 'write', 2)).settled;
    clock.set((clock.window() + 1) * 1000);
    // Another container took this window's whole budget meanwhile.
    await store.lease({ merchantId: 'mer_a', operationClass: 'write', window: clock.window(), shard: 0 }, 2, 2, {});
    const d = await limiter.admit('mer_a', 'write', 2);
    expect(d.allowed).toBe(false);
    expect(store.total(clock.window())).toBe(2);
  });

  test('classes and merchants have budgets of their own', async () => {
    const clock = testClock();
    const store = memoryCounters();
    const limiter = new RateLimiter({ clock: clock.now, lease: store.lease });
    const admitted = async (m: string, c: 'read' | 'write', n: number, limit: number) => {
      let ok = 0;
      for (let i = 0; i < n; i++) {
        const d = await limiter.admit(m, c, limit);
        await d.settled;
        if (d.allowed) ok += 1;
      }
      return ok;
    };
    expect(await admitted('mer_a', 'write', 10, 3)).toBe(3);
    expect(await admitted('mer_a', 'read', 10, 4)).toBe(4);
    expect(await admitted('mer_b', 'write', 10, 3)).toBe(3);
  });

  test('lease writes are amortized once the container is warm: at most ceil(N / n) + 1 for N requests in a window', async () => {
    const clock = testClock();
    const store = memoryCounters();
    const limiter = new RateLimiter({ clock: clock.now, lease: store.lease });
    const serve = async (n: number) => {
      for (let i = 0; i < n; i++) await (await limiter.admit('mer_a', 'write', 100)).settled;
    };
    await serve(40); // warm-up window: leases grow from 1 as traffic shows
    const warmUp = store.calls.length;
    expect(warmUp).toBeLessThanOrEqual(40);
    clock.set((clock.window() + 1) * 1000);
    await serve(40);
    const n = leaseSize(40, 1, 100);
    expect(n).toBe(10);
    expect(store.calls.length - warmUp).toBeLessThanOrEqual(Math.ceil(40 / n) + 1);
  });

  test('shard choice: a container starts at its random shard and moves on when one is spent, asking for what is left first', async () => {
    const clock = testClock();
    const store = memoryCounters();
    // limit 1200 → 3 shards of 400; random 0.5 → start at shard 1.
    const limiter = new RateLimiter({ clock: clock.now, lease: store.lease, random: () => 0.5 });
    const w = clock.window();
    await store.lease({ merchantId: 'mer_a', operationClass: 'write', window: w, shard: 1 }, 399, 400, {});
    await store.lease({ merchantId: 'mer_a', operationClass: 'write', window: w, shard: 2 }, 400, 400, {});
    store.calls.length = 0;
    for (let i = 0; i < 60; i++) await (await limiter.admit('mer_a', 'write', 1200)).settled;
    const shardsAsked = store.calls.map((c) => c.ref.shard);
    expect(shardsAsked[0]).toBe(1);
    expect(store.calls.every((c) => c.cap === 400)).toBe(true);
    // Shard 1 had one token left: leased once it said so (ALL_OLD), then shard 2 (spent) and shard 0.
    expect(store.used.get(`mer_a|write|${w}|1`)).toBe(400);
    expect(store.used.get(`mer_a|write|${w}|2`)).toBe(400);
    expect(shardsAsked).toContain(0);
    expect(store.total(w)).toBeLessThanOrEqual(1200);
  });

  test('fail open: a failing lease admits the request and the rest of the window without more writes; the next window tries again', async () => {
    const clock = testClock();
    const errors: unknown[] = [];
    let failing = true;
    const store = memoryCounters();
    const lease: LeaseFunction = async (...args) => {
      if (failing) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return store.lease(...args);
    };
    const limiter = new RateLimiter({ clock: clock.now, lease, onLeaseError: (err) => errors.push(err) });
    const allowed = [];
    for (let i = 0; i < 5; i++) {
      const d = await limiter.admit('mer_a', 'write', 1);
      await d.settled;
      allowed.push(d.allowed);
    }
    expect(allowed).toEqual([true, true, true, true, true]);
    expect(errors).toHaveLength(1); // one failed write; the window stays open without retrying every request
    failing = false;
    clock.set((clock.window() + 1) * 1000);
    const again = [];
    for (let i = 0; i < 3; i++) {
      const d = await limiter.admit('mer_a', 'write', 1);
      await d.settled;
      again.push(d.allowed);
    }
    expect(again).toEqual([true, false, false]);
  });

  test('a container over the limit in the previous window refuses the window whose lease fails (a flood throttling its counter), then fails open again', async () => {
    const clock = testClock();
    let failing = false;
    const store = memoryCounters();
    const lease: LeaseFunction = async (...args) => {
      if (failing)
        throw Object.assign(new Error('ProvisionedThroughputExceededException'), { name: 'ProvisionedThroughputExceededException' });
      return store.lease(...args);
    };
    const limiter = new RateLimiter({ clock: clock.now, lease, onLeaseError: () => undefined });
    const window = async () => {
      const allowed: boolean[] = [];
      for (let i = 0; i < 3; i++) {
        const d = await limiter.admit('mer_a', 'write', 1);
        await d.settled;
        allowed.push(d.allowed);
      }
      clock.set((clock.window() + 1) * 1000);
      return allowed;
    };
    expect(await window()).toEqual([true, false, false]); // over the limit
    failing = true;
    expect(await window()).toEqual([false, false, false]); // the counter cannot be written: refused, not opened
    expect(await window()).toEqual([true, true, true]); // not refused in the previous window: fails open
  });

  test('a lease slower than the timeout fails open instead of holding the request', async () => {
    const clock = testClock();
    const errors: unknown[] = [];
    const lease: LeaseFunction = (_ref, _n, _cap, { abortSignal }) =>
      new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)));
    const limiter = new RateLimiter({ clock: clock.now, lease, leaseTimeoutMs: 30, onLeaseError: (err) => errors.push(err) });
    await (await limiter.admit('mer_a', 'write', 1)).settled; // optimistic, its lease times out
    const started = Date.now();
    const d = await limiter.admit('mer_a', 'write', 1);
    expect(d.allowed).toBe(true);
    // The lease never settles: admitting at all shows it failed open; the ceiling is generous for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(errors).toHaveLength(1);
  });
});

describe('several containers sharing the counters', () => {
  /** Runs `perContainer` concurrent requests on each limiter, all in one window; returns how many were admitted. */
  async function burst(limiters: RateLimiter[], perContainer: number, limit: number): Promise<number> {
    const decisions = await Promise.all(
      limiters.flatMap((l) =>
        Array.from({ length: perContainer }, async () => {
          const d = await l.admit('mer_a', 'write', limit);
          await d.settled;
          return d.allowed;
        }),
      ),
    );
    return decisions.filter(Boolean).length;
  }

  test.each([
    [2, 20, 30],
    [5, 20, 10],
    [4, 1200, 400],
    [10, 100, 30],
  ])('%i containers, limit %i: never more than limit + one per container in a window, and nearly all of it', async (containers, limit, each) => {
    const clock = testClock();
    const store = memoryCounters({ delayMs: 1 });
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const limiters = Array.from({ length: containers }, () => new RateLimiter({ clock: clock.now, lease: store.lease, random }));
    const admitted = await burst(limiters, each, limit);
    const offered = containers * each;
    expect(store.total(clock.window())).toBeLessThanOrEqual(limit);
    expect(admitted).toBeLessThanOrEqual(limit + containers); // the optimistic first request of each container
    // Leased but unused tokens (< n per container) are the only loss.
    const n = leaseSize(0, each, limit);
    expect(admitted).toBeGreaterThanOrEqual(Math.min(offered, limit - containers * (n - 1)));
    // The next window is bounded the same way (only containers not refused in this one admit a request before leasing).
    clock.set((clock.window() + 1) * 1000);
    expect(await burst(limiters, each, limit)).toBeLessThanOrEqual(limit + containers);
    expect(store.total(clock.window())).toBeLessThanOrEqual(limit);
  });
});
