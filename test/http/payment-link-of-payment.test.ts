/**
 * Single-use links on a payment (`POST /payments` with `payment_link: true`, Hyperswitch's model): the link is on the
 * payment, its page confirms that payment and creates none, answers 410 once the payment is final or the link
 * expired (a controllable clock: `Date.now` moved past `expires_at`), is not a reusable link of anyone's, and bad
 * input is a 400 that creates nothing.
 */
import { returnSigningSecret, verifyReturn } from '../../shared/security/checkout-return-signature';
import { Browser, cardForm, checkoutHidden, formCsrfToken } from '../helpers/checkout-browser';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});
afterEach(() => {
  jest.restoreAllMocks();
});

const SUCCESS = '4242424242424242';
const DECLINED = '4000000000000002';
const THREE_DS = '4000000000003220';

interface LinkedPayment {
  payment_id: string;
  status: string;
  payment_link_id: string;
  payment_link: { payment_link_id: string; link: string; expires_at: string };
}

async function linkedPayment(body: Record<string, unknown> = {}): Promise<LinkedPayment> {
  const res = await api.request('POST', '/payments', {
    body: { amount: 450000, currency: 'NGN', description: 'Invoice 12', payment_link: true, ...body },
  });
  expect(res.status).toBe(200);
  return res.body as LinkedPayment;
}

async function paymentsOfLink(linkId: string) {
  const res = await api.request('GET', `/payments?payment_link_id=${linkId}`);
  expect(res.status).toBe(200);
  return (res.body.data as { payment_id: string }[]).map((p) => p.payment_id);
}

