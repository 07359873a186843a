/**
 * `max_payments` under concurrency, against DynamoDB Local: payers racing for a link's places (the conditional write
 * in each payment's create transaction) and failed payments giving places back (once each), in every order fast-check
 * schedules. The link never holds more payments than `max_payments`, `payments_count` equals the payments that hold a
 * place, and a refused payer leaves no payment behind.
 */
import fc from 'fast-check';
import { createPayment } from '../../shared/operations/payments/create-payment';
import type { RequestContext } from '../../shared/operations/request-context';
import { linkPlaceReservation, releaseLinkPlace } from '../../shared/storage/payment-links-repository';
import { ConditionFailedError } from '../../shared/storage/storage-errors';
import { type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
let ctx: RequestContext;
beforeAll(async () => {
  api = await startLocalApi();
  ctx = { merchantId: api.merchantId, publicBaseUrl: api.url };
});
afterAll(async () => {
  await api.close();
});

async function newLink(body: Record<string, unknown>) {
  const res = await api.request('POST', '/payment_links', { body: { amount: 5000, currency: 'NGN', ...body } });
  expect(res.status).toBe(200);
  return res.body as { payment_link_id: string };
}

/** One payer's create on the link: the payment id, or null when its place was refused. */
async function payOnLink(linkId: string, nowIso: string): Promise<string | null> {
  try {
    const payment = await createPayment(
      ctx,
      { amount: 5000, currency: 'NGN', confirm: false, capture_method: 'automatic' },
      { paymentLinkId: linkId, placeReservation: linkPlaceReservation(ctx.merchantId, linkId, nowIso) },
    );
    return payment.payment_id;
  } catch (err) {
    if (err instanceof ConditionFailedError) return null;
    throw err;
  }
}

async function linkPayments(linkId: string): Promise<string[]> {
  const res = await api.request('GET', `/payments?payment_link_id=${linkId}&limit=100`);
  expect(res.status).toBe(200);
  return (res.body.data as { payment_id: string; payment_link_id: string }[]).map((p) => {
    expect(p.payment_link_id).toBe(linkId);
    return p.payment_id;
  });
}

test('racing payers and give-backs never put more payments on a link than max_payments', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 1, max: 6 }),
      fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }),
      fc.scheduler(),
      async (maxPayments, payers, releaseSeeds, s) => {
        const link = await newLink({ max_payments: maxPayments });
        const now = new Date().toISOString();
        const taken: string[] = [];
        const released = new Set<string>();
        // Payers, and give-backs of places already taken (a payment failed on the page, reloaded: twice), interleaved.
        const tasks: Promise<unknown>[] = [];
        for (let i = 0; i < payers; i += 1) {
          tasks.push(
            s.schedule(Promise.resolve(`pay ${i}`)).then(async () => {
              const id = await payOnLink(link.payment_link_id, now);
              if (id) taken.push(id);
            }),
          );
        }
        for (const seed of releaseSeeds) {
          tasks.push(
            s.schedule(Promise.resolve(`release ${seed}`)).then(async () => {
              const id = taken[seed % Math.max(1, taken.length)];
              if (!id) return;
              const first = await releaseLinkPlace(ctx.merchantId, link.payment_link_id, id);
              const second = await releaseLinkPlace(ctx.merchantId, link.payment_link_id, id);
              expect(second).toBe(false);
              if (first) released.add(id);
              else expect(released.has(id)).toBe(true);
            }),
          );
        }
        await s.waitAll();
        await Promise.all(tasks);
        const stored = (await api.request('GET', `/payment_links/${link.payment_link_id}`)).body;
        const holding = taken.length - released.size;
        expect(holding).toBeLessThanOrEqual(maxPayments);
        expect(stored.payments_count).toBe(holding);
        expect(stored.status).toBe(holding >= maxPayments ? 'completed' : 'active');
        // Every payment created holds (or held) a place; a refused payer created none.
        expect((await linkPayments(link.payment_link_id)).sort()).toEqual([...taken].sort());
        expect(taken.length).toBeLessThanOrEqual(maxPayments + released.size);
        if (releaseSeeds.length === 0) expect(taken.length).toBe(Math.min(payers, maxPayments));
      },
    ),
    { numRuns: 8 },
  );
}, 240_000);

test('an expired or deactivated link refuses the place and creates no payment (expiry judged at the given time)', async () => {
  const expires = new Date(Date.now() + 3_600_000).toISOString();
  const link = await newLink({ expires_at: expires });
  const justBefore = new Date(Date.parse(expires) - 1).toISOString();
  expect(await payOnLink(link.payment_link_id, expires)).toBeNull();
  expect(await linkPayments(link.payment_link_id)).toEqual([]);
  const paid = await payOnLink(link.payment_link_id, justBefore);
  expect(paid).toMatch(/^pay_/);

  const off = await newLink({});
  expect((await api.request('POST', `/payment_links/${off.payment_link_id}/deactivate`)).status).toBe(200);
  expect(await payOnLink(off.payment_link_id, new Date().toISOString())).toBeNull();
  expect(await linkPayments(off.payment_link_id)).toEqual([]);
  expect((await api.request('GET', `/payment_links/${off.payment_link_id}`)).body.payments_count).toBe(0);
});
