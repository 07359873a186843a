/**
 * The checkout page when the processor cannot take a payment, over HTTP as a browser without JavaScript uses it,
 * against DynamoDB Local and the Paystack stand-in (a ledger per account, the truth our table is compared with):
 * - known failures (the payment's state says nothing was charged: the processor refused the request, or no processor
 *   could be called) draw the form again, fresh, with a sentence saying nothing was charged, keeping the payer's
 *   non-secret inputs and never the card number or CVC; a reusable link's place is given back at once, so a link with
 *   `max_payments: 1` stays payable by the next payer;
 * - unknown outcomes (the processor answered 5xx after doing the work; storage failing after the processor call) never
 *   say "nothing was charged" and keep the place: the payer is told the payment is being confirmed;
 * - storage failing before the processor call creates nothing and takes no place;
 * - a single-use link's expiry is judged in the confirm's claim: a post read before `expires_at` whose claim comes
 *   after it confirms and charges nothing (a controllable clock: `Date.now` moved between the post's read and its
 *   claim, by the storage client's middleware).
 */
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

/**
 * Storage faults of the process-wide DynamoDB client (the in-process handlers use it), as an unreachable table
 * shows itself (`ECONNREFUSED`): `outcomeWrite` fails the transaction that records a payment's outcome (an Update of
 * a payment item releasing its claim, with its event); `createWrite` fails the transaction that creates a payment (and
 * takes its place); `releaseWrite` fails the transaction that gives a link's place back.
 */
const faults = { outcomeWrite: false, createWrite: false, releaseWrite: false };
/** Run once, right after the first GetItem of this payment's item answers (the page's read within a post). */
let afterPaymentRead: { paymentId: string; run: () => void } | undefined;

const NOW = Date.now.bind(Date);

beforeAll(async () => {
  paystack = await startPaystackStandIn();
  // One technical failure opens an account's circuit (each test's merchant has its own accounts, so its own circuits).
  env.set({ PAYSTACK_BASE_URL: paystack.url, CONNECTOR_CONFIG_CACHE_MS: '0', CIRCUIT_FAILURE_THRESHOLD: '1' });
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        TransactItems?: { Update?: { Key?: { PK?: string }; UpdateExpression?: string }; Put?: { Item?: { PK?: string } } }[];
      };
      const items = input.TransactItems ?? [];
      const outage = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
      if (context.commandName === 'TransactWriteItemsCommand') {
        // The outcome write releases the claim (REMOVE pending_operation); the claim itself sets it.
        const outcome = (i: (typeof items)[number]) =>
          i.Update?.Key?.PK?.includes('#PAYMENT#') && /REMOVE .*\bpending_operation\b/.test(i.Update.UpdateExpression ?? '');
        if (faults.outcomeWrite && items.some(outcome)) throw outage();
        if (faults.createWrite && items.some((i) => i.Put?.Item?.PK?.includes('#PAYMENT#'))) throw outage();
        if (faults.releaseWrite && items.some((i) => String((i.Put?.Item as { SK?: unknown } | undefined)?.SK).startsWith('RELEASE#')))
          throw outage();
      }
      const out = await next(args);
      const key = JSON.stringify((args.input as { Key?: unknown }).Key ?? {});
      const hook = afterPaymentRead;
      if (hook && context.commandName === 'GetItemCommand' && key.includes(`#PAYMENT#${hook.paymentId}`)) {
        afterPaymentRead = undefined;
        hook.run();
      }
      return out;
    },
    { step: 'initialize', name: 'checkoutFaults' },
  );
  api = await startLocalApi();
});
afterEach(() => {
  faults.outcomeWrite = false;
  faults.createWrite = false;
  faults.releaseWrite = false;
  afterPaymentRead = undefined;
  jest.restoreAllMocks();
});
afterAll(async () => {
  await api?.close();
  await paystack?.close();
  env.restore();
});

/** A merchant whose one account is a fresh Paystack stand-in account; its id and key there. */
function merchant() {
  return paystackMerchant(api, paystack);
}

/** A reusable NGN card link asking the payer's e-mail, one payment at most unless told. */
async function newLink(key: string, body: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/payment_links', {
    key,
    body: {
      amount: 250000,
      currency: 'NGN',
      description: 'Ankara dress',
      payment_methods: ['card'],
      customer_fields: ['email'],
      max_payments: 1,
      ...body,
    },
  });
  expect(res.status).toBe(200);
  return res.body as { payment_link_id: string; url: string };
}

