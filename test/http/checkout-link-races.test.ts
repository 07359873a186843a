/**
 * A reusable link's places under every interleaving fast-check schedules of two or three payers' form posts (each
 * drawn while the link was open), the merchant's deactivate and the link's expiry (a controllable clock: `Date.now`
 * moved past `expires_at`), with the processor declining, failing technically before doing the work (the account's
 * circuit then opens: the next payer meets "no processor could be called") or after doing it (outcome unknown),
 * through the local API against DynamoDB Local and the Paystack stand-in, whose ledger is the truth:
 * - `payments_count` equals the link's payments that may hold money (not `Failed`), never above `max_payments`:
 *   a known failure gave its place back in its own post, an unknown outcome kept it;
 * - every post answered with the form again (402, 503) or 410 created nothing more, and each payment came from one post;
 * - a `Failed` payment has no charge at the processor; a payment whose charge the processor holds is never `Failed`;
 * - a post started after the deactivate answered, or after the expiry, is 410 and creates nothing;
 * - the merchant rolling its key at Paystack (the processor then refuses: 401) mid-way: the refused payment is
 *   `Failed` and gives its place back in its own post, whose page says nothing was charged.
 * And a payment's single-use link: one or two posts, each read of the payment a scheduling point, and the expiry right
 * after a drawn read (so a post's read and its confirm's claim fall on either side of it): no claim sent after
 * `expires_at` is applied, at most one is, and the payment is charged at the processor exactly when one was.
 */
import fc from 'fast-check';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { baseClient } from '../../shared/storage/client';
import { Browser, cardForm, checkoutHidden } from '../helpers/checkout-browser';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { paystackMerchant } from '../helpers/paystack-merchant';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackStandIn;
const NOW = Date.now.bind(Date);

/**
 * While a single-use link's property runs: every read of its payment's item waits for the scheduler (so a post's
 * read and its confirm's claim can fall on either side of the expiry), and every claim written on it (an Update that
 * sets `pending_operation`) is recorded with whether the link had expired when it was sent and whether it was applied.
 */
let watched: { paymentId: string; gate: (label: string) => Promise<unknown>; expired: () => boolean } | undefined;
const claims: { whileExpired: boolean; applied: boolean }[] = [];

beforeAll(async () => {
  paystack = await startPaystackStandIn();
  env.set({ PAYSTACK_BASE_URL: paystack.url, CONNECTOR_CONFIG_CACHE_MS: '0', CIRCUIT_FAILURE_THRESHOLD: '1' });
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const w = watched;
      if (!w) return next(args);
      const input = args.input as {
        Key?: { PK?: string };
        TransactItems?: { Update?: { Key?: { PK?: string }; UpdateExpression?: string } }[];
      };
      const mine = (pk: string | undefined) => pk?.endsWith(`#PAYMENT#${w.paymentId}`) === true;
      const claim = (input.TransactItems ?? []).some(
        (i) => mine(i.Update?.Key?.PK) && /SET .*#pending = :pending/.test(i.Update?.UpdateExpression ?? ''),
      );
      if (context.commandName === 'GetItemCommand' && mine(input.Key?.PK)) await w.gate('payment read');
      if (!claim) return next(args);
      const whileExpired = w.expired();
      try {
        const out = await next(args);
        claims.push({ whileExpired, applied: true });
        return out;
      } catch (err) {
        claims.push({ whileExpired, applied: false });
        throw err;
      }
    },
    { step: 'initialize', name: 'singleUseLinkWatch' },
  );
  api = await startLocalApi();
});
afterEach(() => {
  jest.restoreAllMocks();
});
afterAll(async () => {
  await api?.close();
  await paystack?.close();
  env.restore();
});

type Fault = 'none' | 'error_500_before_work' | 'error_500_after_work';

