/**
 * A payment link's hosted checkout page over HTTP, as a browser without JavaScript uses it (plain form posts,
 * redirects followed by hand): the form and its security (CSP nonce, CSRF cookie and token, escaping, no card data
 * written back), paying with a sandbox card through 3-D Secure to the merchant's signed `return_url`, a decline giving
 * its place back, 410 for a closed link creating nothing, and the per-link rate limit. The same journey in a real
 * browser is test/browser/checkout.browser.test.ts.
 */
// First: the whole file logs at DEBUG with event logging on, and ends checking the log for secrets.
import '../helpers/secret-log-check';
import { containsCardNumber } from '../../shared/domain/card';
import * as ids from '../../shared/domain/ids';
import { setPageRateLimiter } from '../../shared/http/page-rate-limit';
import { setRateLimitClock } from '../../shared/http/rate-limit';
import { returnSigningSecret, verifyReturn } from '../../shared/security/checkout-return-signature';
import { withLuhnCheckDigit } from '../helpers/card-corpus';
import { Browser, cardForm, formCsrfToken } from '../helpers/checkout-browser';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { expectNoSecretInLog } from '../helpers/secret-log-check';

let api: LocalApi;
const env = scopedEnv();
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});
afterEach(() => {
  setRateLimitClock(undefined);
  setPageRateLimiter(undefined);
  env.restore();
});

const THREE_DS = '4000000000003220';
const DECLINED = '4000000000000002';
const SUCCESS = '4242424242424242';
const nextYear = String(new Date().getUTCFullYear() + 2);

async function newLink(body: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/payment_links', {
    body: { amount: 250000, currency: 'NGN', description: 'Ankara dress', ...body },
  });
  expect(res.status).toBe(200);
  return res.body as { payment_link_id: string; url: string };
}

/** The hidden fields of a drawn form. */
function hidden(html: string): { csrf_token: string; attempt: string } {
  const csrf = /name="csrf_token" value="([0-9a-f]{64})"/.exec(html)?.[1];
  const attempt = /name="attempt" value="([0-9a-f]{32})"/.exec(html)?.[1];
  expect({ csrf, attempt }).toEqual({ csrf: expect.any(String), attempt: expect.any(String) });
  return { csrf_token: csrf as string, attempt: attempt as string };
}

async function linkPayments(linkId: string) {
  const res = await api.request('GET', `/payments?payment_link_id=${linkId}`);
  expect(res.status).toBe(200);
  return res.body.data as { payment_id: string; status: string; payment_link_id: string; amount: number }[];
}

