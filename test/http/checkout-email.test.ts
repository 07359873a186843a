/**
 * The checkout page asks the payer's e-mail when the payment it would make could be routed to a processor that refuses
 * a charge without one (Paystack, Flutterwave: `CONNECTOR_CAPABILITIES[…].requires_payer_email`) and no e-mail is
 * known, over HTTP as a browser without JavaScript uses it, against DynamoDB Local and the Paystack and Stripe
 * stand-ins (a ledger per account): a link without `customer_fields` routed to Paystack asks it and pays with it (the
 * stand-in's ledger holds the charge under that e-mail); routed to Stripe or the sandbox the page is as before; a
 * Paystack fallback behind the sandbox is enough to ask, also when only the amount the payer chose reaches it; a missing or malformed e-mail is answered 400 next to its field,
 * creating nothing; a single-use link whose payment's customer has an e-mail does not ask, and its charge carries it.
 */
import { paystackReference } from '../../shared/connectors/paystack/references';
import { Browser, cardForm, checkoutHidden } from '../helpers/checkout-browser';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackStandIn;
let stripe: StripeStandIn;

beforeAll(async () => {
  paystack = await startPaystackStandIn();
  stripe = await startStripeStandIn();
  env.set({ PAYSTACK_BASE_URL: paystack.url, STRIPE_BASE_URL: stripe.url, CONNECTOR_CONFIG_CACHE_MS: '0' });
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
  await paystack?.close();
  await stripe?.close();
  env.restore();
});

/** Connects an account of `connector` to the merchant of `key`; returns the account's key at its stand-in ('' for the sandbox). */
async function connect(key: string, connector: 'paystack' | 'stripe' | 'sandbox'): Promise<string> {
  let details: Record<string, unknown> = {};
  let secret = '';
  if (connector === 'paystack') {
    secret = paystack.addAccount().secretKey;
    details = { connector_account_details: { api_key: secret } };
  } else if (connector === 'stripe') {
    const s = stripe.addAccount();
    secret = s.secretKey;
    details = { connector_account_details: { api_key: s.secretKey }, connector_webhook_details: { merchant_secret: s.webhookSecret } };
  }
  const res = await api.request('POST', '/connector_accounts', { key, body: { connector_name: connector, ...details } });
  expect(res.status).toBe(200);
  return secret;
}

/** A merchant whose accounts are `connectors`, in this order (the default fallback list is creation order). */
async function merchant(...connectors: ('paystack' | 'stripe' | 'sandbox')[]): Promise<{ key: string; secrets: string[] }> {
  const key = await api.newMerchantKey();
  const secrets: string[] = [];
  for (const c of connectors) secrets.push(await connect(key, c));
  return { key, secrets };
}

/** A reusable NGN card link without `customer_fields`. */
async function newLink(key: string, body: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/payment_links', {
    key,
    body: { amount: 250000, currency: 'NGN', description: 'Ankara dress', payment_methods: ['card'], ...body },
  });
  expect(res.status).toBe(200);
  return res.body as { payment_link_id: string; url: string };
}

/** The ids of the page's visible inputs, in order. */
const inputIds = (html: string) => [...html.matchAll(/<input id="([a-z_]+)"/g)].map((m) => m[1]);
const CARD_INPUTS = ['card_name', 'card_number', 'card_exp_month', 'card_exp_year', 'card_cvc'];

async function linkPayments(key: string, linkId: string) {
  const res = await api.request('GET', `/payments?payment_link_id=${linkId}`, { key });
  expect(res.status).toBe(200);
  return res.body.data as { payment_id: string; status: string; email: string | null }[];
}

/** The payment id on the completion route a post was sent to. */
const paymentIdOf = (posted: Response) => new URL(posted.headers.get('location') as string).searchParams.get('payment_id') as string;