async function linkState(key: string, linkId: string) {
  return (await api.request('GET', `/payment_links/${linkId}`, { key })).body as { status: string; payments_count: number };
}

async function linkPayments(key: string, linkId: string) {
  const res = await api.request('GET', `/payments?payment_link_id=${linkId}`, { key });
  expect(res.status).toBe(200);
  return res.body.data as { payment_id: string; status: string; pending_operation: unknown; error_code: string | null }[];
}

/** Draws the page and fills its card form with an e-mail (not posted). */
async function cardFormOf(browser: Browser, url: string, number: string) {
  const page = await browser.get(url);
  expect(page.status).toBe(200);
  return { ...checkoutHidden(await page.text()), payment_method: 'card', email: 'ada@example.com', ...cardForm(number) };
}

/** Draws the page and posts the card form with an e-mail; the answer and the form as posted. */
async function pay(browser: Browser, url: string, number: string) {
  const form = await cardFormOf(browser, url, number);
  return { res: await browser.post(url, form), form };
}

/** Runs `action` with the named storage fault on, and turns it off however the action ends. */
async function withFault<T>(fault: keyof typeof faults, action: () => Promise<T>): Promise<T> {
  faults[fault] = true;
  try {
    return await action();
  } finally {
    faults[fault] = false;
  }
}

/** The reference's entry at the stand-in in any account (undefined: no account saw a charge of it). */
const chargedAnywhere = (paymentId: string) =>
  paystack
    .accounts()
    .map((a) => paystack.entryOf(a.secretKey, paystackReference(paymentId)))
    .find((e) => e !== undefined);

const CARD = PAYSTACK_TEST_CARDS.noValidation.number;

