/**
 * Public pages are not amplifiers: the payer pages (`/pay/{id}/…`) and the sandbox's hosted
 * pages are rate-limited per payment and per client address (a 429 page, before anything runs), and the
 * return route asks the processor at most once per payment per cooldown (`last_synced_at`), answering
 * from what is stored otherwise.
 */
import { SandboxConnector } from '../../shared/connectors/sandbox/sandbox-connector';
import { setPageRateLimiter } from '../../shared/http/page-rate-limit';
import { setRateLimitClock } from '../../shared/http/rate-limit';
import { useFaultHarness } from '../helpers/fault-harness';
import { card, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

const h = useFaultHarness();
const env = scopedEnv();
const OTP_ONLY = '5060990000000000019';
let window = Math.floor(Date.now() / 1000) * 1000;

async function confirmWith(number: string): Promise<TestResponse> {
  const res = await h.api.request('POST', '/payments', {
    body: { amount: 150000, currency: 'NGN', confirm: true, payment_method_data: card(number) },
  });
  expect(res.status).toBe(200);
  return res;
}
const visit = (path: string) => fetch(`${h.api.url}${path}`, { redirect: 'manual' });

beforeEach(() => {
  // Every test in a window of its own (the limiter's fixed 1-second windows), with a fresh container limiter.
  window += 10_000;
  const now = window + 100;
  setRateLimitClock(() => now);
  setPageRateLimiter(undefined);
});
afterEach(() => {
  setRateLimitClock(undefined);
  setPageRateLimiter(undefined);
  env.restore();
  jest.restoreAllMocks();
});

describe('rate limits of the public pages', () => {
  test('per payment: over the limit the step page is a 429 page with Retry-After; another payment is still served', async () => {
    env.set({ PAGE_RATE_LIMIT_PER_PAYMENT: '3' });
    const p = (await confirmWith(OTP_ONLY)).body;
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await visit(`/pay/${p.payment_id}/authenticate`);
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
      else await res.text();
    }
    // At most the limit, plus the one request a container admits before its first lease answers.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(6);
    expect(refused!.headers.get('retry-after')).toBe('1');
    expect(refused!.headers.get('cache-control')).toBe('no-store');
    expect(refused!.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await refused!.text()).toContain('Too many requests');
    const other = (await confirmWith(OTP_ONLY)).body;
    expect((await visit(`/pay/${other.payment_id}/authenticate`)).status).toBe(200);
    // The step form too: a refused POST sends nothing to the processor.
    const sync = jest.spyOn(SandboxConnector.prototype, 'authenticate');
    const post = await fetch(`${h.api.url}/pay/${p.payment_id}/authenticate`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'otp=918271',
    });
    expect(post.status).toBe(429);
    expect(sync).not.toHaveBeenCalled();
  });

  test('per client address: many payments from one address are refused past its limit, sandbox pages included', async () => {
    env.set({ PAGE_RATE_LIMIT_PER_CLIENT: '3', PAGE_RATE_LIMIT_PER_PAYMENT: '100' });
    const payments = [];
    for (let i = 0; i < 4; i++) payments.push((await confirmWith(OTP_ONLY)).body);
    const statuses: number[] = [];
    for (const p of payments) {
      for (const path of [`/pay/${p.payment_id}/authenticate`, `/sandbox/3ds/${p.payment_id}`]) {
        const res = await visit(path);
        await res.text();
        statuses.push(res.status);
      }
    }
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
  });

  test('fails open: when the counters cannot be reached the pages are still served', async () => {
    env.set({ PAGE_RATE_LIMIT_PER_PAYMENT: '1' });
    const p = (await confirmWith(OTP_ONLY)).body;
    h.failStorage({ command: 'UpdateItem', pk: 'RATELIMIT#page', nth: 1, times: 100, mode: 'outage' });
    try {
      for (let i = 0; i < 3; i++) expect((await visit(`/pay/${p.payment_id}/authenticate`)).status).toBe(200);
    } finally {
      h.failStorage(undefined);
    }
  });

  test('the next window serves again', async () => {
    env.set({ PAGE_RATE_LIMIT_PER_PAYMENT: '1' });
    const p = (await confirmWith(OTP_ONLY)).body;
    for (let i = 0; i < 4; i++) await (await visit(`/pay/${p.payment_id}/authenticate`)).text();
    expect((await visit(`/pay/${p.payment_id}/authenticate`)).status).toBe(429);
    const later = window + 1_100;
    setRateLimitClock(() => later);
    expect((await visit(`/pay/${p.payment_id}/authenticate`)).status).toBe(200);
  });
});

describe('the return route asks the processor at most once per cooldown', () => {
  test('reloads and parallel visits make one processor lookup; the answer comes from what is stored', async () => {
    const sync = jest.spyOn(SandboxConnector.prototype, 'sync');
    const p = (await confirmWith(OTP_ONLY)).body;
    const first = await visit(`/pay/${p.payment_id}/return`);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(p.next_action.redirect_to_url);
    expect(sync).toHaveBeenCalledTimes(1);
    const again = await Promise.all(Array.from({ length: 8 }, () => visit(`/pay/${p.payment_id}/return`)));
    for (const res of again) {
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(p.next_action.redirect_to_url);
    }
    expect(sync).toHaveBeenCalledTimes(1);
    // Parallel first visits of another payment: one of them gets the turn.
    const q = (await confirmWith(OTP_ONLY)).body;
    await Promise.all(Array.from({ length: 8 }, () => visit(`/pay/${q.payment_id}/return`)));
    expect(sync).toHaveBeenCalledTimes(2);
    // The marker is no change of the payment: its version and updated_at stay.
    const stored = await h.api.request('GET', `/payments/${q.payment_id}`);
    expect(stored.body.updated_at).toBe(q.updated_at);
  });

  test('after the cooldown the next visit asks again; a closed payment is never asked about', async () => {
    // A minute: the two back-to-back visits fall inside it however loaded the machine is. The setting is read on every
    // call, so the cooldown is then shortened to 100 ms and waited out: more time passing only makes it more over.
    env.set({ PAYER_RETURN_SYNC_COOLDOWN_MS: '60000' });
    const sync = jest.spyOn(SandboxConnector.prototype, 'sync');
    const p = (await confirmWith(OTP_ONLY)).body;
    await visit(`/pay/${p.payment_id}/return`);
    await visit(`/pay/${p.payment_id}/return`);
    expect(sync).toHaveBeenCalledTimes(1);
    env.set({ PAYER_RETURN_SYNC_COOLDOWN_MS: '100' });
    await new Promise((r) => setTimeout(r, 150));
    await visit(`/pay/${p.payment_id}/return`);
    expect(sync).toHaveBeenCalledTimes(2);
    const done = (await confirmWith('4242424242424242')).body;
    expect(done.status).toBe('Succeeded');
    const res = await visit(`/pay/${done.payment_id}/return`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Payment complete');
    expect(sync).toHaveBeenCalledTimes(2);
  });
});
