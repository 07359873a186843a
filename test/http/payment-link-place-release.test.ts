/**
 * A reusable link's place under `max_payments` given back when its payment ends `Failed` after the checkout post, by a
 * path other than the payer's return to the completion route (the payments' settled-payment step registered by
 * shared/operations/payment-links/link-place-hook.ts), over HTTP as a browser without JavaScript pays, against
 * DynamoDB Local (the file's own table: the reconciler reads every open item of it) and the Paystack
 * stand-in (a ledger per account, the truth our table is compared with):
 * - the payer leaves on the processor's page and the charge fails there; the reconciler settles it `Failed` → the
 *   link is payable again and the next payer pays; the first payer's later return gives nothing back a second time;
 * - a USSD payment the processor's signed webhook later reports failed (the sandbox's `payment.failed`);
 * - the payer's PIN is refused at the processor on our hosted step page → `Failed`, the place given back at once;
 * - a charge that succeeds later keeps its place;
 * - processors' events (each delivered twice) and payers' returns in every order fast-check draws: each failed
 *   payment gives its place back once, `payments_count` always the payments that hold one.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../shared/connectors/sandbox/sandbox-webhooks';
import { createPayment } from '../../shared/operations/payments/create-payment';
import { reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { baseClient } from '../../shared/storage/client';
import { linkPlaceReservation } from '../../shared/storage/payment-links-repository';
import { Browser, cardForm, checkoutHidden, stepFormCsrf } from '../helpers/checkout-browser';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { paystackMerchant } from '../helpers/paystack-merchant';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackStandIn;
/** While true, the transaction that gives a link's place back fails as an unreachable table does (`ECONNREFUSED`). */
let releaseOutage = false;

beforeAll(async () => {
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const items = (args.input as { TransactItems?: { Put?: { Item?: { SK?: unknown } } }[] }).TransactItems ?? [];
      if (
        releaseOutage &&
        context.commandName === 'TransactWriteItemsCommand' &&
        items.some((i) => String(i.Put?.Item?.SK).startsWith('RELEASE#'))
      )
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
      return next(args);
    },
    { step: 'initialize', name: 'linkPlaceReleaseOutage' },
  );
  paystack = await startPaystackStandIn();
  // The sandbox delivers no webhook of its own here: the test sends the processor's event itself.
  env.set({ PAYSTACK_BASE_URL: paystack.url, CONNECTOR_CONFIG_CACHE_MS: '0', SANDBOX_WEBHOOKS: 'off' });
  api = await startLocalApi();
});
afterEach(() => {
  releaseOutage = false;
  jest.restoreAllMocks();
});
afterAll(async () => {
  await api?.close();
  await paystack?.close();
  env.restore();
});

/** A merchant whose one account is a fresh Paystack stand-in account: its API key and its key there. */
function merchant() {
  return paystackMerchant(api, paystack);
}

/** A reusable NGN card link taking one payment at most. */
async function newLink(key: string) {
  const res = await api.request('POST', '/payment_links', {
    key,
    body: { amount: 250000, currency: 'NGN', payment_methods: ['card'], customer_fields: ['email'], max_payments: 1 },
  });
  expect(res.status).toBe(200);
  return res.body as { payment_link_id: string; url: string };
}

async function linkState(key: string, linkId: string) {
  return (await api.request('GET', `/payment_links/${linkId}`, { key })).body as { status: string; payments_count: number };
}

async function payment(key: string, paymentId: string) {
  return (await api.request('GET', `/payments/${paymentId}`, { key })).body as { status: string; payment_link_id: string };
}

/** One payer: draws the page and posts the card form; the post's answer and the payment it made. */
async function pay(key: string, url: string, number: string) {
  const browser = new Browser();
  const page = await browser.get(url);
  expect(page.status).toBe(200);
  const form = { ...checkoutHidden(await page.text()), payment_method: 'card', email: 'ada@example.com', ...cardForm(number) };
  const res = await browser.post(url, form);
  expect(res.status).toBe(303);
  const location = res.headers.get('location') as string;
  const paymentId = /pay_[0-9a-z]+/.exec(location)?.[0] ?? (await lastPaymentOf(key, url));
  return { browser, location, paymentId };
}

/** The newest payment of the link a checkout URL names (a processor's page URL need not carry our payment id). */
async function lastPaymentOf(key: string, url: string): Promise<string> {
  const linkId = /plink_[0-9a-z]+/.exec(url)?.[0] as string;
  const res = await api.request('GET', `/payments?payment_link_id=${linkId}&limit=1`, { key });
  return (res.body.data as { payment_id: string }[])[0]?.payment_id as string;
}

