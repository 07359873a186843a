/**
 * Lists merchants' developers reach for: `GET /payments?customer_id=` (the payments linked to one
 * customer, GSI3) and the top-level `GET /refunds` (every refund of the merchant, GSI2, or one payment's), through the
 * local API on the sandbox; paged with `starting_after`, one merchant's never in another's.
 */
import { card, type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

type Json = Record<string, any>;

async function merchant() {
  const key = await api.newMerchantKey();
  const ok = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
    if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const pay = async (amount: number, customerId?: string) =>
    ok('POST', '/payments', {
      amount,
      currency: 'NGN',
      confirm: true,
      payment_method_data: card('4242424242424242'),
      ...(customerId ? { customer_id: customerId } : {}),
    });
  return { key, ok, pay, request: (m: string, p: string) => api.request(m, p, { key }) };
}

test("GET /payments?customer_id=: only that customer's payments, newest first, paged; with status too → 400", async () => {
  const m = await merchant();
  const ada = (await m.ok('POST', '/customers', { name: 'Ada' })).customer_id as string;
  const bola = (await m.ok('POST', '/customers', { name: 'Bola' })).customer_id as string;
  const adas = [await m.pay(1000, ada), await m.pay(1100, ada), await m.pay(1200, ada)];
  await m.pay(1300, bola);
  await m.pay(1400);
  const first = await m.ok('GET', `/payments?customer_id=${ada}&limit=2`);
  expect(first.data.map((p: Json) => p.payment_id)).toEqual([adas[2]!.payment_id, adas[1]!.payment_id]);
  expect(first.has_more).toBe(true);
  const second = await m.ok('GET', `/payments?customer_id=${ada}&limit=2&starting_after=${adas[1]!.payment_id}`);
  expect(second).toMatchObject({ data: [{ payment_id: adas[0]!.payment_id }], has_more: false });
  expect((await m.ok('GET', '/payments?customer_id=cus_unknown')).data).toEqual([]);
  const both = await m.request('GET', `/payments?customer_id=${ada}&status=Succeeded`);
  expect(both.status).toBe(400);
  expect(both.body.error).toMatchObject({ code: 'parameter_invalid', param: 'customer_id' });
  // Another merchant's customer id lists nothing here.
  const other = await merchant();
  expect((await other.ok('GET', `/payments?customer_id=${ada}`)).data).toEqual([]);
});

test('GET /refunds: every refund of the merchant, newest first, paged, or one payment’s; never another merchant’s', async () => {
  const m = await merchant();
  const a = await m.pay(5000);
  const b = await m.pay(6000);
  const r1 = await m.ok('POST', `/payments/${a.payment_id}/refund`, { amount: 1000 });
  const r2 = await m.ok('POST', `/payments/${b.payment_id}/refund`, { amount: 2000 });
  const r3 = await m.ok('POST', `/payments/${a.payment_id}/refund`, { amount: 500 });
  const all = await m.ok('GET', '/refunds');
  expect(all.data.map((r: Json) => r.refund_id)).toEqual([r3.refund_id, r2.refund_id, r1.refund_id]);
  const page = await m.ok('GET', `/refunds?limit=1&starting_after=${r3.refund_id}`);
  expect(page).toMatchObject({ data: [{ refund_id: r2.refund_id }], has_more: true });
  const ofA = await m.ok('GET', `/refunds?payment_id=${a.payment_id}`);
  expect(ofA.data.map((r: Json) => r.refund_id)).toEqual([r3.refund_id, r1.refund_id]);
  const other = await merchant();
  expect((await other.ok('GET', '/refunds')).data).toEqual([]);
  expect((await other.request('GET', `/refunds?starting_after=${r1.refund_id}`)).status).toBe(400);
});

test('ending_before: the page just before an item, still newest first, has_more for newer ones; not with starting_after; an unknown cursor → 400', async () => {
  const m = await merchant();
  const made: string[] = [];
  for (let i = 0; i < 5; i += 1) made.push((await m.pay(2000 + i)).payment_id);
  const newestFirst = [...made].reverse(); // p4 p3 p2 p1 p0
  const second = await m.ok('GET', `/payments?limit=2&starting_after=${newestFirst[1]}`);
  expect(second.data.map((p: Json) => p.payment_id)).toEqual([newestFirst[2], newestFirst[3]]);
  // Back from the second page's first item: the first page again.
  const back = await m.ok('GET', `/payments?limit=2&ending_before=${newestFirst[2]}`);
  expect(back).toMatchObject({ data: [{ payment_id: newestFirst[0] }, { payment_id: newestFirst[1] }], has_more: false });
  const nearer = await m.ok('GET', `/payments?limit=1&ending_before=${newestFirst[2]}`);
  expect(nearer).toMatchObject({ data: [{ payment_id: newestFirst[1] }], has_more: true });
  expect((await m.ok('GET', `/payments?ending_before=${newestFirst[0]}`)).data).toEqual([]);
  // Within a created range: only the range's newer items.
  const p2 = await m.ok('GET', `/payments/${newestFirst[2]}`);
  const ranged = await m.ok('GET', `/payments?ending_before=${newestFirst[4]}&created[lte]=${encodeURIComponent(p2.created_at)}`);
  expect(ranged.data.map((p: Json) => p.payment_id)).toEqual([newestFirst[2], newestFirst[3]]);
  const both = await m.request('GET', `/payments?ending_before=${newestFirst[2]}&starting_after=${newestFirst[1]}`);
  expect(both.status).toBe(400);
  expect(both.body.error).toMatchObject({ code: 'parameter_invalid', param: 'ending_before' });
  const unknown = await m.request('GET', '/payments?ending_before=pay_doesnotexist');
  expect(unknown.status).toBe(400);
  expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'ending_before' });
  // A bounded list (connector accounts) and the refunds list take it too.
  const refunds = [];
  for (const id of made.slice(0, 3)) refunds.push((await m.ok('POST', `/payments/${id}/refund`, { amount: 100 })).refund_id);
  const r = await m.ok('GET', `/refunds?limit=1&ending_before=${refunds[0]}`);
  expect(r).toMatchObject({ data: [{ refund_id: refunds[1] }], has_more: true });
});