describe('the checkout page', () => {
  test('a form that works without script: labels, autofill tokens, numeric inputs, CSP nonce on its one script, CSRF cookie, escaping, ≤ 60 KB', async () => {
    const link = await newLink({ description: '<script>alert("x")</script> & "friends"', customer_fields: ['email'] });
    const res = await new Browser().get(link.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(60 * 1024);
    expect(html).toContain('<form method="post"');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;friends&quot;');
    expect(html).toContain('₦2,500.00');
    for (const token of ['cc-name', 'cc-number', 'cc-exp-month', 'cc-exp-year', 'cc-csc', 'email'])
      expect(html).toContain(`autocomplete="${token}"`);
    expect(html).toMatch(/name="card_number" inputmode="numeric"/);
    // Every input but the hidden ones has its label.
    const inputs = [...html.matchAll(/<input id="([a-z_]+)"/g)].map((m) => m[1]);
    expect(inputs).toEqual(['email', 'card_name', 'card_number', 'card_exp_month', 'card_exp_year', 'card_cvc']);
    for (const id of inputs) expect(html).toContain(`<label for="${id}">`);
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([` nonce="${nonce}"`]);
    expect(res.headers.getSetCookie()[0]).toMatch(/^checkout_csrf=[0-9a-f]{32}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Strict$/);
    // A new nonce each time.
    const again = await new Browser().get(link.url);
    expect(again.headers.get('content-security-policy')).not.toBe(csp);
  });

  test('pays with a 3-D Secure card with no script: 303 to the challenge, approve, back through the return route to the signed return_url', async () => {
    const link = await newLink({ return_url: 'https://shop.example.com/thanks?order=7' });
    const browser = new Browser();
    const form = hidden(await (await browser.get(link.url)).text());
    const posted = await browser.post(link.url, { ...form, ...cardForm(THREE_DS) });
    expect(posted.status).toBe(303);
    const challenge = posted.headers.get('location') as string;
    expect(challenge).toMatch(/\/sandbox\/3ds\/pay_/);
    const paymentId = /pay_[0-9a-f]+/.exec(challenge)?.[0] as string;
    const drawn = await browser.get(challenge);
    expect(drawn.status).toBe(200);
    const approved = await browser.post(challenge, { csrf_token: formCsrfToken(await drawn.text()), decision: 'approve' });
    expect(approved.status).toBe(303);
    const back = await browser.get(approved.headers.get('location') as string);
    expect(back.status).toBe(303);
    const complete = back.headers.get('location') as string;
    expect(complete.startsWith(`${link.url}/complete?`)).toBe(true);
    const done = await browser.get(complete);
    expect(done.status).toBe(303);
    const landed = new URL(done.headers.get('location') as string);
    expect(`${landed.origin}${landed.pathname}`).toBe('https://shop.example.com/thanks');
    const q = Object.fromEntries(landed.searchParams);
    expect(q).toEqual({
      order: '7',
      payment_id: paymentId,
      payment_link_id: link.payment_link_id,
      status: 'Succeeded',
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const secret = (await api.request('GET', '/merchant_profile')).body.return_signing_secret as string;
    expect(secret).toBe(await returnSigningSecret(api.merchantId));
    expect(
      verifyReturn(secret, { payment_id: paymentId, payment_link_id: link.payment_link_id, status: 'Succeeded' }, q.signature as string),
    ).toBe(true);
    expect(
      verifyReturn(secret, { payment_id: paymentId, payment_link_id: link.payment_link_id, status: 'Failed' }, q.signature as string),
    ).toBe(false);
    // The payment is an ordinary one carrying the link, listed under it; the link counts it.
    expect(await linkPayments(link.payment_link_id)).toEqual([
      expect.objectContaining({ payment_id: paymentId, status: 'Succeeded', payment_link_id: link.payment_link_id, amount: 250000 }),
    ]);
    expect((await api.request('GET', `/payment_links/${link.payment_link_id}`)).body.payments_count).toBe(1);
  });

  test('the same form posted twice pays once; without return_url the status page shows the result', async () => {
    const link = await newLink();
    const browser = new Browser();
    const form = hidden(await (await browser.get(link.url)).text());
    const first = await browser.post(link.url, { ...form, ...cardForm(SUCCESS) });
    const second = await browser.post(link.url, { ...form, ...cardForm(SUCCESS) });
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(await linkPayments(link.payment_link_id)).toHaveLength(1);
    const page = await browser.get(first.headers.get('location') as string);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Payment complete');
    expect(html).toContain('₦2,500.00');
  });

  test('a link whose id holds a card-number-shaped digit run is paid like any other, reusable or single-use (our ids are not card data)', async () => {
    // Random hex reads as a card number about once in 10,000 ids: hand out such ids for the links made here.
    // A Visa-shaped run of 16 random digits (its Luhn check digit searched), then a letter that ends the digit group,
    // then random hex: never a test card number another suite looks for in the shared table.
    const realNewId = ids.newId;
    const visaShaped = () => withLuhnCheckDigit(`4${String(Math.floor(Math.random() * 1e14)).padStart(14, '0')}`);
    const cardShaped = (): string => {
      const id = `plink_${visaShaped()}a${realNewId('paymentLink').slice(-15)}`;
      // A few Visa-shaped numbers read as a NUBAN with its bank's code instead (shared/domain/nuban.ts): draw again.
      return containsCardNumber(id) ? id : cardShaped();
    };
    const spy = jest.spyOn(ids, 'newId').mockImplementation((kind) => (kind === 'paymentLink' ? cardShaped() : realNewId(kind)));
    try {
      const link = await newLink();
      expect(containsCardNumber(link.payment_link_id)).toBe(true);
      const browser = new Browser();
      const form = hidden(await (await browser.get(link.url)).text());
      const paid = await browser.post(link.url, { ...form, ...cardForm(SUCCESS) });
      expect(paid.status).toBe(303);
      expect(await (await browser.get(paid.headers.get('location') as string)).text()).toContain('Payment complete');
      expect(await linkPayments(link.payment_link_id)).toEqual([expect.objectContaining({ status: 'Succeeded' })]);

      const single = await api.request('POST', '/payments', {
        body: { amount: 450000, currency: 'NGN', description: 'Invoice 12', payment_link: true },
      });
      expect(single.status).toBe(200);
      const singleLink = single.body.payment_link as { payment_link_id: string; link: string };
      expect(containsCardNumber(singleLink.payment_link_id)).toBe(true);
      const singleForm = hidden(await (await browser.get(singleLink.link)).text());
      const singlePaid = await browser.post(singleLink.link, { ...singleForm, ...cardForm(SUCCESS) });
      expect(singlePaid.status).toBe(303);
      expect((await api.request('GET', `/payments/${single.body.payment_id}`)).body.status).toBe('Succeeded');
    } finally {
      spy.mockRestore();
    }
  });

  test('mistakes are answered by field, the card number and CVC never written back; a decline gives the place back', async () => {
    const link = await newLink({ max_payments: 1, amount: undefined, amount_min: 10000, amount_max: 50000 });
    const browser = new Browser();
    const form = hidden(await (await browser.get(link.url)).text());
    const bad = await browser.post(link.url, {
      ...form,
      amount: '9000',
      card_name: 'Ada',
      card_number: '4242424242424241',
      card_exp_month: '13',
      card_exp_year: nextYear,
      card_cvc: '98765',
    });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    for (const field of ['amount', 'card_number', 'card_exp_month', 'card_cvc']) {
      expect(html).toContain(`aria-describedby="err-${field}"`);
      expect(html).toContain(`<p class="err" id="err-${field}">`);
    }
    expect(html).not.toContain('err-card_exp_year');
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('4242424242424241');
    expect(html).not.toContain('98765');
    expect(html).toContain('value="9000"');
    expect(await linkPayments(link.payment_link_id)).toEqual([]);

    const declined = await browser.post(link.url, { ...hidden(html), amount: '150.50', ...cardForm(DECLINED) });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('declined');
    const payments = await linkPayments(link.payment_link_id);
    expect(payments).toEqual([expect.objectContaining({ status: 'Failed', amount: 15050 })]);
    // The single place came back: the link still takes a payment.
    expect((await api.request('GET', `/payment_links/${link.payment_link_id}`)).body).toMatchObject({
      payments_count: 0,
      status: 'active',
    });
    expect((await browser.get(link.url)).status).toBe(200);
  });

  test('a form without the page cookie, or with another token, is refused 403 and pays nothing', async () => {
    const link = await newLink();
    const browser = new Browser();
    const form = hidden(await (await browser.get(link.url)).text());
    const stranger = new Browser();
    expect((await stranger.post(link.url, { ...form, ...cardForm(SUCCESS) })).status).toBe(403);
    expect((await browser.post(link.url, { ...form, csrf_token: 'a'.repeat(64), ...cardForm(SUCCESS) })).status).toBe(403);
    expect(await linkPayments(link.payment_link_id)).toEqual([]);
  });
});

describe('closed links answer 410 and create nothing', () => {
  test('deactivated: the page and a form drawn before both answer 410 with a sentence', async () => {
    const link = await newLink();
    const browser = new Browser();
    const form = hidden(await (await browser.get(link.url)).text());
    expect((await api.request('POST', `/payment_links/${link.payment_link_id}/deactivate`)).status).toBe(200);
    const page = await browser.get(link.url);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('turned off by the merchant');
    const posted = await browser.post(link.url, { ...form, ...cardForm(SUCCESS) });
    expect(posted.status).toBe(410);
    expect(await linkPayments(link.payment_link_id)).toEqual([]);
  });

  test('used up: after max_payments the page answers 410; a form drawn before the last place went creates nothing', async () => {
    const link = await newLink({ max_payments: 1 });
    const a = new Browser();
    const b = new Browser();
    const formA = hidden(await (await a.get(link.url)).text());
    const formB = hidden(await (await b.get(link.url)).text());
    expect((await a.post(link.url, { ...formA, ...cardForm(SUCCESS) })).status).toBe(303);
    const late = await b.post(link.url, { ...formB, ...cardForm(SUCCESS) });
    expect(late.status).toBe(410);
    expect(await late.text()).toContain('already been used');
    expect(await linkPayments(link.payment_link_id)).toHaveLength(1);
    expect((await a.get(link.url)).status).toBe(410);
  });

  test('an unknown link is 404; a payment of another link is 404 on the completion route', async () => {
    expect((await new Browser().get(`${api.url}/checkout/plink_00000000000000000000000000000000`)).status).toBe(404);
    const one = await newLink();
    const other = await newLink();
    const browser = new Browser();
    const form = hidden(await (await browser.get(one.url)).text());
    const paid = await browser.post(one.url, { ...form, ...cardForm(SUCCESS) });
    const paymentId = new URL(paid.headers.get('location') as string).searchParams.get('payment_id');
    expect((await browser.get(`${other.url}/complete?payment_id=${paymentId}`)).status).toBe(404);
  });
});

test('rate limited per link: past the limit the page is a 429 with Retry-After and the CSP; another link is still served', async () => {
  const link = await newLink();
  env.set({ PAGE_RATE_LIMIT_PER_LINK: '3', PAGE_RATE_LIMIT_PER_CLIENT: '1000' });
  const now = Math.floor(Date.now() / 1000) * 1000 + 50_000;
  setRateLimitClock(() => now);
  setPageRateLimiter(undefined);
  const statuses: number[] = [];
  let refused: Response | undefined;
  for (let i = 0; i < 10; i++) {
    const res = await new Browser().get(link.url);
    statuses.push(res.status);
    if (res.status === 429) refused ??= res;
    await res.text();
  }
  // At most the limit, plus the one request a container admits before its first lease answers.
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
  expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(4);
  expect(refused?.headers.get('retry-after')).toBe('1');
  expect(refused?.headers.get('content-security-policy')).toContain("script-src 'nonce-");
  const other = await newLink();
  expect((await new Browser().get(other.url)).status).toBe(200);
});

test('the flows above logged their events at DEBUG, and no secret is in the log', () => expectNoSecretInLog(['POST /payment_links']));