/** One reconciler pass as if two hours had passed (past every claim's lease and open payment's next check). */
async function reconcileLater(): Promise<void> {
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 2 * 60 * 60 * 1000);
  try {
    await reconcileOpenOperations({ deadlineMs: now + 2 * 60 * 60 * 1000 + 60_000 });
  } finally {
    clock.mockRestore();
  }
}

test('a charge that fails at the processor after the post, settled by the reconciler, gives its place back once; the next payer pays', async () => {
  const m = await merchant();
  const link = await newLink(m.key);
  // The payer is sent to the bank's page (3-D Secure at the processor) and never comes back.
  const first = await pay(m.key, link.url, PAYSTACK_TEST_CARDS.bankAuthorization.number);
  expect(await payment(m.key, first.paymentId)).toMatchObject({ status: 'RequiresAction', payment_link_id: link.payment_link_id });
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });

  paystack.completeOffline(paystackReference(first.paymentId), 'failed', m.secret);
  await reconcileLater();
  expect(await payment(m.key, first.paymentId)).toMatchObject({ status: 'Failed' });
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 0 });

  // The next payer takes the place and pays.
  const second = await pay(m.key, link.url, PAYSTACK_TEST_CARDS.noValidation.number);
  expect(second.location).toContain('/complete?payment_id=');
  expect(await payment(m.key, second.paymentId)).toMatchObject({ status: 'Succeeded' });
  expect(paystack.entryOf(m.secret, paystackReference(second.paymentId))).toMatchObject({ status: 'success', amount: 250000 });
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });

  // The first payer comes back after all, and the reconciler runs again: nothing is given back a second time.
  const back = await first.browser.get(`${link.url}/complete?payment_id=${first.paymentId}`);
  expect(back.status).toBe(200);
  await reconcileLater();
  expect(await api.request('GET', `/payments/${first.paymentId}?force_sync=true`, { key: m.key })).toMatchObject({ status: 200 });
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
});

test('a USSD payment a processor webhook reports failed gives its place back (its redelivery answered 200)', async () => {
  // The local API's own merchant: no connector account, so the built-in sandbox takes its payments.
  const link = await newLink(api.apiKey);
  const made = await createPayment(
    { merchantId: api.merchantId, publicBaseUrl: api.url },
    { amount: 250000, currency: 'NGN', payment_method: 'ussd', confirm: true, capture_method: 'automatic' },
    {
      paymentLinkId: link.payment_link_id,
      placeReservation: linkPlaceReservation(api.merchantId, link.payment_link_id, new Date().toISOString()),
    },
  );
  expect(made).toMatchObject({ connector: 'sandbox', payment_link_id: link.payment_link_id });
  expect(['Processing', 'RequiresAction']).toContain(made.status);
  expect(await linkState(api.apiKey, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
  const rawBody = JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    type: 'payment.failed',
    data: {
      payment_id: made.payment_id,
      transaction_id: made.connector_transaction_id,
      amount: 250000,
      capture_method: 'automatic',
      error_message: 'The payer did not approve.',
    },
  });
  const headers = { [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody), 'content-type': 'application/json' };
  for (let i = 0; i < 2; i += 1) {
    const res = await api.request('POST', '/webhooks/sandbox', { key: null, raw: rawBody, headers });
    expect(res.status).toBe(200);
  }
  expect(await payment(api.apiKey, made.payment_id)).toMatchObject({ status: 'Failed' });
  expect(await linkState(api.apiKey, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 0 });
});

/** A sandbox USSD payment made on the link's page, waiting for the payer's phone (its place taken). */
async function ussdPayment(paymentLinkId: string) {
  return createPayment(
    { merchantId: api.merchantId, publicBaseUrl: api.url },
    { amount: 250000, currency: 'NGN', payment_method: 'ussd', confirm: true, capture_method: 'automatic' },
    { paymentLinkId, placeReservation: linkPlaceReservation(api.merchantId, paymentLinkId, new Date().toISOString()) },
  );
}

/** The sandbox's signed event reporting a payment's outcome, as it delivers it to `/webhooks/sandbox`. */
async function sandboxEvent(p: { payment_id: string; connector_transaction_id: string | null }, outcome: 'succeeded' | 'failed') {
  const raw = JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    type: `payment.${outcome}`,
    data: { payment_id: p.payment_id, transaction_id: p.connector_transaction_id, amount: 250000, capture_method: 'automatic' },
  });
  return { raw, headers: { [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(raw), 'content-type': 'application/json' } };
}