describe('a payment with a single-use link', () => {
  test('the create answers the link (ISO 8601 expiry, 900 s by default); GET /payments/{id} shows it', async () => {
    const before = Date.now();
    const p = await linkedPayment();
    expect(p.status).toBe('RequiresConfirmation');
    expect(p.payment_link).toEqual({
      payment_link_id: expect.stringMatching(/^plink_[0-9a-f]{32}$/),
      link: `${api.url}/checkout/${p.payment_link.payment_link_id}`,
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const expires = Date.parse(p.payment_link.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 900_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 900_000);
    expect(p.payment_link_id).toBe(p.payment_link.payment_link_id);
    const got = await api.request('GET', `/payments/${p.payment_id}`);
    expect(got.body.payment_link).toEqual(p.payment_link);
    const longer = await linkedPayment({ session_expiry: 7_890_000 });
    expect(Date.parse(longer.payment_link.expires_at) - Date.now()).toBeGreaterThan(7_889_000_000);
    // An ordinary payment has none.
    const plain = await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' } });
    expect(plain.body.payment_link).toBeNull();
  });

  test('the page confirms that payment (no new one), lands on the signed return_url, then answers 410 and creates nothing', async () => {
    const p = await linkedPayment({ return_url: 'https://shop.example.com/paid' });
    const browser = new Browser();
    const page = await browser.get(p.payment_link.link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('₦4,500.00');
    expect(html).toContain('Invoice 12');
    const posted = await browser.post(p.payment_link.link, { ...checkoutHidden(html), ...cardForm(THREE_DS) });
    expect(posted.status).toBe(303);
    const challenge = posted.headers.get('location') as string;
    expect(challenge).toContain(`/sandbox/3ds/${p.payment_id}`);
    const drawn = await (await browser.get(challenge)).text();
    const approved = await browser.post(challenge, { csrf_token: formCsrfToken(drawn), decision: 'approve' });
    const back = await browser.get(approved.headers.get('location') as string);
    const done = await browser.get(back.headers.get('location') as string);
    expect(done.status).toBe(303);
    const landed = new URL(done.headers.get('location') as string);
    expect(`${landed.origin}${landed.pathname}`).toBe('https://shop.example.com/paid');
    const q = Object.fromEntries(landed.searchParams);
    expect(q).toMatchObject({ payment_id: p.payment_id, payment_link_id: p.payment_link.payment_link_id, status: 'Succeeded' });
    const secret = await returnSigningSecret(api.merchantId);
    expect(
      verifyReturn(
        secret,
        { payment_id: p.payment_id, payment_link_id: p.payment_link.payment_link_id, status: 'Succeeded' },
        q.signature as string,
      ),
    ).toBe(true);
    const paid = (await api.request('GET', `/payments/${p.payment_id}`)).body;
    expect(paid.status).toBe('Succeeded');
    expect(await paymentsOfLink(p.payment_link.payment_link_id)).toEqual([p.payment_id]);
    // Paid: the page and the form answer 410 with a sentence, and nothing more is created or charged.
    const again = await browser.get(p.payment_link.link);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This payment has already been made.');
    const replay = await browser.post(p.payment_link.link, { ...checkoutHidden(html), ...cardForm(SUCCESS) });
    expect(replay.status).toBe(410);
    expect(await paymentsOfLink(p.payment_link.payment_link_id)).toEqual([p.payment_id]);
    expect((await api.request('GET', `/payments/${p.payment_id}`)).body).toEqual(paid);
  });

  test('the same form posted twice confirms once; without return_url the status page shows the result', async () => {
    const p = await linkedPayment();
    const browser = new Browser();
    const form = { ...checkoutHidden(await (await browser.get(p.payment_link.link)).text()), ...cardForm(SUCCESS) };
    const first = await browser.post(p.payment_link.link, form);
    const second = await browser.post(p.payment_link.link, form);
    expect(first.status).toBe(303);
    expect([303, 410]).toContain(second.status);
    const status = await browser.get(first.headers.get('location') as string);
    expect(status.status).toBe(200);
    expect(await status.text()).toContain('Payment complete');
    const paid = (await api.request('GET', `/payments/${p.payment_id}`)).body;
    expect(paid).toMatchObject({ status: 'Succeeded', amount_captured: 450000 });
    expect(paid.attempts).toHaveLength(1);
  });

  test('a decline ends the payment: 410 with the reason, no new payment', async () => {
    const p = await linkedPayment();
    const browser = new Browser();
    const form = checkoutHidden(await (await browser.get(p.payment_link.link)).text());
    const posted = await browser.post(p.payment_link.link, { ...form, ...cardForm(DECLINED) });
    expect(posted.status).toBe(410);
    expect(await posted.text()).toContain('No money was taken.');
    expect((await api.request('GET', `/payments/${p.payment_id}`)).body.status).toBe('Failed');
    const page = await browser.get(p.payment_link.link);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('can no longer be made');
    expect(await paymentsOfLink(p.payment_link.payment_link_id)).toEqual([p.payment_id]);
  });

  test('a cancelled payment closes its link', async () => {
    const p = await linkedPayment();
    expect((await api.request('POST', `/payments/${p.payment_id}/cancel`, { body: {} })).status).toBe(200);
    expect((await new Browser().get(p.payment_link.link)).status).toBe(410);
  });

  test('expiry on a controllable clock: open until expires_at, then 410 and the payment is not confirmed', async () => {
    const p = await linkedPayment({ session_expiry: 60 });
    const expires = Date.parse(p.payment_link.expires_at);
    const browser = new Browser();
    const realNow = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => Math.max(realNow(), expires - 1000));
    const page = await browser.get(p.payment_link.link);
    expect(page.status).toBe(200);
    const form = checkoutHidden(await page.text());
    jest.spyOn(Date, 'now').mockImplementation(() => Math.max(realNow(), expires));
    const late = await browser.get(p.payment_link.link);
    expect(late.status).toBe(410);
    expect(await late.text()).toContain('This payment link has expired.');
    const posted = await browser.post(p.payment_link.link, { ...form, ...cardForm(SUCCESS) });
    expect(posted.status).toBe(410);
    jest.restoreAllMocks();
    const after = (await api.request('GET', `/payments/${p.payment_id}`)).body;
    expect(after).toMatchObject({ status: 'RequiresConfirmation', attempts: [] });
  });

  test('tenancy: the link is on its payment only; another merchant sees neither; it is no reusable link', async () => {
    const p = await linkedPayment();
    const other = await api.newMerchantKey();
    expectError(await api.request('GET', `/payments/${p.payment_id}`, { key: other }), 404, 'resource_missing');
    expectError(await api.request('GET', `/payment_links/${p.payment_link.payment_link_id}`, { key: other }), 404, 'resource_missing');
    expectError(await api.request('GET', `/payment_links/${p.payment_link.payment_link_id}`), 404, 'resource_missing');
    const theirs = await api.request('GET', `/payments?payment_link_id=${p.payment_link.payment_link_id}`, { key: other });
    expect(theirs.body.data).toEqual([]);
    const mine = await api.request('GET', '/payment_links?limit=100');
    expect(mine.body.data.some((l: { payment_link_id: string }) => l.payment_link_id === p.payment_link.payment_link_id)).toBe(false);
  });

  test.each([
    ['with confirm: true', { payment_link: true, confirm: true, payment_method: 'bank_transfer' }, 'payment_link'],
    ['not a boolean', { payment_link: 'yes' }, 'payment_link'],
    ['session_expiry below 60', { payment_link: true, session_expiry: 59 }, 'session_expiry'],
    ['session_expiry above 7,890,000', { payment_link: true, session_expiry: 7_890_001 }, 'session_expiry'],
    ['session_expiry not whole', { payment_link: true, session_expiry: 90.5 }, 'session_expiry'],
    ['session_expiry as text', { payment_link: true, session_expiry: '900' }, 'session_expiry'],
    ['session_expiry without payment_link', { session_expiry: 900 }, 'session_expiry'],
  ])('bad input %s: 400 naming the field', async (_name, extra, param) => {
    const res = await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN', ...extra } });
    const error = expectError(res, 400);
    expect(error.param).toBe(param);
  });
});