test('payers, a deactivate and the expiry in any order: places held only by payments that may hold money', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 2 }),
      fc.array(fc.boolean(), { minLength: 2, maxLength: 3 }),
      fc.constantFrom<Fault>('none', 'error_500_before_work', 'error_500_after_work'),
      // The link closing (deactivated, expired) is drawn less often, so most runs let the payers reach the processor.
      fc.constantFrom(false, false, true),
      fc.constantFrom(false, false, true),
      fc.boolean(),
      fc.scheduler(),
      async (maxPayments, declines, fault, deactivate, expire, rollKey, s) => {
        jest.restoreAllMocks();
        // A fresh merchant and Paystack account each run: its circuit is its own.
        const { key, secret } = await paystackMerchant(api, paystack);
        const expiresAt = new Date(NOW() + 3_600_000).toISOString();
        const created = await api.request('POST', '/payment_links', {
          key,
          body: {
            amount: 9000,
            currency: 'NGN',
            payment_methods: ['card'],
            customer_fields: ['email'],
            max_payments: maxPayments,
            expires_at: expiresAt,
          },
        });
        expect(created.status).toBe(200);
        const link = created.body as { payment_link_id: string; url: string };
        if (fault !== 'none') paystack.failNext({ method: 'POST', path: '/charge', secretKey: secret }, fault);
        // Every payer draws the form while the link is open.
        const payers = await Promise.all(
          declines.map(async (declined) => {
            const browser = new Browser();
            const html = await (await browser.get(link.url)).text();
            const number = declined ? PAYSTACK_TEST_CARDS.declined.number : PAYSTACK_TEST_CARDS.noValidation.number;
            return { browser, form: { ...checkoutHidden(html), payment_method: 'card', email: 'ada@example.com', ...cardForm(number) } };
          }),
        );
        let closed = false;
        /** The account's ledger as it was when its key was rolled (the stand-in forgets it then; nothing is added after). */
        let rolledLedger: ReturnType<PaystackStandIn['ledgerOf']> | undefined;
        const answers: { status: number; html: string; afterClose: boolean }[] = [];
        const tasks: Promise<unknown>[] = payers.map((p, i) =>
          s.schedule(Promise.resolve(`payer ${i}`)).then(async () => {
            const afterClose = closed;
            const res = await p.browser.post(link.url, p.form);
            answers.push({ status: res.status, html: await res.text(), afterClose });
          }),
        );
        if (deactivate) {
          tasks.push(
            s.schedule(Promise.resolve('deactivate')).then(async () => {
              const res = await api.request('POST', `/payment_links/${link.payment_link_id}/deactivate`, { key });
              expect(res.status).toBe(200);
              closed = true;
            }),
          );
        }
        if (rollKey) {
          // The merchant rolls its key at Paystack: from then on the processor refuses the charge (401, nothing done).
          tasks.push(
            s.schedule(Promise.resolve('roll key')).then(() => {
              rolledLedger = paystack.ledgerOf(secret);
              paystack.removeAccount(secret);
            }),
          );
        }
        if (expire) {
          tasks.push(
            s.schedule(Promise.resolve('expiry')).then(() => {
              jest.spyOn(Date, 'now').mockImplementation(() => Math.max(NOW(), Date.parse(expiresAt)));
              closed = true;
            }),
          );
        }
        await s.waitAll();
        await Promise.all(tasks);
        jest.restoreAllMocks();

        const listed = await api.request('GET', `/payments?payment_link_id=${link.payment_link_id}`, { key });
        const payments = listed.body.data as { payment_id: string; status: string }[];
        const stored = (await api.request('GET', `/payment_links/${link.payment_link_id}`, { key })).body;
        const holding = payments.filter((p) => p.status !== 'Failed');
        expect(stored.payments_count).toBe(holding.length);
        expect(stored.payments_count).toBeLessThanOrEqual(maxPayments);
        // Each payment came from one post that answered it (303 on, or 402 the form again after a decline).
        // (502: the processor refused it, the payment Failed, the form again.)
        expect(answers.filter((a) => [303, 402, 502].includes(a.status))).toHaveLength(payments.length);
        for (const a of answers) {
          expect([303, 402, 410, 502, 503]).toContain(a.status);
          if (a.afterClose) expect(a.status).toBe(410);
          if (a.status === 502 || a.status === 503) expect(a.html).toContain('nothing was charged');
          if (a.status === 502 || a.status === 503) expect(a.html).toContain('name="attempt"');
        }
        const ledger = rolledLedger ?? paystack.ledgerOf(secret);
        for (const p of payments) {
          expect(['Succeeded', 'Processing', 'Failed']).toContain(p.status);
          const charge = ledger[paystackReference(p.payment_id)];
          if (p.status === 'Failed') expect(charge?.status).not.toBe('success');
          if (charge?.status === 'success') expect(p.status).not.toBe('Failed');
          if (p.status === 'Succeeded') expect(charge?.status).toBe('success');
        }
      },
    ),
    { numRuns: 25 },
  );
}, 240_000);

