/**
 * A payment link's checkout in a real browser: Debian's Chromium driven through puppeteer-core (no browser download),
 * against the local gateway and DynamoDB Local. A payer opens a reusable link, pays with the sandbox's 3-D Secure card,
 * approves the challenge and lands on the merchant's `return_url` with a valid signature; the same with JavaScript
 * turned off; with JavaScript off, a bank transfer chosen by its link shows the transfer to make; a merchant routed to
 * Paystack (the stand-in) is asked the payer's e-mail, a bad one is announced by its field, a good one pays; a
 * deactivated link answers 410. axe-core checks every page on the way: no serious or critical
 * violation. The pages must also run with no Content-Security-Policy violation.
 *
 * Runs when Chromium is installed (`CHROMIUM_PATH`, else `chromium` or `chromium-browser` on the PATH; `.ci/run`
 * installs it); otherwise the suite is skipped and says so.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { paystackReference } from '../../shared/connectors/paystack/references';
import { returnSigningSecret, verifyReturn } from '../../shared/security/checkout-return-signature';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';

/** The Chromium to drive, or undefined when none is installed. */
function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not on the PATH
    }
  }
  return undefined;
}

const CHROMIUM = chromiumPath();
if (!CHROMIUM) {
  // Said plainly in the test output: this suite did not run.
  console.warn(
    'SKIPPED test/browser/checkout.browser.test.ts: Chromium is not installed (apt-get install -y chromium, or set CHROMIUM_PATH).',
  );
}
const describeWithChromium = CHROMIUM ? describe : describe.skip;

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const nextYear = String(new Date().getUTCFullYear() + 2);

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackStandIn;
let browser: Browser;
let shop: Server;
let shopUrl: string;