test('events and payers’ returns in any order: each failed payment gives its place back once; the count is the payments holding one', async () => {
  type Step = { kind: 'deliver' | 'redeliver' | 'return'; payment: number };
  const plan = fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }).chain((fails) => {
    const steps: Step[] = fails.flatMap((_, payment) => (['deliver', 'redeliver', 'return'] as const).map((kind) => ({ kind, payment })));
    return fc.tuple(fc.constant(fails), fc.shuffledSubarray(steps, { minLength: steps.length, maxLength: steps.length }));
  });
  await fc.assert(
    fc.asyncProperty(plan, async ([fails, order]) => {
      const res = await api.request('POST', '/payment_links', { body: { amount: 250000, currency: 'NGN', max_payments: fails.length } });
      const linkId = res.body.payment_link_id as string;
      const payments = [];
      for (const _ of fails) payments.push(await ussdPayment(linkId));
      const events = await Promise.all(payments.map((p, i) => sandboxEvent(p, fails[i] ? 'failed' : 'succeeded')));
      for (const step of order) {
        const p = payments[step.payment]!;
        const event = events[step.payment]!;
        if (step.kind === 'return') {
          // A return before the event sees the payment waiting and gives nothing back; the event's step does.
          const back = await fetch(`${api.url}/checkout/${linkId}/complete?payment_id=${p.payment_id}`, { redirect: 'manual' });
          expect(back.status).toBeLessThan(400);
        } else {
          expect((await api.request('POST', '/webhooks/sandbox', { key: null, raw: event.raw, headers: event.headers })).status).toBe(200);
        }
      }
      for (const [i, p] of payments.entries())
        expect((await payment(api.apiKey, p.payment_id)).status).toBe(fails[i] ? 'Failed' : 'Succeeded');
      const holding = fails.filter((f) => !f).length;
      expect(await linkState(api.apiKey, linkId)).toMatchObject({
        payments_count: holding,
        status: holding >= fails.length ? 'completed' : 'active',
      });
    }),
    { numRuns: 10 },
  );
}, 240_000);

test('a PIN the processor refuses on the hosted step page fails the payment and gives its place back at once', async () => {
  const m = await merchant();
  const link = await newLink(m.key);
  const card = PAYSTACK_TEST_CARDS.tokenNotGenerated;
  const payer = await pay(m.key, link.url, card.number);
  expect(payer.location).toContain(`/pay/${payer.paymentId}/authenticate`);
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });

  const csrf = await stepFormCsrf(payer.paymentId);
  const submitted = await fetch(payer.location, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
    body: new URLSearchParams({ pin: card.pin, csrf_token: csrf.csrf_token }).toString(),
  });
  expect(submitted.status).toBeLessThan(500);
  expect(await payment(m.key, payer.paymentId)).toMatchObject({ status: 'Failed' });
  expect(paystack.entryOf(m.secret, paystackReference(payer.paymentId))).toMatchObject({ status: 'failed' });
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 0 });
});

test('storage failing on the give-back: the payment still fails on the step page (no 5xx), the place stays taken until the payer returns', async () => {
  const m = await merchant();
  const link = await newLink(m.key);
  const card = PAYSTACK_TEST_CARDS.tokenNotGenerated;
  const payer = await pay(m.key, link.url, card.number);
  const csrf = await stepFormCsrf(payer.paymentId);
  releaseOutage = true;
  const submitted = await fetch(payer.location, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
    body: new URLSearchParams({ pin: card.pin, csrf_token: csrf.csrf_token }).toString(),
  });
  releaseOutage = false;
  expect(submitted.status).toBeLessThan(500);
  expect(await payment(m.key, payer.paymentId)).toMatchObject({ status: 'Failed' });
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
  // The payer's return gives it back (once).
  expect((await payer.browser.get(`${link.url}/complete?payment_id=${payer.paymentId}`)).status).toBe(200);
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 0 });
});

test('a charge that succeeds at the processor after the post keeps its place', async () => {
  const m = await merchant();
  const link = await newLink(m.key);
  const first = await pay(m.key, link.url, PAYSTACK_TEST_CARDS.bankAuthorization.number);
  paystack.completeOffline(paystackReference(first.paymentId), 'success', m.secret);
  await reconcileLater();
  expect(await payment(m.key, first.paymentId)).toMatchObject({ status: 'Succeeded' });
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
  const back = await first.browser.get(`${link.url}/complete?payment_id=${first.paymentId}`);
  expect(back.status).toBe(200);
  expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
});