test("a single-use link's posts and its expiry in any order, reads and claims interleaved: no claim after expires_at, one charge at most", async () => {
  await fc.assert(
    // The expiry falls right after the n-th read of the payment (0: before any post; past the last read: never).
    fc.asyncProperty(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 0, max: 6 }), fc.scheduler(), async (posts, expireAtRead, s) => {
      jest.restoreAllMocks();
      claims.length = 0;
      const { key, secret } = await paystackMerchant(api, paystack);
      const created = await api.request('POST', '/payments', {
        key,
        body: { amount: 7000, currency: 'NGN', email: 'ada@example.com', payment_link: true, session_expiry: 600 },
      });
      expect(created.status).toBe(200);
      const p = created.body as { payment_id: string; payment_link: { link: string; expires_at: string } };
      const forms = await Promise.all(
        Array.from({ length: posts }, async () => {
          const browser = new Browser();
          const html = await (await browser.get(p.payment_link.link)).text();
          return { browser, form: { ...checkoutHidden(html), ...cardForm(PAYSTACK_TEST_CARDS.noValidation.number) } };
        }),
      );
      let expired = false;
      let reads = 0;
      const expireNow = () => {
        jest.spyOn(Date, 'now').mockImplementation(() => Math.max(NOW(), Date.parse(p.payment_link.expires_at)));
        expired = true;
      };
      if (expireAtRead === 0) expireNow();
      watched = {
        paymentId: p.payment_id,
        gate: (label) => {
          reads += 1;
          if (reads === expireAtRead) expireNow();
          return s.schedule(Promise.resolve(`${label} ${reads}`));
        },
        expired: () => expired,
      };
      const answers: { status: number; afterExpiry: boolean }[] = [];
      const tasks: Promise<unknown>[] = forms.map((f, i) =>
        s.schedule(Promise.resolve(`post ${i}`)).then(async () => {
          const afterExpiry = expired;
          const res = await f.browser.post(p.payment_link.link, f.form);
          answers.push({ status: res.status, afterExpiry });
        }),
      );
      try {
        // Reads are scheduled as the posts reach them (after network and storage I/O): wait for as many as the posts need.
        await s.waitFor(Promise.all(tasks));
      } finally {
        watched = undefined;
        jest.restoreAllMocks();
      }
      const payment = (await api.request('GET', `/payments/${p.payment_id}`, { key })).body;
      const charge = paystack.entryOf(secret, paystackReference(p.payment_id));
      // No claim sent after the expiry was applied; at most one claim was.
      expect(claims.filter((c) => c.applied && c.whileExpired)).toEqual([]);
      expect(claims.filter((c) => c.applied).length).toBeLessThanOrEqual(1);
      expect(payment.attempts.length).toBeLessThanOrEqual(1);
      // 202: the payment is being confirmed (another post's claim, whose outcome this post could not learn: the clock's
      // jump past expires_at also ends that post's time budget, so the processor call or its sync may not be made).
      for (const a of answers) {
        expect([202, 303, 410]).toContain(a.status);
        if (a.afterExpiry) expect(a.status).toBe(410);
      }
      if (claims.some((c) => c.applied)) {
        expect(['Succeeded', 'Processing']).toContain(payment.status);
        if (payment.status === 'Succeeded') expect(charge).toMatchObject({ status: 'success', amount: 7000 });
      } else {
        expect(answers.map((a) => a.status)).not.toContain(202);
        expect(payment).toMatchObject({ status: 'RequiresConfirmation', attempts: [] });
        expect(charge).toBeUndefined();
      }
    }),
    { numRuns: 25 },
  );
}, 240_000);