describe('a reusable link (max_payments 1) when the processor cannot take the payment', () => {
  test('the processor refuses the request (a rolled key): the form again (502), nothing charged, the place given back; the next payer pays', async () => {
    const m = await merchant();
    const link = await newLink(m.key);
    // The merchant rolled its key at Paystack: the old one is answered 401 (a refusal: nothing happens there).
    paystack.removeAccount(m.secret);
    const browser = new Browser();
    const { res, form } = await pay(browser, link.url, CARD);
    expect(res.status).toBe(502);
    const html = await res.text();
    expect(html).toContain('The payment processor could not take this payment; nothing was charged.');
    // A fresh form (a new attempt), the payer's e-mail and card name kept, never the card number or the CVC.
    const again = checkoutHidden(html);
    expect(again.attempt).not.toBe(form.attempt);
    expect(html).toContain('value="ada@example.com"');
    expect(html).toContain('value="Ada Obi"');
    expect(html).not.toContain(CARD);
    expect(html).not.toContain('value="123"');
    const [failed] = await linkPayments(m.key, link.payment_link_id);
    expect(failed).toMatchObject({ status: 'Failed', pending_operation: null });
    expect(chargedAnywhere(failed!.payment_id)).toBeUndefined();
    // The place is back at once: the link is payable.
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 0 });
    // The merchant sets its new key; the next payer pays and uses the link up.
    const fresh = paystack.addAccount().secretKey;
    const put = await api.request('PUT', `/connector_accounts/${m.accountId}`, {
      key: m.key,
      body: { connector_account_details: { api_key: fresh } },
    });
    expect(put.status).toBe(200);
    const next = await pay(new Browser(), link.url, CARD);
    expect(next.res.status).toBe(303);
    const paid = new URL(next.res.headers.get('location') as string).searchParams.get('payment_id') as string;
    expect((await api.request('GET', `/payments/${paid}`, { key: m.key })).body.status).toBe('Succeeded');
    expect(paystack.entryOf(fresh, paystackReference(paid))).toMatchObject({ status: 'success', amount: 250000 });
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
  });

  test('storage failing on the give-back after a refusal: the page still says nothing was charged; the place is given back on return', async () => {
    const m = await merchant();
    const link = await newLink(m.key);
    paystack.removeAccount(m.secret);
    const { res } = await withFault('releaseWrite', () => pay(new Browser(), link.url, CARD));
    expect(res.status).toBe(502);
    expect(await res.text()).toContain('nothing was charged');
    const [failed] = await linkPayments(m.key, link.payment_link_id);
    expect(failed).toMatchObject({ status: 'Failed', pending_operation: null });
    expect(chargedAnywhere(failed!.payment_id)).toBeUndefined();
    // The place is still taken (its give-back failed); the completion route of that payment gives it back, once.
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ payments_count: 1 });
    const back = await new Browser().get(`${link.url}/complete?payment_id=${failed!.payment_id}`);
    expect(back.status).toBe(200);
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 0 });
  });

  test('no processor can be called (its circuit open): the form again (503, Retry-After), nothing created or charged', async () => {
    const m = await merchant();
    const link = await newLink(m.key, { max_payments: 2 });
    // A first payer meets a 500 from Paystack before it did anything: a technical failure (the circuit opens), an
    // outcome not known here (the payment stays Processing and keeps its place).
    paystack.failNext({ method: 'POST', path: '/charge', secretKey: m.secret }, 'error_500_before_work');
    const first = await pay(new Browser(), link.url, CARD);
    expect(first.res.status).toBe(303);
    const [unknown] = await linkPayments(m.key, link.payment_link_id);
    expect(unknown).toMatchObject({ status: 'Processing', error_code: 'connector_unreachable' });
    const requests = paystack.requests.length;
    const { res, form } = await pay(new Browser(), link.url, CARD);
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const html = await res.text();
    expect(html).toContain('We could not reach the payment processor; nothing was charged. Try again.');
    expect(checkoutHidden(html).attempt).not.toBe(form.attempt);
    expect(html).not.toContain(CARD);
    // Nothing was created, sent or taken: one payment (the first payer's), one place.
    expect(paystack.requests.length).toBe(requests);
    expect(await linkPayments(m.key, link.payment_link_id)).toHaveLength(1);
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 1 });
  });

  test('the processor did the work but answered 500 (outcome unknown): never "nothing was charged", the place is kept', async () => {
    const m = await merchant();
    const link = await newLink(m.key);
    paystack.failNext({ method: 'POST', path: '/charge', secretKey: m.secret }, 'error_500_after_work');
    const browser = new Browser();
    const { res } = await pay(browser, link.url, CARD);
    expect(res.status).toBe(303);
    const status = await browser.get(res.headers.get('location') as string);
    const html = await status.text();
    expect(html).toContain('Payment pending');
    expect(html).toContain('Do not pay again');
    expect(html).not.toContain('nothing was charged');
    expect(html).not.toContain('No money was taken');
    const [payment] = await linkPayments(m.key, link.payment_link_id);
    expect(payment).toMatchObject({ status: 'Processing', error_code: 'connector_unreachable' });
    // The stand-in charged it: the place stays taken, the link used up.
    expect(paystack.entryOf(m.secret, paystackReference(payment!.payment_id))).toMatchObject({ status: 'success' });
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
    expect((await new Browser().get(link.url)).status).toBe(410);
  });

  test('a connection refused at the only connector: Processing by the API\'s rules (the reconciler settles it), so never "nothing was charged"', async () => {
    const m = await merchant();
    const link = await newLink(m.key);
    await paystack.setDown('refuse');
    let res: Response;
    const browser = new Browser();
    try {
      res = (await pay(browser, link.url, CARD)).res;
    } finally {
      await paystack.setDown(false);
    }
    expect(res.status).toBe(303);
    const html = await (await browser.get(res.headers.get('location') as string)).text();
    expect(html).toContain('Payment pending');
    expect(html).not.toContain('nothing was charged');
    const [payment] = await linkPayments(m.key, link.payment_link_id);
    expect(payment).toMatchObject({ status: 'Processing', error_code: 'connector_unreachable' });
    expect(chargedAnywhere(payment!.payment_id)).toBeUndefined();
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ payments_count: 1 });
  });

  test('storage failing after the processor call: the waiting view (202), never "nothing was charged", the place is kept', async () => {
    const m = await merchant();
    const link = await newLink(m.key);
    const browser = new Browser();
    const form = await cardFormOf(browser, link.url, CARD);
    const res = await withFault('outcomeWrite', () => browser.post(link.url, form));
    expect(res.status).toBe(202);
    const html = await res.text();
    expect(html).toContain('We are confirming this payment with the payment processor.');
    expect(html).toContain('Do not pay again');
    expect(html).toContain('₦2,500.00');
    expect(html).not.toContain('nothing was charged');
    expect(html).not.toContain(CARD);
    const [payment] = await linkPayments(m.key, link.payment_link_id);
    expect(payment).toMatchObject({ status: 'Processing' });
    expect(payment!.pending_operation).not.toBeNull();
    expect(html).toContain(`payment_id=${payment!.payment_id}`);
    expect(paystack.entryOf(m.secret, paystackReference(payment!.payment_id))).toMatchObject({ status: 'success', amount: 250000 });
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
  });

  test('storage failing before the processor call (the create): 503, nothing created, charged or taken; the retry pays', async () => {
    const m = await merchant();
    const link = await newLink(m.key);
    const browser = new Browser();
    const form = await cardFormOf(browser, link.url, CARD);
    const requests = paystack.requests.length;
    const res = await withFault('createWrite', () => browser.post(link.url, form));
    expect(res.status).toBe(503);
    expect(paystack.requests.length).toBe(requests);
    expect(await linkPayments(m.key, link.payment_link_id)).toEqual([]);
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'active', payments_count: 0 });
    const retried = await browser.post(link.url, form);
    expect(retried.status).toBe(303);
    expect(await linkState(m.key, link.payment_link_id)).toMatchObject({ status: 'completed', payments_count: 1 });
  });
});

