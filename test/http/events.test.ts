/**
 * Events (the outbox): every state change of the sandbox's flows writes exactly the
 * expected events, in order, in the same transaction as the change; `GET /events` and
 * `GET /events/{id}` serve them, merchant-scoped; a failed change writes no event; no card
 * number ever appears in one. Through the local gateway against DynamoDB Local.
 */
import { baseClient } from '../../shared/storage/client';
import { sandboxPageDecision } from '../helpers/checkout-browser';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

process.env.SANDBOX_WEBHOOK_DELAY_MS = '50';
process.env.SANDBOX_MOBILE_MONEY_APPROVAL_SECONDS = '0';

let api: LocalApi;
let failTransactions = 0;
beforeAll(async () => {
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (failTransactions > 0 && context.commandName === 'TransactWriteItemsCommand') {
        failTransactions -= 1;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
      }
      return next(args);
    },
    { step: 'initialize', name: 'eventsTestFault' },
  );
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

type Ev = { event_id: string; type: string; created_at: string; data: Record<string, any> };

/** The merchant's events about one resource, oldest first. */
async function eventsOf(id: string, key?: string): Promise<Ev[]> {
  const all: Ev[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await api.request('GET', `/events?limit=100${after ? `&starting_after=${after}` : ''}`, key ? { key } : {});
    expect(res.status).toBe(200);
    all.push(...res.body.data);
    if (!res.body.has_more) break;
    after = res.body.data.at(-1).event_id;
  }
  return all
    .filter((e) => e.data.payment_id === id || e.data.refund_id === id || (e.data.customer_id === id && !e.data.payment_id))
    .reverse();
}

const typesOf = async (id: string) => (await eventsOf(id)).map((e) => e.type);

async function waitFor(id: string, status: string): Promise<void> {
  const until = Date.now() + 20_000;
  while ((await api.request('GET', `/payments/${id}`)).body.status !== status && Date.now() < until)
    await new Promise((r) => setTimeout(r, 50));
}

describe('each sandbox flow writes exactly its events, in order', () => {
  test('card success and decline, with confirm: true', async () => {
    const ok = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(await typesOf(ok.body.payment_id)).toEqual(['payment.created', 'payment.succeeded']);
    const declined = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'NGN', confirm: true, payment_method_data: card('4000000000000002') },
    });
    expect(await typesOf(declined.body.payment_id)).toEqual(['payment.created', 'payment.failed']);
  });

  test('create, then confirm: created, processing (the claim), succeeded; the last event carries the payment as GET answers it', async () => {
    const billing = {
      address: { line1: '1 Marina', first_name: 'Ada', city: 'Lagos', zip: '101001', last_name: 'Obi', country: 'NG', state: 'LA' },
    };
    const p = await api.request('POST', '/payments', {
      body: { amount: 2500, currency: 'GHS', payment_method: 'card', metadata: { order: 'A-1', cart: 'x' }, billing },
    });
    await api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: { payment_method_data: card('4242424242424242') } });
    const events = await eventsOf(p.body.payment_id);
    expect(events.map((e) => e.type)).toEqual(['payment.created', 'payment.processing', 'payment.succeeded']);
    expect(events[0]!.data.status).toBe('RequiresConfirmation');
    // Byte for byte (key order included, nested maps too): what a signature covers is what GET shows.
    expect(JSON.stringify(events.at(-1)!.data)).toBe((await api.request('GET', `/payments/${p.body.payment_id}`)).text);
    expect(events.at(-1)!.data.payment_method_data.card).toEqual(expect.objectContaining({ last4: '4242' }));
  });

  test('3DS approved and declined on the hosted page', async () => {
    for (const [decision, final] of [
      ['approve', 'payment.succeeded'],
      ['decline', 'payment.failed'],
    ] as const) {
      const p = await api.request('POST', '/payments', {
        body: { amount: 900, currency: 'NGN', confirm: true, payment_method_data: card('4000000000003220') },
      });
      expect(JSON.stringify((await eventsOf(p.body.payment_id)).at(-1)!.data)).toBe(
        (await api.request('GET', `/payments/${p.body.payment_id}`)).text,
      );
      await fetch(p.body.next_action.redirect_to_url, await sandboxPageDecision(p.body.next_action.redirect_to_url, decision));
      expect(await typesOf(p.body.payment_id)).toEqual(['payment.created', 'payment.requires_action', final]);
    }
  });

  test('bank transfer, USSD and mobile money complete by the sandbox webhook', async () => {
    for (const [method, middle] of [
      ['bank_transfer', ['payment.requires_action']],
      ['ussd', ['payment.requires_action']],
      ['mobile_money', []],
    ] as const) {
      const p = await api.request('POST', '/payments', { body: { amount: 700, currency: 'KES', payment_method: method, confirm: true } });
      await waitFor(p.body.payment_id, 'Succeeded');
      expect(await typesOf(p.body.payment_id)).toEqual(['payment.created', ...middle, 'payment.succeeded']);
    }
  });

  test('manual capture, and cancel', async () => {
    const held = await api.request('POST', '/payments', {
      body: { amount: 5000, currency: 'ZAR', capture_method: 'manual', confirm: true, payment_method_data: card('4242424242424242') },
    });
    await api.request('POST', `/payments/${held.body.payment_id}/capture`, { body: { amount_to_capture: 4000 } });
    expect(await typesOf(held.body.payment_id)).toEqual(['payment.created', 'payment.requires_capture', 'payment.succeeded']);
    const c = await api.request('POST', '/payments', { body: { amount: 100, currency: 'USD' } });
    await api.request('POST', `/payments/${c.body.payment_id}/cancel`, { body: { cancellation_reason: 'requested_by_customer' } });
    expect(await typesOf(c.body.payment_id)).toEqual(['payment.created', 'payment.cancelled']);
  });

  test('partial and full refunds', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') },
    });
    const r1 = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 300 } });
    const r2 = await api.request('POST', `/payments/${p.body.payment_id}/refund`, {});
    expect(await typesOf(r1.body.refund_id)).toEqual(['refund.created', 'refund.succeeded']);
    const second = await eventsOf(r2.body.refund_id);
    expect(second.map((e) => e.type)).toEqual(['refund.created', 'refund.succeeded']);
    expect(second[1]!.data).toEqual((await api.request('GET', `/refunds/${r2.body.refund_id}`)).body);
  });

  test('customer create, update, delete', async () => {
    const cus = await api.request('POST', '/customers', { body: { name: 'Ada', metadata: { b: '2', a: '1' } } });
    const updated = await api.request('PUT', `/customers/${cus.body.customer_id}`, { body: { email: 'ada@example.com' } });
    await api.request('DELETE', `/customers/${cus.body.customer_id}`);
    const events = await eventsOf(cus.body.customer_id);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated', 'customer.deleted']);
    expect(events[1]!.data).toEqual(updated.body);
    expect(events[2]!.data).toEqual({ customer_id: cus.body.customer_id, deleted: true });
  });
});

