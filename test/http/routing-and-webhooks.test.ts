import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../shared/connectors/sandbox/sandbox-webhooks';
import { sandboxPageCsrf, sandboxPageDecision } from '../helpers/checkout-browser';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

process.env.SANDBOX_WEBHOOK_DELAY_MS = '50';

const stripeFixture = (name: string) =>
  JSON.parse(readFileSync(join(process.cwd(), 'test/connectors/fixtures/stripe', `${name}.json`), 'utf8'));

/** A stand-in for Stripe on loopback: answers POST /v1/payment_intents with whatever the test sets. */
let stripe: Server;
let stripeUrl = '';
let stripeAnswer: { status: number; body: unknown } = { status: 500, body: {} };
/** The answer to POST /v1/payment_methods (step 1 of a Stripe authorize); `stripeAnswer` when null. */
let stripePaymentMethodAnswer: { status: number; body: unknown } | null = null;
let stripeHits = 0;

let api: LocalApi;
beforeAll(async () => {
  stripe = createServer((req, res) => {
    stripeHits += 1;
    req.resume();
    req.on('end', () => {
      const answer = req.url === '/v1/payment_methods' && stripePaymentMethodAnswer ? stripePaymentMethodAnswer : stripeAnswer;
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((ok) => stripe.listen(0, '127.0.0.1', ok));
  stripeUrl = `http://127.0.0.1:${(stripe.address() as { port: number }).port}`;
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
  await new Promise<void>((ok) => stripe.close(() => ok()));
});
afterEach(() => {
  stripePaymentMethodAnswer = null;
  for (const k of ['ROUTING_RULES', 'STRIPE_SECRET_KEY', 'STRIPE_BASE_URL', 'STRIPE_WEBHOOK_SECRET', 'CONNECTOR_TIMEOUT_MS'])
    delete process.env[k];
});

function useStripe(rules: unknown[]): void {
  process.env.ROUTING_RULES = JSON.stringify(rules);
  process.env.STRIPE_SECRET_KEY = 'sk_test_fake_for_local_server';
  process.env.STRIPE_BASE_URL = stripeUrl;
  process.env.STRIPE_WEBHOOK_SECRET = 'whsec_test_local';
  // The Stripe stand-in here always answers at once: no verdict rests on a timeout, so the timeout is generous enough that
  // a worker starved of CPU does not turn a loopback answer into an unknown outcome.
  process.env.CONNECTOR_TIMEOUT_MS = '10000';
}

const usdCardRules = [{ currency: 'USD', payment_method: 'card', connectors: ['stripe', 'sandbox'] }, { connectors: ['sandbox'] }];

/**
 * Polls the payment until it has `status`. The ceiling is generous (and under the jest timeout): the sandbox's webhook is
 * due 50 ms after the create, but on a loaded machine its request and the GETs can take seconds; the verdict is the
 * status reached, not how fast.
 * @throws Error naming the status last seen when the ceiling passes
 */
async function waitForStatus(id: string, status: string, ms = 20_000): Promise<Record<string, any>> {
  const until = Date.now() + ms;
  for (;;) {
    const res = await api.request('GET', `/payments/${id}`);
    if (res.body.status === status) return res.body;
    if (Date.now() > until) throw new Error(`payment ${id} is still ${res.body.status} ${ms} ms later, not ${status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('routing', () => {
  test('a 5xx at the first connector is an unknown outcome: no fallback while the first may hold the charge', async () => {
    useStripe(usdCardRules);
    // The PaymentMethod is created; the PaymentIntent (the call that moves money) answers 503.
    stripePaymentMethodAnswer = { status: 200, body: { id: 'pm_routing_test', object: 'payment_method', type: 'card' } };
    stripeAnswer = { status: 503, body: { error: { type: 'api_error', message: 'unavailable' } } };
    const before = stripeHits;
    const p = await api.request('POST', '/payments', {
      body: { amount: 4200, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(p.status).toBe(200);
    // Stripe may have charged (a 5xx is indeterminate) and its lookup failed too: the payment stays with Stripe.
    expect(p.body).toMatchObject({ status: 'Processing', connector: 'stripe', error_code: 'connector_unreachable' });
    expect(p.body.pending_operation).toMatchObject({ operation: 'authorize', connector: 'stripe', state: 'in_progress' });
    expect(p.body.attempts.map((a: { connector: string; status: string }) => [a.connector, a.status])).toEqual([['stripe', 'Processing']]);
    expect(stripeHits - before).toBe(3); // the PaymentMethod, the PaymentIntent and the lookup by our reference
  });

  test('a 5xx on the Stripe PaymentMethod (no PaymentIntent was requested, nothing can be charged) falls back to the next connector', async () => {
    useStripe(usdCardRules);
    stripeAnswer = { status: 503, body: { error: { type: 'api_error', message: 'unavailable' } } };
    const before = stripeHits;
    const p = await api.request('POST', '/payments', {
      body: { amount: 4300, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(p.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox', pending_operation: null });
    expect(p.body.attempts.map((a: { connector: string; status: string }) => [a.connector, a.status])).toEqual([
      ['stripe', 'Failed'],
      ['sandbox', 'Succeeded'],
    ]);
    expect(stripeHits - before).toBe(1); // the PaymentMethod only
  });

  test('a network failure (nothing listening: the request never left) falls back to the next connector once', async () => {
    useStripe(usdCardRules);
    process.env.STRIPE_BASE_URL = 'http://127.0.0.1:1';
    const p = await api.request('POST', '/payments', { body: { amount: 100, currency: 'USD', payment_method: 'card' } });
    expect(p.body.connector).toBe('stripe');
    const c = await api.request('POST', `/payments/${p.body.payment_id}/confirm`, {
      body: { payment_method_data: card('4242424242424242') },
    });
    expect(c.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox', pending_operation: null });
    expect(c.body.attempts.map((a: { connector: string; status: string }) => [a.connector, a.status])).toEqual([
      ['stripe', 'Failed'],
      ['sandbox', 'Succeeded'],
    ]);
    expect(c.body.attempts[0].error_code).toBe('connector_unreachable');
  });

  test('a business decline is not retried at another connector', async () => {
    useStripe(usdCardRules);
    stripeAnswer = { status: 402, body: stripeFixture('error.card_declined') };
    const before = stripeHits;
    const p = await api.request('POST', '/payments', {
      body: { amount: 15000, currency: 'USD', confirm: true, payment_method_data: card('4000000000009995') },
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ status: 'Failed', connector: 'stripe' });
    expect(p.body.error_code).toEqual(expect.any(String));
    expect(p.body.attempts.map((a: { connector: string }) => a.connector)).toEqual(['stripe']);
    expect(stripeHits - before).toBe(1);
  });

  test('a connector that does not support the pair is skipped (Stripe takes no GHS)', async () => {
    useStripe([{ payment_method: 'card', connectors: ['stripe', 'sandbox'] }]);
    const p = await api.request('POST', '/payments', { body: { amount: 100, currency: 'GHS', payment_method: 'card' } });
    expect(p.body.connector).toBe('sandbox');
    const usd = await api.request('POST', '/payments', { body: { amount: 100, currency: 'USD', payment_method: 'card' } });
    expect(usd.body.connector).toBe('stripe');
  });

  test('no connector for the pair → 400 no_connector_available, nothing created', async () => {
    process.env.ROUTING_RULES = JSON.stringify([{ currency: 'NGN', connectors: ['sandbox'] }]);
    const key = await api.newMerchantKey();
    expectError(
      await api.request('POST', '/payments', { key, body: { amount: 100, currency: 'KES', payment_method: 'mobile_money' } }),
      400,
      'no_connector_available',
    );
    expect((await api.request('GET', '/payments', { key })).body.data).toEqual([]);
  });
});

describe('connector failures on capture', () => {
  test('a capture the processor answers 5xx to is an unknown outcome; the retry reconciles first and finds it captured', async () => {
    useStripe(usdCardRules);
    stripeAnswer = { status: 200, body: stripeFixture('payment_intent.requires_capture') };
    const amount = stripeFixture('payment_intent.requires_capture').amount;
    const p = await api.request('POST', '/payments', {
      body: { amount, currency: 'USD', capture_method: 'manual', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(p.body).toMatchObject({ status: 'RequiresCapture', connector: 'stripe' });
    stripeAnswer = { status: 503, body: { error: { type: 'api_error', message: 'down' } } };
    const failed = await api.request('POST', `/payments/${p.body.payment_id}/capture`);
    expect(expectError(failed, 503, 'outcome_unknown').message).not.toMatch(/nothing was changed/i);
    const pending = await api.request('GET', `/payments/${p.body.payment_id}`);
    expect(pending.body).toMatchObject({
      status: 'RequiresCapture',
      pending_operation: { operation: 'capture', connector: 'stripe', amount, state: 'in_progress' },
    });
    // While the claim's lease runs (Stripe may still be working on the call), a retry is refused, not stored.
    const early = await api.request('POST', `/payments/${p.body.payment_id}/capture`);
    expectError(early, 409, 'payment_unexpected_state');
    expect(early.headers.get('idempotent-replayed')).toBeNull();
    // Stripe did capture after all: once the lease has ended, the retry asks it first and records the capture instead of sending another.
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 180_000);
    stripeAnswer = { status: 200, body: stripeFixture('payment_intent.succeeded') };
    const before = stripeHits;
    const retry = await api.request('POST', `/payments/${p.body.payment_id}/capture`);
    expectError(retry, 409, 'payment_unexpected_state');
    expect(stripeHits - before).toBe(1); // the lookup only
    const after = await api.request('GET', `/payments/${p.body.payment_id}`);
    expect(after.body).toMatchObject({ status: 'Succeeded', amount_captured: amount, pending_operation: null });
    jest.restoreAllMocks();
  });

  test('a capture the processor refuses (4xx) answers 502, releases the claim, and a retry can capture', async () => {
    useStripe(usdCardRules);
    stripeAnswer = { status: 200, body: stripeFixture('payment_intent.requires_capture') };
    const amount = stripeFixture('payment_intent.requires_capture').amount;
    const p = await api.request('POST', '/payments', {
      body: { amount, currency: 'USD', capture_method: 'manual', confirm: true, payment_method_data: card('4242424242424242') },
    });
    stripeAnswer = { status: 400, body: stripeFixture('error.payment_intent_unexpected_state') };
    expectError(await api.request('POST', `/payments/${p.body.payment_id}/capture`), 502);
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body).toMatchObject({
      status: 'RequiresCapture',
      pending_operation: null,
    });
    stripeAnswer = { status: 200, body: stripeFixture('payment_intent.succeeded') };
    const captured = await api.request('POST', `/payments/${p.body.payment_id}/capture`);
    expect(captured.status).toBe(200);
    expect(captured.body.status).toBe('Succeeded');
  });
});

describe('refunds settled later by the processor', () => {
  test('a Pending refund keeps the processor id; force_sync settles it, a failure releases the amount', async () => {
    useStripe(usdCardRules);
    const intent = stripeFixture('payment_intent.succeeded');
    stripeAnswer = { status: 200, body: intent };
    const p = await api.request('POST', '/payments', {
      body: { amount: intent.amount, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(p.body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });

    stripeAnswer = { status: 200, body: stripeFixture('refund.pending') };
    const r1 = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 100 } });
    expect(r1.body).toMatchObject({ status: 'Pending', connector: 'stripe' });
    expect(r1.body.connector_refund_id).toEqual(expect.any(String));
    expect((await api.request('GET', `/refunds/${r1.body.refund_id}`)).body.connector_refund_id).toBe(r1.body.connector_refund_id);
    stripeAnswer = { status: 200, body: stripeFixture('refund.succeeded') };
    expect((await api.request('GET', `/refunds/${r1.body.refund_id}?force_sync=true`)).body.status).toBe('Succeeded');

    stripeAnswer = { status: 200, body: stripeFixture('refund.pending') };
    const r2 = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 200 } });
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body.amount_refunded).toBe(300);
    stripeAnswer = { status: 200, body: stripeFixture('refund.failed') };
    expect((await api.request('GET', `/refunds/${r2.body.refund_id}?force_sync=true`)).body.status).toBe('Failed');
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body.amount_refunded).toBe(100);
  });
});

describe('completing payments that need action', () => {
  test('3DS: the redirect_to_url page lets a person approve; the payment becomes Succeeded', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 5000, currency: 'NGN', confirm: true, payment_method_data: card('4000000000003220') },
    });
    expect(p.body.status).toBe('RequiresAction');
    const url: string = p.body.next_action.redirect_to_url;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('value="approve"');
    expect(html).toContain('NGN 50.00');
    const done = await fetch(url, await sandboxPageDecision(url, 'approve'));
    expect(await done.text()).toContain('Succeeded');
    const after = await api.request('GET', `/payments/${p.body.payment_id}`);
    expect(after.body).toMatchObject({ status: 'Succeeded', amount_captured: 5000, next_action: null });
    // The page shows no form any more: its token, as the page would have written it.
    const csrf = await sandboxPageCsrf('3ds', p.body.payment_id);
    const again = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
      body: `decision=decline&csrf_token=${csrf.csrf_token}`,
    });
    expect(again.status).toBe(409);
  });

  test('hosted checkout declined by the person → Failed', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 700, currency: 'ZAR', payment_method: 'card', confirm: true } });
    const url: string = p.body.next_action.redirect_to_url;
    await fetch(url, await sandboxPageDecision(url, 'decline'));
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body).toMatchObject({
      status: 'Failed',
      error_code: 'authentication_failed',
    });
  });

  test.each([
    'mobile_money',
    'bank_transfer',
    'ussd',
  ])('%s becomes Succeeded by the sandbox webhook, without any client call', async (method) => {
    const p = await api.request('POST', '/payments', { body: { amount: 300, currency: 'KES', payment_method: method, confirm: true } });
    expect(['Processing', 'RequiresAction']).toContain(p.body.status);
    const settled = await waitForStatus(p.body.payment_id, 'Succeeded');
    expect(settled.status).toBe('Succeeded');
    expect(settled.attempts.at(-1)).toMatchObject({ connector: 'sandbox', status: 'Succeeded' });
  });
});

describe('POST /webhooks/{connector}', () => {
  async function sandboxEvent(paymentId: string, id: string, type = 'payment.succeeded') {
    const rawBody = JSON.stringify({
      id,
      type,
      data: { payment_id: paymentId, transaction_id: 'sbx_x', amount: 900, capture_method: 'automatic' },
    });
    return { rawBody, signature: await signSandboxWebhook(rawBody) };
  }
  const post = (connector: string, rawBody: string, headers: Record<string, string>) =>
    fetch(`${api.url}/webhooks/${connector}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: rawBody,
    });

  test('a bad or missing signature → 401 and nothing changes', async () => {
    process.env.SANDBOX_WEBHOOKS = 'off';
    try {
      const p = await api.request('POST', '/payments', { body: { amount: 900, currency: 'NGN', payment_method: 'ussd', confirm: true } });
      const { rawBody, signature } = await sandboxEvent(p.body.payment_id, `evt_bad${Date.now()}`);
      const wrong = await post('sandbox', rawBody, { [SANDBOX_SIGNATURE_HEADER]: signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) });
      expect(wrong.status).toBe(401);
      expect(((await wrong.json()) as { error: unknown }).error).toMatchObject({ type: 'authentication_error', code: 'invalid_signature' });
      expect((await post('sandbox', rawBody, {})).status).toBe(401);
      const tampered = await post('sandbox', rawBody.replace('900', '1'), { [SANDBOX_SIGNATURE_HEADER]: signature });
      expect(tampered.status).toBe(401);
      expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body.status).toBe('RequiresAction');
    } finally {
      delete process.env.SANDBOX_WEBHOOKS;
    }
  });

  test('a signed event applies once; its redelivery changes nothing; a terminal payment is never changed', async () => {
    process.env.SANDBOX_WEBHOOKS = 'off';
    try {
      const p = await api.request('POST', '/payments', {
        body: { amount: 900, currency: 'NGN', payment_method: 'bank_transfer', confirm: true },
      });
      const ok = await sandboxEvent(p.body.payment_id, `evt_ok${Date.now()}`);
      const first = await post('sandbox', ok.rawBody, { [SANDBOX_SIGNATURE_HEADER]: ok.signature });
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ received: true, applied: true, status: 'Succeeded' });
      const snapshot = (await api.request('GET', `/payments/${p.body.payment_id}`)).body;
      const again = await post('sandbox', ok.rawBody, { [SANDBOX_SIGNATURE_HEADER]: ok.signature });
      expect(await again.json()).toMatchObject({ applied: false });
      const late = await sandboxEvent(p.body.payment_id, `evt_late${Date.now()}`, 'payment.failed');
      expect(await (await post('sandbox', late.rawBody, { [SANDBOX_SIGNATURE_HEADER]: late.signature })).json()).toMatchObject({
        applied: false,
      });
      expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body).toEqual(snapshot);
    } finally {
      delete process.env.SANDBOX_WEBHOOKS;
    }
  });

  test('a Stripe-signed event completes a Stripe payment that required action', async () => {
    useStripe(usdCardRules);
    const intent = stripeFixture('payment_intent.requires_action.redirect_to_url');
    stripeAnswer = { status: 200, body: intent };
    const p = await api.request('POST', '/payments', {
      body: { amount: intent.amount, currency: 'USD', confirm: true, payment_method_data: card('4000000000003220') },
    });
    expect(p.body).toMatchObject({ status: 'RequiresAction', connector: 'stripe' });
    const event = stripeFixture('event.payment_intent.succeeded');
    event.id = `evt_${Date.now()}`;
    event.data.object.metadata = { ...(event.data.object.metadata ?? {}), payment_id: p.body.payment_id };
    const rawBody = JSON.stringify(event);
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', 'whsec_test_local').update(`${t}.${rawBody}`).digest('hex');
    const bad = await post('stripe', rawBody, { 'stripe-signature': `t=${t},v1=${'0'.repeat(64)}` });
    expect(bad.status).toBe(401);
    const res = await post('stripe', rawBody, { 'stripe-signature': `t=${t},v1=${v1}` });
    expect(res.status).toBe(200);
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
  });

  test('an event for a payment not visible yet asks for redelivery (409) and records nothing; a foreign reference is acknowledged', async () => {
    const unknown = await sandboxEvent('pay_00000000000000000000000000000000', `evt_unknown${Date.now()}`);
    const first = await post('sandbox', unknown.rawBody, { [SANDBOX_SIGNATURE_HEADER]: unknown.signature });
    expect(first.status).toBe(409);
    expect((await post('sandbox', unknown.rawBody, { [SANDBOX_SIGNATURE_HEADER]: unknown.signature })).status).toBe(409);
    const foreign = await sandboxEvent('order-123', `evt_foreign${Date.now()}`);
    const res = await post('sandbox', foreign.rawBody, { [SANDBOX_SIGNATURE_HEADER]: foreign.signature });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true, applied: false });
  });

  test('a success for another amount than the payment’s is not applied', async () => {
    process.env.SANDBOX_WEBHOOKS = 'off';
    try {
      const p = await api.request('POST', '/payments', { body: { amount: 5000, currency: 'NGN', payment_method: 'ussd', confirm: true } });
      const rawBody = JSON.stringify({
        id: `evt_short${Date.now()}`,
        type: 'payment.succeeded',
        data: { payment_id: p.body.payment_id, transaction_id: 'sbx_x', amount: 1, capture_method: 'automatic' },
      });
      const res = await post('sandbox', rawBody, { [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody) });
      expect(await res.json()).toMatchObject({ applied: false });
      expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body.status).toBe('RequiresAction');
    } finally {
      delete process.env.SANDBOX_WEBHOOKS;
    }
  });

  test('an unknown connector → 404', async () => {
    const res = await post('acmepay', '{}', {});
    expect(res.status).toBe(404);
  });
});