describe('a link without customer_fields', () => {
  test('routed to Paystack: the page asks the e-mail (labelled, type email, autofill email, required) and the charge carries it', async () => {
    const m = await merchant('paystack');
    const link = await newLink(m.key);
    const browser = new Browser();
    const page = await browser.get(link.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(60 * 1024);
    expect(inputIds(html)).toEqual(['email', ...CARD_INPUTS]);
    expect(html).toContain('<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" required>');
    const posted = await browser.post(link.url, {
      ...checkoutHidden(html),
      payment_method: 'card',
      email: 'ada@example.com',
      ...cardForm(PAYSTACK_TEST_CARDS.noValidation.number),
    });
    expect(posted.status).toBe(303);
    const paymentId = paymentIdOf(posted);
    const payment = (await api.request('GET', `/payments/${paymentId}`, { key: m.key })).body;
    expect(payment).toMatchObject({
      status: 'Succeeded',
      connector: 'paystack',
      email: 'ada@example.com',
      payment_link_id: link.payment_link_id,
    });
    expect(paystack.entryOf(m.secrets[0] as string, paystackReference(paymentId))).toMatchObject({
      status: 'success',
      amount: 250000,
      email: 'ada@example.com',
      channel: 'card',
    });
  });

  test.each([
    'stripe',
    'sandbox',
  ] as const)('routed to %s: no e-mail asked, the page as before, and paying needs none', async (connector) => {
    const m = await merchant(connector);
    const link = await newLink(m.key);
    const browser = new Browser();
    const html = await (await browser.get(link.url)).text();
    expect(inputIds(html)).toEqual(CARD_INPUTS);
    expect(html).not.toContain('name="email"');
    const posted = await browser.post(link.url, { ...checkoutHidden(html), payment_method: 'card', ...cardForm('4242424242424242') });
    expect(posted.status).toBe(303);
    const payment = (await api.request('GET', `/payments/${paymentIdOf(posted)}`, { key: m.key })).body;
    expect(payment).toMatchObject({ status: 'Succeeded', connector, email: null });
  });

  test('a Paystack account behind the sandbox (a fallback routing could try) is enough to ask', async () => {
    const m = await merchant('sandbox', 'paystack');
    const html = await (await new Browser().get((await newLink(m.key)).url)).text();
    expect(inputIds(html)).toEqual(['email', ...CARD_INPUTS]);
  });

  test('a missing or malformed e-mail is answered 400 next to its field; nothing is created and no card data is written back', async () => {
    const m = await merchant('paystack');
    const link = await newLink(m.key);
    const browser = new Browser();
    const html = await (await browser.get(link.url)).text();
    const before = paystack.requests.length;
    const card = cardForm(PAYSTACK_TEST_CARDS.noValidation.number);
    for (const email of [undefined, '', 'not-an-email', '<b>x</b>@', 'ada@example.com\n<script>']) {
      const posted = await browser.post(link.url, {
        ...checkoutHidden(html),
        payment_method: 'card',
        ...(email === undefined ? {} : { email }),
        ...card,
      });
      expect({ email, status: posted.status }).toEqual({ email, status: 400 });
      const page = await posted.text();
      expect(page).toMatch(
        /<input id="email" name="email" type="email" autocomplete="email" required[^>]* aria-invalid="true" aria-describedby="err-email">/,
      );
      expect(page).toMatch(
        /aria-describedby="err-email"><p class="err" id="err-email">Enter your e-mail address, like name@example.com.<\/p>/,
      );
      expect(page).toContain('role="alert"');
      expect(page).not.toContain(card.card_number);
      expect(page).not.toContain(`value="${card.card_cvc}"`);
      expect(page).not.toContain('<b>x</b>');
      expect(page).not.toContain('<script>');
    }
    expect(await linkPayments(m.key, link.payment_link_id)).toEqual([]);
    expect(paystack.requests.length).toBe(before);
    expect(paystack.ledgerOf(m.secrets[0] as string)).toEqual({});
  });
});

describe('a link whose payer chooses the amount', () => {
  test('a Paystack fallback enabled only inside the range: not asked at first; the amount chosen routes to it, so the post asks it (400 by the field), then pays', async () => {
    const key = await api.newMerchantKey();
    await connect(key, 'sandbox');
    const secret = paystack.addAccount().secretKey;
    const res = await api.request('POST', '/connector_accounts', {
      key,
      body: {
        connector_name: 'paystack',
        connector_account_details: { api_key: secret },
        payment_methods_enabled: [{ payment_method: 'card', currencies: ['NGN'], minimum_amount: 100000, maximum_amount: 200000 }],
      },
    });
    expect(res.status).toBe(200);
    const link = await newLink(key, { amount: undefined, amount_min: 1000, amount_max: 500000 });
    const browser = new Browser();
    const html = await (await browser.get(link.url)).text();
    expect(inputIds(html)).toEqual(['amount', ...CARD_INPUTS]);
    const card = cardForm('4242424242424242');
    // At the range's ends only the sandbox takes the payment: no e-mail is needed, and none is asked.
    const low = await browser.post(link.url, { ...checkoutHidden(html), payment_method: 'card', amount: '10', ...card });
    expect(low.status).toBe(303);
    // A fresh drawing (its own attempt id) for the next payment.
    const fresh = await (await browser.get(link.url)).text();
    expect(inputIds(fresh)).toEqual(['amount', ...CARD_INPUTS]);
    const asked = await browser.post(link.url, { ...checkoutHidden(fresh), payment_method: 'card', amount: '1500', ...card });
    expect(asked.status).toBe(400);
    const again = await asked.text();
    expect(inputIds(again)).toEqual(['amount', 'email', ...CARD_INPUTS]);
    expect(again).toContain('<p class="err" id="err-email">');
    expect((await linkPayments(key, link.payment_link_id)).map((p) => p.email)).toEqual([null]);
    const posted = await browser.post(link.url, {
      ...checkoutHidden(again),
      payment_method: 'card',
      amount: '1500',
      email: 'dayo@example.com',
      ...card,
    });
    expect(posted.status).toBe(303);
    const payment = (await api.request('GET', `/payments/${paymentIdOf(posted)}`, { key })).body;
    expect(payment).toMatchObject({ status: 'Succeeded', amount: 150000, connector: 'sandbox', email: 'dayo@example.com' });
  });
});

describe("a payment's single-use link", () => {
  async function singleUse(key: string, body: Record<string, unknown>) {
    const created = await api.request('POST', '/payments', {
      key,
      body: { amount: 450000, currency: 'NGN', description: 'Invoice 12', payment_link: true, ...body },
    });
    expect(created.status).toBe(200);
    return created.body as { payment_id: string; payment_link: { link: string } };
  }

  test('whose customer has an e-mail: not asked; the charge at Paystack carries the customer’s e-mail', async () => {
    const m = await merchant('paystack');
    const customer = await api.request('POST', '/customers', { key: m.key, body: { email: 'bola@example.com', name: 'Bola' } });
    expect(customer.status).toBe(200);
    const single = await singleUse(m.key, { customer_id: customer.body.customer_id });
    const browser = new Browser();
    const html = await (await browser.get(single.payment_link.link)).text();
    expect(inputIds(html)).toEqual(CARD_INPUTS);
    const posted = await browser.post(single.payment_link.link, {
      ...checkoutHidden(html),
      payment_method: 'card',
      ...cardForm(PAYSTACK_TEST_CARDS.noValidation.number),
    });
    expect(posted.status).toBe(303);
    const payment = (await api.request('GET', `/payments/${single.payment_id}`, { key: m.key })).body;
    expect(payment).toMatchObject({ status: 'Succeeded', connector: 'paystack', email: 'bola@example.com' });
    expect(paystack.entryOf(m.secrets[0] as string, paystackReference(single.payment_id))).toMatchObject({
      status: 'success',
      amount: 450000,
      email: 'bola@example.com',
    });
  });

  test('with no e-mail known: asked, refused 400 without one (the payment still awaiting its confirm), then paid with the one typed', async () => {
    const m = await merchant('paystack');
    const single = await singleUse(m.key, {});
    const browser = new Browser();
    const html = await (await browser.get(single.payment_link.link)).text();
    expect(inputIds(html)).toEqual(['email', ...CARD_INPUTS]);
    const card = cardForm(PAYSTACK_TEST_CARDS.noValidation.number);
    const refused = await browser.post(single.payment_link.link, { ...checkoutHidden(html), payment_method: 'card', ...card });
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain('<p class="err" id="err-email">');
    expect((await api.request('GET', `/payments/${single.payment_id}`, { key: m.key })).body.status).toBe('RequiresConfirmation');
    expect(paystack.ledgerOf(m.secrets[0] as string)).toEqual({});
    const posted = await browser.post(single.payment_link.link, {
      ...checkoutHidden(again),
      payment_method: 'card',
      email: 'chi@example.com',
      ...card,
    });
    expect(posted.status).toBe(303);
    const payment = (await api.request('GET', `/payments/${single.payment_id}`, { key: m.key })).body;
    expect(payment).toMatchObject({ status: 'Succeeded', email: 'chi@example.com' });
    expect(paystack.entryOf(m.secrets[0] as string, paystackReference(single.payment_id))).toMatchObject({ email: 'chi@example.com' });
  });
});
