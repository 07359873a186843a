/**
 * The checkout page's payment methods over HTTP, as a browser without JavaScript uses them (links to choose, plain form
 * posts, redirects followed by hand), against DynamoDB Local and the Paystack stand-in (a ledger per account): the page
 * offers only what the link allows and the merchant's routing serves in its currency; bank transfer, USSD and mobile
 * money each pay end to end through the waiting page (which only reads) to the signed `return_url` or the status
 * page, our table agreeing with the stand-in's ledger; a method not offered, or not served, is refused with a 400 page
 * and creates nothing; a field's mistake is answered next to it; one merchant's routing never shows on another's link.
 */
// First: the whole file logs at DEBUG with event logging on, and ends checking the log for secrets.
import '../helpers/secret-log-check';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { returnSigningSecret, verifyReturn } from '../../shared/security/checkout-return-signature';
import { Browser, checkoutHidden } from '../helpers/checkout-browser';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';
import { expectNoSecretInLog, logRecords } from '../helpers/secret-log-check';

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackStandIn;
/** Merchant A (the local API's own key): one Paystack account taking everything Paystack takes. */
let aKey: string;
/** Merchant B: one Paystack account enabled for KES cards only. */
let bKey: string;

/** Connects a fresh account at the stand-in to the merchant of `key`; returns the account's key at the stand-in. */
async function connectPaystack(key: string, enabled?: unknown): Promise<string> {
  const { secretKey } = paystack.addAccount();
  const res = await api.request('POST', '/connector_accounts', {
    key,
    body: {
      connector_name: 'paystack',
      connector_account_details: { api_key: secretKey },
      ...(enabled ? { payment_methods_enabled: enabled } : {}),
    },
  });
  expect(res.status).toBe(200);
  return secretKey;
}

beforeAll(async () => {
  paystack = await startPaystackStandIn();
  env.set({ PAYSTACK_BASE_URL: paystack.url, CONNECTOR_CONFIG_CACHE_MS: '0' });
  api = await startLocalApi();
  aKey = await connectPaystack(api.apiKey);
  const merchantB = await api.newMerchantKey();
  bKey = await connectPaystack(merchantB, [{ payment_method: 'card', currencies: ['KES'] }]);
  bApiKey = merchantB;
});
afterAll(async () => {
  await api?.close();
  await paystack?.close();
  env.restore();
});
let bApiKey: string;

async function newLink(body: Record<string, unknown>, key = api.apiKey) {
  const res = await api.request('POST', '/payment_links', {
    key,
    body: { amount: 250000, currency: 'NGN', description: 'Ankara dress', customer_fields: ['email'], ...body },
  });
  expect(res.status).toBe(200);
  return res.body as { payment_link_id: string; url: string };
}

/** The methods the page's chooser lists (the shown one and the links), in order; [] without a chooser. */
function chooser(html: string): string[] {
  const nav = /<nav aria-label="Payment method">(.*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<li>(?:<strong aria-current="true">|<a href="\?payment_method=[a-z_]+">)([^<]+)</g)].map((m) => m[1] as string);
}

/** The method whose form the page shows (its hidden field). */
const shownMethod = (html: string) => /name="payment_method" value="([a-z_]+)"/.exec(html)?.[1];

async function linkPayments(linkId: string, key = api.apiKey) {
  const res = await api.request('GET', `/payments?payment_link_id=${linkId}`, { key });
  expect(res.status).toBe(200);
  return res.body.data as { payment_id: string; status: string; amount: number; payment_method: string }[];
}

