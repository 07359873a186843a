/**
 * The sandbox's hosted page acts only on the step it shows (a payment waiting on a
 * PIN, an OTP, a bank transfer or the other page is neither approved nor declined there), and never
 * reports money on a payment the API closed (an approve racing a cancel raises no money mismatch). Its form carries
 * a CSRF token: a post without the page's token is refused 403 and changes nothing.
 */
import * as metrics from '../../shared/observability/metrics';
import { getSandboxDecision } from '../../shared/storage/sandbox-decisions-repository';
import { Browser, formCsrfToken, sandboxPageCsrf, stepFormCsrf } from '../helpers/checkout-browser';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
let mismatches: jest.SpyInstance;
beforeAll(async () => {
  // The sandbox's own delayed webhook for offline methods stays off: only the pages act here.
  process.env.SANDBOX_WEBHOOKS = 'off';
  mismatches = jest.spyOn(metrics, 'recordMoneyMismatch');
  api = await startLocalApi();
});
afterAll(async () => {
  mismatches.mockRestore();
  delete process.env.SANDBOX_WEBHOOKS;
  await api.close();
});

async function confirmed(body: Record<string, unknown>) {
  const res = await api.request('POST', '/payments', { body: { amount: 900, currency: 'NGN', confirm: true, ...body } });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200, body: { status: 'RequiresAction' } });
  return res.body as { payment_id: string; next_action: { type: string; redirect_to_url?: string } };
}

const page = (kind: string, paymentId: string) => `${api.url}/sandbox/${kind}/${paymentId}`;
/** A post of the page's form with a valid CSRF token, as the page (drawn or not) would have written it. */
const decide = async (kind: string, paymentId: string, decision: 'approve' | 'decline') => {
  const csrf = await sandboxPageCsrf(kind === 'checkout' ? 'checkout' : '3ds', paymentId);
  return fetch(page(kind, paymentId), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
    body: new URLSearchParams({ csrf_token: csrf.csrf_token, decision }).toString(),
  });
};
const statusOf = async (paymentId: string) => (await api.request('GET', `/payments/${paymentId}`)).body;

describe('the sandbox page acts only on the step it shows', () => {
  test('a payment waiting on a PIN, an OTP or a bank transfer is neither approved nor declined by the 3DS or checkout page', async () => {
    const waiting = [
      await confirmed({ payment_method_data: card('5060666666666666666') }), // submit_pin
      await confirmed({ payment_method_data: card('5060990000000000019') }), // submit_otp
      await confirmed({ payment_method: 'bank_transfer' }),
    ];
    for (const p of waiting) {
      const before = await statusOf(p.payment_id);
      for (const kind of ['3ds', 'checkout'])
        for (const decision of ['approve', 'decline'] as const) {
          const res = await decide(kind, p.payment_id, decision);
          expect(res.status).toBe(409);
          expect(await res.text()).toContain('waits on another step');
          const shown = await fetch(page(kind, p.payment_id));
          expect(shown.status).toBe(200);
          const html = await shown.text();
          expect(html).not.toContain('name="decision"');
          expect(html).toContain('waits on another step');
        }
      const after = await statusOf(p.payment_id);
      expect(after.status).toBe('RequiresAction');
      expect(after.next_action).toEqual(before.next_action);
    }
  });

  test('a 3DS payment is approved on its 3DS page only, not on the checkout page; an unknown page kind is 404', async () => {
    const p = await confirmed({ payment_method_data: card('4000000000003220') });
    expect(p.next_action.redirect_to_url).toBe(page('3ds', p.payment_id));
    expect((await decide('checkout', p.payment_id, 'approve')).status).toBe(409);
    expect((await decide('other', p.payment_id, 'approve')).status).toBe(404);
    expect((await fetch(page('other', p.payment_id))).status).toBe(404);
    expect((await statusOf(p.payment_id)).status).toBe('RequiresAction');
    expect(await (await fetch(page('3ds', p.payment_id))).text()).toContain('name="decision"');
    expect((await decide('3ds', p.payment_id, 'approve')).status).toBe(303);
    expect((await statusOf(p.payment_id)).status).toBe('Succeeded');
  });
});

describe('the sandbox page never reports money on a payment the API closed', () => {
  test('an approve after a cancel is refused; approves racing cancels raise no money mismatch', async () => {
    const cancelledFirst = await confirmed({ payment_method_data: card('4000000000003220') });
    expect((await api.request('POST', `/payments/${cancelledFirst.payment_id}/cancel`, { body: {} })).status).toBe(200);
    const late = await decide('3ds', cancelledFirst.payment_id, 'approve');
    expect(late.status).toBe(409);
    expect((await statusOf(cancelledFirst.payment_id)).status).toBe('Cancelled');

    mismatches.mockClear();
    const payments = await Promise.all(Array.from({ length: 12 }, () => confirmed({ payment_method_data: card('4000000000003220') })));
    await Promise.all(
      payments.map(async (p, i) => {
        const cancel = () => api.request('POST', `/payments/${p.payment_id}/cancel`, { body: {} });
        const approve = () => decide('3ds', p.payment_id, 'approve');
        const [first, second] = i % 2 === 0 ? [cancel, approve] : [approve, cancel];
        await Promise.all([first(), second()]);
      }),
    );
    for (const p of payments) expect(['Succeeded', 'Cancelled']).toContain((await statusOf(p.payment_id)).status);
    expect(mismatches).not.toHaveBeenCalled();
  });
});