describe("a payment's single-use link", () => {
  async function linkedPayment(key: string, body: Record<string, unknown> = {}) {
    const res = await api.request('POST', '/payments', {
      key,
      body: { amount: 450000, currency: 'NGN', description: 'Invoice 12', email: 'ada@example.com', payment_link: true, ...body },
    });
    expect(res.status).toBe(200);
    return res.body as { payment_id: string; payment_link: { payment_link_id: string; link: string; expires_at: string } };
  }

  test('a post read before expires_at whose confirm claims after it: 410, nothing confirmed or charged', async () => {
    const m = await merchant();
    const p = await linkedPayment(m.key, { session_expiry: 60 });
    const expires = Date.parse(p.payment_link.expires_at);
    const browser = new Browser();
    jest.spyOn(Date, 'now').mockImplementation(() => Math.max(NOW(), expires - 1000));
    const page = await browser.get(p.payment_link.link);
    expect(page.status).toBe(200);
    const form = { ...checkoutHidden(await page.text()), ...cardForm(CARD) };
    // The post reads the link and its payment while it is open; the clock passes expires_at right after that read.
    afterPaymentRead = {
      paymentId: p.payment_id,
      run: () => {
        jest.spyOn(Date, 'now').mockImplementation(() => Math.max(NOW(), expires));
      },
    };
    const posted = await browser.post(p.payment_link.link, form);
    expect(afterPaymentRead).toBeUndefined();
    expect(posted.status).toBe(410);
    expect(await posted.text()).toContain('This payment link has expired.');
    jest.restoreAllMocks();
    const after = (await api.request('GET', `/payments/${p.payment_id}`, { key: m.key })).body;
    expect(after).toMatchObject({ status: 'RequiresConfirmation', attempts: [], pending_operation: null });
    expect(chargedAnywhere(p.payment_id)).toBeUndefined();
  });

  test('the processor refuses the confirm: 410 saying nothing was charged (the payment is Failed for good)', async () => {
    const m = await merchant();
    const p = await linkedPayment(m.key);
    paystack.removeAccount(m.secret);
    const browser = new Browser();
    const form = { ...checkoutHidden(await (await browser.get(p.payment_link.link)).text()), ...cardForm(CARD) };
    const posted = await browser.post(p.payment_link.link, form);
    expect(posted.status).toBe(410);
    const html = await posted.text();
    expect(html).toContain('The payment processor could not take this payment.');
    expect(html).toContain('No money was taken.');
    expect((await api.request('GET', `/payments/${p.payment_id}`, { key: m.key })).body).toMatchObject({
      status: 'Failed',
      pending_operation: null,
    });
    expect(chargedAnywhere(p.payment_id)).toBeUndefined();
  });

  test('storage failing after the processor call: the waiting view (202), the payment Processing with its claim', async () => {
    const m = await merchant();
    const p = await linkedPayment(m.key);
    const browser = new Browser();
    const form = { ...checkoutHidden(await (await browser.get(p.payment_link.link)).text()), ...cardForm(CARD) };
    const posted = await withFault('outcomeWrite', () => browser.post(p.payment_link.link, form));
    expect(posted.status).toBe(202);
    const html = await posted.text();
    expect(html).toContain('We are confirming this payment with the payment processor.');
    expect(html).not.toContain('nothing was charged');
    const after = (await api.request('GET', `/payments/${p.payment_id}`, { key: m.key })).body;
    expect(after.status).toBe('Processing');
    expect(after.pending_operation).not.toBeNull();
    expect(paystack.entryOf(m.secret, paystackReference(p.payment_id))).toMatchObject({ status: 'success' });
  });
});