/** Draws the page (of a method) and posts its form with `fields`. */
async function pay(url: string, method: string, fields: Record<string, string>, browser = new Browser()) {
  const page = await browser.get(`${url}?payment_method=${method}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(shownMethod(html)).toBe(method);
  const posted = await browser.post(url, { ...checkoutHidden(html), payment_method: method, email: 'ada@example.com', ...fields });
  return { browser, posted };
}

/** The merchant's own read of a payment, after asking the processor (what a webhook or the reconciler would bring). */
async function synced(paymentId: string) {
  const res = await api.request('GET', `/payments/${paymentId}?force_sync=true`);
  expect(res.status).toBe(200);
  return res.body as { status: string; amount: number; amount_captured: number };
}

describe('which methods the page offers', () => {
  test('an NGN link on Paystack offers card, bank transfer and USSD (no mobile money), cards first; USSD lists the banks Paystack serves', async () => {
    const link = await newLink({});
    const html = await (await new Browser().get(link.url)).text();
    expect(chooser(html)).toEqual(['Card', 'Bank transfer', 'USSD']);
    expect(shownMethod(html)).toBe('card');
    const ussd = await new Browser().get(`${link.url}?payment_method=ussd`);
    expect(ussd.status).toBe(200);
    const page = await ussd.text();
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(60 * 1024);
    expect(page).toContain('<label for="ussd_bank_code">');
    const banks = [...page.matchAll(/<option value="(\d+)"/g)].map((m) => m[1]);
    expect(banks.sort()).toEqual(['033', '057', '058', '232']);
    expect(page).not.toContain('name="card_number"');
  });

  test('a KES link of a merchant whose routing takes KES cards only shows the card form alone, no chooser; USSD is refused 400', async () => {
    const link = await newLink({ currency: 'KES' }, bApiKey);
    const res = await new Browser().get(link.url);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(chooser(html)).toEqual([]);
    expect(shownMethod(html)).toBe('card');
    expect(html).not.toMatch(/USSD|Mobile money|Bank transfer/);
    const ussd = await new Browser().get(`${link.url}?payment_method=ussd`);
    expect(ussd.status).toBe(400);
    const refused = await ussd.text();
    expect(refused).toContain('That payment method is not available on this link.');
    expect(shownMethod(refused)).toBe('card');
  });

  test('the link’s payment_methods narrow the choice; a method it does not allow, or routing does not serve, is refused and creates nothing', async () => {
    const link = await newLink({ payment_methods: ['card', 'ussd', 'mobile_money'] });
    const browser = new Browser();
    const html = await (await browser.get(link.url)).text();
    // Mobile money is allowed by the link but Paystack takes it in GHS and KES only.
    expect(chooser(html)).toEqual(['Card', 'USSD']);
    const before = paystack.requests.length;
    for (const method of ['bank_transfer', 'mobile_money', 'cheque']) {
      const posted = await browser.post(link.url, {
        ...checkoutHidden(html),
        payment_method: method,
        email: 'ada@example.com',
        mobile_money_phone: '+233241234567',
      });
      expect(posted.status).toBe(400);
      const body = await posted.text();
      expect(body).toContain('That payment method is not available on this link.');
      expect(body).toContain('role="alert"');
    }
    const other = await newLink({ currency: 'KES' }, bApiKey);
    const otherHtml = await (await browser.get(other.url)).text();
    const posted = await browser.post(other.url, {
      ...checkoutHidden(otherHtml),
      payment_method: 'mobile_money',
      mobile_money_phone: '+254722000000',
      email: 'ada@example.com',
    });
    expect(posted.status).toBe(400);
    expect(await linkPayments(link.payment_link_id)).toEqual([]);
    expect(await linkPayments(other.payment_link_id, bApiKey)).toEqual([]);
    expect(paystack.requests.length).toBe(before);
  });
});

describe('routing decides, as it changes', () => {
  test('an account turned off takes its methods off the page (410 when none is left, a form drawn before creates nothing); turned on, they are back', async () => {
    const key = await api.newMerchantKey();
    const { secretKey } = paystack.addAccount();
    const created = await api.request('POST', '/connector_accounts', {
      key,
      body: { connector_name: 'paystack', connector_account_details: { api_key: secretKey } },
    });
    expect(created.status).toBe(200);
    const mca = created.body.merchant_connector_id as string;
    const link = await newLink({}, key);
    const browser = new Browser();
    const form = await (await browser.get(`${link.url}?payment_method=bank_transfer`)).text();
    expect(chooser(form)).toEqual(['Card', 'Bank transfer', 'USSD']);
    const off = await api.request('PUT', `/connector_accounts/${mca}`, { key, body: { disabled: true } });
    expect(off.status).toBe(200);
    const closed = await browser.get(link.url);
    expect(closed.status).toBe(410);
    expect(await closed.text()).toContain('none of its payment methods is available in its currency');
    const posted = await browser.post(link.url, { ...checkoutHidden(form), payment_method: 'bank_transfer', email: 'ada@example.com' });
    expect(posted.status).toBe(410);
    expect(await linkPayments(link.payment_link_id, key)).toEqual([]);
    expect(paystack.ledgerOf(secretKey)).toEqual({});
    expect((await api.request('PUT', `/connector_accounts/${mca}`, { key, body: { disabled: false } })).status).toBe(200);
    expect(chooser(await (await browser.get(link.url)).text())).toEqual(['Card', 'Bank transfer', 'USSD']);
  });
});

describe('each method pays end to end', () => {
  test('bank transfer: the account to pay into, a waiting page that only reads, then the signed return_url; table and ledger agree', async () => {
    const link = await newLink({ return_url: 'https://shop.example.com/thanks' });
    const { browser, posted } = await pay(link.url, 'bank_transfer', {});
    expect(posted.status).toBe(303);
    const complete = posted.headers.get('location') as string;
    expect(complete.startsWith(`${link.url}/complete?payment_id=pay_`)).toBe(true);
    const paymentId = new URL(complete).searchParams.get('payment_id') as string;
    const reference = paystackReference(paymentId);
    expect(paystack.entryOf(aKey, reference)).toMatchObject({ status: 'pending_bank_transfer', channel: 'bank_transfer' });
    const calls = paystack.requests.length;
    const waiting = await browser.get(complete);
    expect(waiting.status).toBe(200);
    const html = await waiting.text();
    const payment = (await api.request('GET', `/payments/${paymentId}`)).body;
    expect(payment.status).toBe('RequiresAction');
    const t = payment.next_action.bank_transfer;
    for (const shown of [t.account_number, t.bank_name, '₦2,500.00', 'Pay by bank transfer', 'I have paid — check status'])
      expect(html).toContain(shown);
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain(`href="${complete.replace(/&/g, '&amp;')}"`);
    // Reading the waiting page asks the processor nothing and changes nothing.
    await browser.get(complete);
    expect(paystack.requests.length).toBe(calls);
    expect((await api.request('GET', `/payments/${paymentId}`)).body.status).toBe('RequiresAction');
    // The payer transfers; Paystack's answer reaches the payment (here a sync; a webhook or the reconciler in production).
    paystack.completeOffline(reference, 'success', aKey);
    expect(await synced(paymentId)).toMatchObject({ status: 'Succeeded', amount: 250000, amount_captured: 250000 });
    expect(paystack.entryOf(aKey, reference)).toMatchObject({ status: 'success', amount: 250000 });
    const done = await browser.get(complete);
    expect(done.status).toBe(303);
    const landed = new URL(done.headers.get('location') as string);
    const q = Object.fromEntries(landed.searchParams);
    expect(q).toMatchObject({ payment_id: paymentId, payment_link_id: link.payment_link_id, status: 'Succeeded' });
    const fields = { payment_id: paymentId, payment_link_id: link.payment_link_id, status: 'Succeeded' };
    expect(verifyReturn(await returnSigningSecret(api.merchantId), fields, q.signature as string)).toBe(true);
    expect(await linkPayments(link.payment_link_id)).toEqual([
      expect.objectContaining({ payment_id: paymentId, payment_method: 'bank_transfer' }),
    ]);
  });

  test('USSD: the code to dial from the chosen bank, then the status page once paid', async () => {
    const link = await newLink({});
    const { browser, posted } = await pay(link.url, 'ussd', { ussd_bank_code: '058' });
    expect(posted.status).toBe(303);
    const complete = posted.headers.get('location') as string;
    const paymentId = new URL(complete).searchParams.get('payment_id') as string;
    const html = await (await browser.get(complete)).text();
    const code = (await api.request('GET', `/payments/${paymentId}`)).body.next_action.ussd.code as string;
    expect(code).toMatch(/^\*737\*/);
    expect(html).toContain('Dial to pay');
    expect(html).toContain(code);
    paystack.completeOffline(paystackReference(paymentId), 'success', aKey);
    expect((await synced(paymentId)).status).toBe('Succeeded');
    const done = await browser.get(complete);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Payment complete');
    expect(paystack.entryOf(aKey, paystackReference(paymentId))).toMatchObject({ status: 'success', channel: 'ussd', amount: 250000 });
  });

  test('mobile money (GHS, MTN): approve on the phone; the phone goes to Paystack only, never onto a page or the payment', async () => {
    const link = await newLink({ currency: 'GHS', amount: 5000 });
    const html = await (await new Browser().get(link.url)).text();
    expect(chooser(html)).toEqual(['Card', 'Mobile money']);
    const phone = '+233241234567';
    const { browser, posted } = await pay(link.url, 'mobile_money', { mobile_money_phone: '+233 24 123 4567' });
    expect(posted.status).toBe(303);
    const complete = posted.headers.get('location') as string;
    const paymentId = new URL(complete).searchParams.get('payment_id') as string;
    const waiting = await (await browser.get(complete)).text();
    expect(waiting).toContain('Approve on your phone');
    const entry = paystack.entryOf(aKey, paystackReference(paymentId));
    expect(entry).toMatchObject({ channel: 'mobile_money', amount: 5000 });
    const sent = paystack.requests.find((r) => r.path === '/charge' && JSON.stringify(r.body ?? '').includes('mobile_money'));
    expect(JSON.stringify(sent?.body)).toContain('0241234567');
    paystack.completeOffline(paystackReference(paymentId), 'success', aKey);
    expect((await synced(paymentId)).status).toBe('Succeeded');
    const final = await (await browser.get(complete)).text();
    const resource = (await api.request('GET', `/payments/${paymentId}`)).text;
    for (const text of [waiting, final, resource, complete]) {
      expect(text).not.toContain(phone);
      expect(text).not.toContain('241234567');
    }
  });
});

describe('steps and single-use links', () => {
  test('mobile money with a Telecel number: the voucher step goes to the hosted PIN/OTP step page, as for cards', async () => {
    const link = await newLink({ currency: 'GHS', amount: 5000 });
    const { browser, posted } = await pay(link.url, 'mobile_money', { mobile_money_phone: '+233201234567' });
    expect(posted.status).toBe(303);
    const step = posted.headers.get('location') as string;
    expect(step).toMatch(/\/pay\/pay_[0-9a-f]+\/authenticate$/);
    const paymentId = /pay_[0-9a-f]+/.exec(step)?.[0] as string;
    const payment = (await api.request('GET', `/payments/${paymentId}`)).body;
    expect(payment).toMatchObject({ status: 'RequiresAction', payment_method: 'mobile_money', next_action: { type: 'submit_otp' } });
    const page = await browser.get(step);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('201234567');
    expect(paystack.entryOf(aKey, paystackReference(paymentId))).toMatchObject({ channel: 'mobile_money', amount: 5000 });
  });

  test("a payment's single-use link pays it by bank transfer: its page then shows the transfer to make, and 410 once paid", async () => {
    const created = await api.request('POST', '/payments', {
      body: { amount: 450000, currency: 'NGN', description: 'Invoice 12', email: 'ada@example.com', payment_link: true },
    });
    expect(created.status).toBe(200);
    const { payment_id: paymentId, payment_link: single } = created.body as { payment_id: string; payment_link: { link: string } };
    const browser = new Browser();
    const html = await (await browser.get(single.link)).text();
    expect(chooser(html)).toEqual(['Card', 'Bank transfer', 'USSD']);
    const form = await (await browser.get(`${single.link}?payment_method=bank_transfer`)).text();
    const posted = await browser.post(single.link, { ...checkoutHidden(form), payment_method: 'bank_transfer' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toContain(`/complete?payment_id=${paymentId}`);
    const again = await browser.get(single.link);
    expect(again.status).toBe(200);
    const waiting = await again.text();
    const payment = (await api.request('GET', `/payments/${paymentId}`)).body;
    expect(payment).toMatchObject({ status: 'RequiresAction', payment_method: 'bank_transfer' });
    expect(waiting).toContain(payment.next_action.bank_transfer.account_number);
    expect(waiting).toContain('₦4,500.00');
    paystack.completeOffline(paystackReference(paymentId), 'success', aKey);
    expect((await synced(paymentId)).status).toBe('Succeeded');
    expect((await browser.get(single.link)).status).toBe(410);
    expect(paystack.entryOf(aKey, paystackReference(paymentId))).toMatchObject({ status: 'success', amount: 450000 });
  });
});

describe('mistakes and tenancy', () => {
  test('bad field input is answered 400 next to its field, creating nothing', async () => {
    const ngn = await newLink({});
    const ghs = await newLink({ currency: 'GHS', amount: 5000 });
    const cases: [string, string, Record<string, string>, string][] = [
      [ngn.url, 'ussd', {}, 'ussd_bank_code'],
      [ngn.url, 'ussd', { ussd_bank_code: '999' }, 'ussd_bank_code'],
      // Access Bank is a USSD bank, but not one Paystack serves.
      [ngn.url, 'ussd', { ussd_bank_code: '044' }, 'ussd_bank_code'],
      [ghs.url, 'mobile_money', { mobile_money_phone: '+2331' }, 'mobile_money_phone'],
      [ghs.url, 'mobile_money', { mobile_money_phone: '+254722000000' }, 'mobile_money_phone'],
      [ghs.url, 'mobile_money', { mobile_money_phone: '<b>x</b>' }, 'mobile_money_phone'],
    ];
    const before = paystack.requests.length;
    for (const [url, method, fields, field] of cases) {
      const { posted } = await pay(url, method, fields);
      expect({ status: posted.status, field }).toEqual({ status: 400, field });
      const html = await posted.text();
      expect(html).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true" aria-describedby="err-${field}"`));
      expect(html).toMatch(
        new RegExp(`</(?:select|option)>?[^]*?<p class="err" id="err-${field}">|id="${field}"[^>]*><p class="err" id="err-${field}">`),
      );
      expect(shownMethod(html)).toBe(method);
      expect(html).not.toContain('<b>x</b>');
    }
    expect(paystack.requests.length).toBe(before);
    expect(await linkPayments(ngn.payment_link_id)).toEqual([]);
    expect(await linkPayments(ghs.payment_link_id)).toEqual([]);
  });

  test("another merchant's payment is 404 on a link's waiting route; each link shows its own merchant's routing", async () => {
    const link = await newLink({});
    const { posted } = await pay(link.url, 'bank_transfer', {});
    const paymentId = new URL(posted.headers.get('location') as string).searchParams.get('payment_id') as string;
    const other = await newLink({ currency: 'KES' }, bApiKey);
    const res = await new Browser().get(`${other.url}/complete?payment_id=${paymentId}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('Pay by bank transfer');
    expect((await api.request('GET', `/payments/${paymentId}`, { key: bApiKey })).status).toBe(404);
    expect(paystack.ledgerOf(bKey)).toEqual({});
  });
});

test('the flows above logged their events at DEBUG; no secret, and no mobile-money phone, is in the log', () => {
  expectNoSecretInLog(['POST /payment_links', 'POST /connector_accounts']);
  expect(logRecords()).not.toMatch(/241234567|201234567/);
});