describe('the events API', () => {
  test('GET /events/{id} answers the listed event; type filter; other merchants see nothing', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 1234, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') },
    });
    const [created, succeeded] = await eventsOf(p.body.payment_id);
    expect((await api.request('GET', `/events/${succeeded!.event_id}`)).body).toEqual(succeeded);
    const onlySucceeded = (await api.request('GET', '/events?type=payment.succeeded&limit=100')).body.data as Ev[];
    expect(onlySucceeded.every((e) => e.type === 'payment.succeeded')).toBe(true);
    expect(onlySucceeded.map((e) => e.event_id)).toContain(succeeded!.event_id);
    expect(onlySucceeded.map((e) => e.event_id)).not.toContain(created!.event_id);
    expectError(await api.request('GET', '/events?type=payment.exploded'), 400);
    const other = await api.newMerchantKey();
    expectError(await api.request('GET', `/events/${succeeded!.event_id}`, { key: other }), 404);
    expect((await api.request('GET', '/events?limit=100', { key: other })).body.data).toEqual([]);
  });

  test('a change whose transaction fails writes no event (and no change)', async () => {
    const key = await api.newMerchantKey();
    failTransactions = 1;
    expectError(await api.request('POST', '/payments', { key, body: { amount: 100, currency: 'NGN' } }), 503, 'service_unavailable');
    expect((await api.request('GET', '/events?limit=100', { key })).body.data).toEqual([]);
    expect((await api.request('GET', '/payments', { key })).body.data).toEqual([]);
  });

  test('no card number or CVC in any event', async () => {
    const key = await api.newMerchantKey();
    await api.request('POST', '/payments', {
      key,
      body: { amount: 100, currency: 'NGN', confirm: true, payment_method_data: card('5555555555554444') },
    });
    const text = JSON.stringify((await api.request('GET', '/events?limit=100', { key })).body);
    expect(text).toContain('4444');
    expect(text).not.toContain('5555555555554444');
    expect(text).not.toMatch(/card_cvc|"cvc"/);
  });
});