describe('across processes (a deployed stage: the page and the cancel in different containers), the sandbox record orders them', () => {
  test('an approval recorded by the page before the void: the cancel finds the payment approved (no money on a cancelled payment); its webhook then agrees', async () => {
    const { decideSandboxPayment } = await import('../../shared/storage/sandbox-decisions-repository');
    const { deliverSandboxWebhook } = await import('../../shared/connectors/sandbox/sandbox-webhooks');
    mismatches.mockClear();
    const p = await confirmed({ payment_method_data: card('4000000000003220') });
    // The page, in another container, has recorded the payer's approval; its webhook has not arrived yet.
    await decideSandboxPayment(p.payment_id, { decision: 'approved', amount: 900, captureMethod: 'automatic' });
    const cancel = await api.request('POST', `/payments/${p.payment_id}/cancel`, { body: {} });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ status: 'Succeeded', amount_captured: 900 });
    const status = await deliverSandboxWebhook(
      api.url,
      { payment_id: p.payment_id, transaction_id: `sbx_${p.payment_id.slice(4)}`, amount: 900, capture_method: 'automatic' },
      'succeeded',
    );
    expect(status).toBe(200);
    expect((await statusOf(p.payment_id)).status).toBe('Succeeded');
    expect(mismatches).not.toHaveBeenCalled();
  });

  test('a void recorded before the page decides: the page approves nothing, and a sync closes the payment as cancelled', async () => {
    const { decideSandboxPayment } = await import('../../shared/storage/sandbox-decisions-repository');
    mismatches.mockClear();
    const p = await confirmed({ payment_method_data: card('4000000000003220') });
    // A cancel, in another container, reached the sandbox first; its write to the payment is not visible yet.
    await decideSandboxPayment(p.payment_id, { decision: 'voided', amount: 0, captureMethod: 'automatic' });
    const late = await decide('3ds', p.payment_id, 'approve');
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('This payment was cancelled; nothing was approved or declined.');
    expect((await statusOf(p.payment_id)).status).toBe('RequiresAction');
    // The processor's truth is "voided": a sync (here the retrieve's force_sync) applies it.
    const synced = await api.request('GET', `/payments/${p.payment_id}?force_sync=true`);
    expect(synced.body.status).toBe('Cancelled');
    expect(mismatches).not.toHaveBeenCalled();
  });

  test('a double approval (two submits of the page) approves once; a decline after an approval is refused', async () => {
    const p = await confirmed({ payment_method_data: card('4000000000003220') });
    const [a, b] = await Promise.all([decide('3ds', p.payment_id, 'approve'), decide('3ds', p.payment_id, 'approve')]);
    expect([a.status, b.status]).toContain(303);
    expect((await statusOf(p.payment_id)).status).toBe('Succeeded');
    const q = await confirmed({ payment_method_data: card('4000000000003220') });
    const { decideSandboxPayment } = await import('../../shared/storage/sandbox-decisions-repository');
    await decideSandboxPayment(q.payment_id, { decision: 'approved', amount: 900, captureMethod: 'automatic' });
    const decline = await decide('3ds', q.payment_id, 'decline');
    expect(decline.status).toBe(409);
    expect(await decline.text()).toContain('This payment was already approved on this page.');
  });
});

test('the cancel answer to a payment the page is approving is an API error, never a 5xx', async () => {
  const p = await confirmed({ payment_method_data: card('4000000000003220') });
  const [approve, cancel] = await Promise.all([
    decide('3ds', p.payment_id, 'approve'),
    api.request('POST', `/payments/${p.payment_id}/cancel`, { body: {} }),
  ]);
  expect(approve.status).toBeLessThan(500);
  expect(cancel.status).toBeLessThan(500);
  if (cancel.status !== 200) expectError(cancel, cancel.status);
});

describe("the page's form carries a CSRF token", () => {
  test("a post without the token, with a wrong one, another page's or without the cookie is refused 403 and changes nothing; the drawn form pays", async () => {
    const p = await confirmed({ payment_method_data: card('4000000000003220') });
    const before = await statusOf(p.payment_id);
    const browser = new Browser();
    const drawn = await browser.get(page('3ds', p.payment_id));
    expect(drawn.headers.get('set-cookie')).toMatch(/^checkout_csrf=[0-9a-f]{32}; .*HttpOnly; SameSite=Strict/);
    const token = formCsrfToken(await drawn.text());
    const other = await sandboxPageCsrf('checkout', p.payment_id);
    const step = await stepFormCsrf(p.payment_id);
    const post = (form: Record<string, string>, cookie?: string) =>
      fetch(page('3ds', p.payment_id), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(form).toString(),
      });
    const jar = `checkout_csrf=${browser.cookies.get('checkout_csrf')}`;
    const refused = [
      await post({ decision: 'approve' }, jar), // no token
      await post({ decision: 'approve', csrf_token: '0'.repeat(64) }, jar), // a wrong one
      await post({ decision: 'approve', csrf_token: token }), // no cookie
      await post({ decision: 'approve', csrf_token: other.csrf_token }, other.cookie), // the checkout page's, with its cookie
      await post({ decision: 'decline', csrf_token: step.csrf_token }, step.cookie), // the step page's token
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      const html = await res.text();
      expect(html).toContain('role="alert"');
      expect(html).toContain('Nothing was approved or declined.');
      // The page again, with a fresh form to answer on.
      expect(formCsrfToken(html)).toMatch(/^[0-9a-f]{64}$/);
    }
    const after = await statusOf(p.payment_id);
    expect(after).toEqual(before);
    expect(await getSandboxDecision(p.payment_id)).toBeUndefined();
    const approved = await browser.post(page('3ds', p.payment_id), { csrf_token: token, decision: 'approve' });
    expect(approved.status).toBe(303);
    expect((await statusOf(p.payment_id)).status).toBe('Succeeded');
  });
});