describeWithChromium(`checkout in Chromium (${CHROMIUM ?? 'not installed'})`, () => {
  beforeAll(async () => {
    paystack = await startPaystackStandIn();
    env.set({ PAYSTACK_BASE_URL: paystack.url });
    api = await startLocalApi();
    // The merchant's shop: where return_url points.
    shop = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><head><title>Thanks</title></head><body><main><h1>Thank you</h1></main></body></html>');
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    const puppeteer = await import('puppeteer-core');
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Root in CI containers has no user namespaces for Chromium's sandbox.
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => shop?.close(resolve));
    await api?.close();
    await paystack?.close();
    env.restore();
  });

  async function newLink(body: Record<string, unknown> = {}) {
    const res = await api.request('POST', '/payment_links', {
      body: { amount: 250000, currency: 'NGN', description: 'Ankara dress, size 12', return_url: `${shopUrl}/thanks?order=7`, ...body },
    });
    expect(res.status).toBe(200);
    return res.body as { payment_link_id: string; url: string };
  }

  /** A fresh page that records Content-Security-Policy violations reported on its console. */
  async function newPage(javaScript: boolean): Promise<{ page: Page; cspViolations: string[] }> {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 360, height: 740 });
    await page.setJavaScriptEnabled(javaScript);
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return { page, cspViolations };
  }

  /**
   * axe-core on the page as it is: its serious and critical violations (rule ids and targets). axe is evaluated
   * through the DevTools protocol, which the page's CSP does not govern, so the page keeps its own policy.
   */
  async function seriousViolations(page: Page): Promise<string[]> {
    const jsOn = await page.evaluate(() => true).catch(() => false);
    expect(jsOn).toBe(true);
    await page.evaluate(AXE_SOURCE);
    const result = (await page.evaluate(() =>
      (globalThis as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } }).axe.run(
        (globalThis as unknown as { document: unknown }).document,
        {
          resultTypes: ['violations'],
        },
      ),
    )) as { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  async function fillCard(page: Page, number: string): Promise<void> {
    await page.type('#card_name', 'Ada Obi');
    await page.type('#card_number', number);
    await page.type('#card_exp_month', '12');
    await page.type('#card_exp_year', nextYear);
    await page.type('#card_cvc', '123');
  }

  /** Whether the signed return is valid for this merchant. */
  async function signedReturn(url: URL, linkId: string): Promise<boolean> {
    const q = url.searchParams;
    return verifyReturn(
      await returnSigningSecret(api.merchantId),
      { payment_id: q.get('payment_id') ?? '', payment_link_id: linkId, status: q.get('status') ?? '' },
      q.get('signature') ?? '',
    );
  }

  /**
   * Opens the link, pays with the 3-D Secure card and approves the challenge; axe runs on the checkout page and the
   * challenge page (on a page without JavaScript, axe runs in a second page of the same URL with JavaScript on).
   */
  async function payThrough3ds(javaScript: boolean) {
    const link = await newLink();
    const { page, cspViolations } = await newPage(javaScript);
    const audit = async (url: string) => {
      if (javaScript) return seriousViolations(page);
      const { page: twin } = await newPage(true);
      await twin.goto(url);
      const found = await seriousViolations(twin);
      await twin.close();
      return found;
    };
    const opened = await page.goto(link.url);
    expect(opened?.status()).toBe(200);
    expect(await audit(link.url)).toEqual([]);
    await fillCard(page, '4000000000003220');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(page.url()).toMatch(/\/sandbox\/3ds\/pay_/);
    expect(await audit(page.url())).toEqual([]);
    await Promise.all([page.waitForNavigation(), page.click('button[value=approve]')]);
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}`).toBe(`${shopUrl}/thanks`);
    expect(landed.searchParams.get('order')).toBe('7');
    expect(landed.searchParams.get('status')).toBe('Succeeded');
    expect(landed.searchParams.get('payment_link_id')).toBe(link.payment_link_id);
    expect(await signedReturn(landed, link.payment_link_id)).toBe(true);
    expect(cspViolations).toEqual([]);
    const payments = await api.request('GET', `/payments?payment_link_id=${link.payment_link_id}`);
    expect(payments.body.data).toEqual([
      expect.objectContaining({ payment_id: landed.searchParams.get('payment_id'), status: 'Succeeded', amount: 250000 }),
    ]);
    await page.browserContext().close();
  }

  test('pays a reusable link with a sandbox card through 3-D Secure and lands on the signed return_url', async () => {
    await payThrough3ds(true);
  }, 240_000);

  test('the same with JavaScript turned off', async () => {
    await payThrough3ds(false);
  }, 240_000);

  test('with JavaScript off, chooses bank transfer by its link, pays, and reads the transfer to make on a waiting page that re-reads it by a link; axe finds nothing serious', async () => {
    const link = await newLink();
    const { page, cspViolations } = await newPage(false);
    await page.goto(link.url);
    await Promise.all([page.waitForNavigation(), page.click('a[href="?payment_method=bank_transfer"]')]);
    expect(await page.$eval('legend', (e) => e.textContent)).toBe('Bank transfer');
    const { page: twin } = await newPage(true);
    await twin.goto(page.url());
    expect(await seriousViolations(twin)).toEqual([]);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(page.url()).toContain(`${link.url}/complete?payment_id=pay_`);
    expect(await page.$eval('h1', (e) => e.textContent)).toBe('Pay by bank transfer');
    const paymentId = new URL(page.url()).searchParams.get('payment_id') as string;
    const payment = (await api.request('GET', `/payments/${paymentId}`)).body;
    expect(payment.status).toBe('RequiresAction');
    expect(await page.$eval('main', (e) => e.textContent)).toContain(payment.next_action.bank_transfer.account_number);
    expect(await page.$eval('a.button', (e) => e.textContent)).toBe('I have paid — check status');
    // The link re-reads the payment: still waiting, the same page (nothing confirmed again).
    await Promise.all([page.waitForNavigation(), page.click('a.button')]);
    expect(await page.$eval('h1', (e) => e.textContent)).toBe('Pay by bank transfer');
    expect((await api.request('GET', `/payments/${paymentId}`)).body.attempts).toHaveLength(payment.attempts.length);
    await twin.goto(page.url());
    expect(await seriousViolations(twin)).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.browserContext().close();
    await twin.browserContext().close();
  }, 120_000);

  test('a mistake is shown by its field, and axe finds nothing serious on the form with errors', async () => {
    const link = await newLink();
    const { page } = await newPage(true);
    await page.goto(link.url);
    await fillCard(page, '4242424242424241');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.$eval('#card_number', (e) => e.getAttribute('aria-invalid'))).toBe('true');
    expect(await page.$eval('#err-card_number', (e) => e.textContent)).toContain('card number');
    expect(await page.$eval('#card_number', (e) => (e as unknown as { value: string }).value)).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await page.browserContext().close();
  }, 240_000);

  test("routed to Paystack with no e-mail known: a labelled e-mail field, a bad e-mail announced by it, a good one pays and is in Paystack's ledger", async () => {
    const key = await api.newMerchantKey();
    const { secretKey } = paystack.addAccount();
    const account = { connector_name: 'paystack', connector_account_details: { api_key: secretKey } };
    expect((await api.request('POST', '/connector_accounts', { key, body: account })).status).toBe(200);
    const link = (
      await api.request('POST', '/payment_links', { key, body: { amount: 250000, currency: 'NGN', description: 'Ankara dress' } })
    ).body as { payment_link_id: string; url: string };
    const { page, cspViolations } = await newPage(true);
    await page.goto(link.url);
    // Found by its accessible name: the label is tied to the field.
    expect(await (await page.$('aria/E-mail[role="textbox"]'))?.evaluate((e) => e.id)).toBe('email');
    expect(await seriousViolations(page)).toEqual([]);
    const submit = async (email: string) => {
      await page.$$eval('input:not([type=hidden])', (inputs) => {
        for (const i of inputs) (i as unknown as { value: string }).value = '';
      });
      await page.type('#email', email);
      await fillCard(page, PAYSTACK_TEST_CARDS.noValidation.number);
      await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    };
    await submit('ada@example');
    const described = await page.$eval('#email', (e) => [e.getAttribute('aria-invalid'), e.getAttribute('aria-describedby')]);
    expect(described).toEqual(['true', 'err-email']);
    expect(await page.$eval('#err-email', (e) => e.textContent)).toBe('Enter your e-mail address, like name@example.com.');
    expect(await seriousViolations(page)).toEqual([]);
    await submit('ada@example.com');
    expect(await page.$eval('h1', (e) => e.textContent)).toBe('Payment complete');
    const [payment] = (await api.request('GET', `/payments?payment_link_id=${link.payment_link_id}`, { key })).body.data;
    expect(payment).toMatchObject({ status: 'Succeeded', connector: 'paystack', email: 'ada@example.com' });
    const charge = paystack.entryOf(secretKey, paystackReference(payment.payment_id));
    expect(charge).toMatchObject({ status: 'success', amount: 250000, email: 'ada@example.com' });
    expect(cspViolations).toEqual([]);
    await page.browserContext().close();
  }, 240_000);

  test('a deactivated link answers 410 with its sentence; axe finds nothing serious', async () => {
    const link = await newLink();
    expect((await api.request('POST', `/payment_links/${link.payment_link_id}/deactivate`)).status).toBe(200);
    const { page } = await newPage(true);
    const res = await page.goto(link.url);
    expect(res?.status()).toBe(410);
    expect(await page.$eval('main', (e) => e.textContent)).toContain('turned off by the merchant');
    expect(await seriousViolations(page)).toEqual([]);
    await page.browserContext().close();
  }, 240_000);
  test("a payment's single-use link in the merchant's colours: axe finds nothing serious, it pays that payment with JavaScript off, then answers 410", async () => {
    // A light brand colour: the page must pick dark text for contrast (axe checks color-contrast).
    const key = await api.newMerchantKey();
    const put = await api.request('PUT', '/merchant_profile', { key, body: { display_name: 'Ada <Fabrics>', brand_color: '#ffde00' } });
    expect(put.status).toBe(200);
    const created = await api.request('POST', '/payments', {
      key,
      body: { amount: 450000, currency: 'NGN', description: 'Invoice 12', payment_link: true },
    });
    const link = created.body.payment_link as { link: string };
    const { page: twin } = await newPage(true);
    expect((await twin.goto(link.link))?.status()).toBe(200);
    expect(await twin.$eval('header', (e) => e.textContent)).toBe('Ada <Fabrics>');
    expect(await seriousViolations(twin)).toEqual([]);
    const { page, cspViolations } = await newPage(false);
    await page.goto(link.link);
    await fillCard(page, '4242424242424242');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.$eval('h1', (e) => e.textContent)).toBe('Payment complete');
    expect(cspViolations).toEqual([]);
    const paid = await api.request('GET', `/payments/${created.body.payment_id}`, { key });
    expect(paid.body.status).toBe('Succeeded');
    expect((await twin.goto(link.link))?.status()).toBe(410);
    expect(await seriousViolations(twin)).toEqual([]);
    await page.browserContext().close();
    await twin.browserContext().close();
  }, 240_000);
});

// Jest needs a test in a file: when Chromium is absent the suite above is skipped and this says why.
(CHROMIUM ? test.skip : test)('browser checkout suite skipped: Chromium is not installed', () => {
  expect(CHROMIUM).toBeUndefined();
});
