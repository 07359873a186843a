/**
 * Payouts on the sandbox through HTTP (docs/api.md "Payouts"): every status path of the sandbox's test accounts
 * (`0000000000` succeeds after the delay, `0000000001` fails, `0000000002` asks for the OTP `123456`,
 * `0000000003` succeeds and is then reversed), confirm/cancel/authenticate from each status, the events, the
 * reference's uniqueness and `Idempotency-Key`, tenancy, bad input (400 with one error shape, nothing created or
 * sent), lists with filters and pagination, and the daily payout limit.
 *
 * Time is driven, not waited on: `Date.now` is the real time plus an offset the test moves, and the sandbox's
 * delay is long (60 s) with its webhooks off, so a payout settles only when the test moves the clock past the delay
 * and asks (`force_sync`) — or posts the sandbox's signed webhook itself.
 */
import { randomUUID } from 'node:crypto';
import { sandboxSendKey } from '../../shared/connectors/sandbox/sandbox-payouts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../shared/connectors/sandbox/sandbox-webhooks';
import { getSandboxDecision } from '../../shared/storage/sandbox-decisions-repository';
import { cardFreeKey } from '../helpers/card-free-key';
import { expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

const DELAY_MS = 60_000;
const env = scopedEnv();
let api: LocalApi;
let offset = 0;
const realNow = Date.now.bind(Date);

beforeAll(async () => {
  env.set({ SANDBOX_WEBHOOKS: 'off', SANDBOX_WEBHOOK_DELAY_MS: String(DELAY_MS), PAYOUT_DAILY_LIMITS: '{"GHS": 100000}' });
  api = await startLocalApi();
});
afterAll(async () => {
  env.restore();
  await api.close();
});
beforeEach(() => {
  offset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});
afterEach(() => jest.restoreAllMocks());

/** A bank payout body to a sandbox test account. */
function bankPayout(accountNumber: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 250_000,
    currency: 'NGN',
    payout_type: 'bank',
    payout_method_data: { bank: { account_number: accountNumber, bank_code: '058', country: 'NG', account_name: 'Ada Obi' } },
    description: 'Rider payout, week 12',
    ...extra,
  };
}

async function create(body: Record<string, unknown>, options: { key?: string; idem?: string } = {}): Promise<TestResponse> {
  return api.request('POST', '/payouts', {
    body,
    ...(options.key ? { key: options.key } : {}),
    ...(options.idem ? { headers: { 'idempotency-key': options.idem } } : {}),
  });
}

const sync = (id: string) => api.request('GET', `/payouts/${id}?force_sync=true`);

/** The event types recorded for one payout, oldest first. */
async function eventsOf(payoutId: string): Promise<string[]> {
  const res = await api.request('GET', '/events?limit=100');
  expect(res.status).toBe(200);
  return (res.body.data as { type: string; data: { payout_id?: string } }[])
    .filter((e) => e.data.payout_id === payoutId)
    .map((e) => e.type)
    .reverse();
}

/** What the sandbox's ledger holds for a payout's send (undefined: nothing was sent). */
const sentAtSandbox = (payoutId: string) => getSandboxDecision(sandboxSendKey(payoutId));

describe('sandbox status paths', () => {
  test('0000000000: Processing at once, Succeeded once the delay has passed; payout.created then payout.succeeded', async () => {
    const res = await create(bankPayout('0000000000', { confirm: true }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'Processing',
      connector: 'sandbox',
      merchant_connector_id: null,
      connector_payout_id: expect.stringMatching(/^sbx_tr_/),
      pending_operation: null,
      next_action: null,
      payout_method: { bank: { last4: '0000', bank_code: '058', country: 'NG', account_name: 'Ada Obi' } },
    });
    expect(res.body.payout_id).toMatch(/^po_/);
    expect(JSON.stringify(res.body)).not.toContain('0000000000');
    expect((await sync(res.body.payout_id)).body.status).toBe('Processing');
    offset += DELAY_MS;
    const settled = await sync(res.body.payout_id);
    expect(settled.body).toMatchObject({ status: 'Succeeded', error_code: null });
    expect(await eventsOf(res.body.payout_id)).toEqual(['payout.created', 'payout.succeeded']);
    expect((await sentAtSandbox(res.body.payout_id))?.amount).toBe(250_000);
  });

  test('0000000001: Failed with the processor reason; payout.failed', async () => {
    const res = await create(bankPayout('0000000001', { confirm: true }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Failed', error_code: 'account_closed', error_message: expect.stringContaining('closed') });
    expect(await eventsOf(res.body.payout_id)).toEqual(['payout.created', 'payout.failed']);
  });

  test('0000000002: RequiresAction with submit_otp; a wrong OTP counts, 123456 succeeds', async () => {
    const res = await create(bankPayout('0000000002', { confirm: true }));
    expect(res.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp', attempts_remaining: 3 } });
    const id = res.body.payout_id;
    const wrong = await api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: '000000' } });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ status: 'RequiresAction', error_code: 'invalid_otp', next_action: { attempts_remaining: 2 } });
    expect(wrong.text).not.toContain('000000"');
    const right = await api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: '123456' } });
    expect(right.body).toMatchObject({ status: 'Succeeded', next_action: null, error_code: null });
    expect(right.text).not.toContain('123456');
    expect(await eventsOf(id)).toEqual(['payout.created', 'payout.requires_action', 'payout.succeeded']);
    const again = await api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: '123456' } });
    expectError(again, 409, 'payout_unexpected_state');
  });

  test('0000000002: the third wrong OTP fails the payout (otp_attempts_exceeded); no fourth is taken', async () => {
    const id = (await create(bankPayout('0000000002', { confirm: true }))).body.payout_id;
    for (const left of [2, 1]) {
      const res = await api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: '111111' } });
      expect(res.body).toMatchObject({ status: 'RequiresAction', next_action: { attempts_remaining: left } });
    }
    const third = await api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: '111111' } });
    expect(third.body).toMatchObject({ status: 'Failed', error_code: 'otp_attempts_exceeded', next_action: null });
    expectError(await api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: '123456' } }), 409, 'payout_unexpected_state');
    expect((await sync(id)).body.status).toBe('Failed');
  });

  test('0000000003: Succeeded after the delay, then Reversed; payout.succeeded then payout.reversed', async () => {
    const id = (await create(bankPayout('0000000003', { confirm: true }))).body.payout_id;
    offset += DELAY_MS;
    expect((await sync(id)).body.status).toBe('Succeeded');
    offset += DELAY_MS;
    expect((await sync(id)).body).toMatchObject({ status: 'Reversed', error_code: 'payout_reversed' });
    expect(await eventsOf(id)).toEqual(['payout.created', 'payout.succeeded', 'payout.reversed']);
  });

  test('mobile money: the phone’s last 4 digits pick the test account (…0001 fails)', async () => {
    const res = await create({
      amount: 5_000,
      currency: 'GHS',
      payout_type: 'mobile_money',
      payout_method_data: { mobile_money: { phone: '+233240000001', network: 'mtn' } },
      description: 'Seller payout',
      confirm: true,
    });
    expect(res.body).toMatchObject({ status: 'Failed', payout_method: { mobile_money: { last4: '0001', network: 'mtn' } } });
  });

  test('the sandbox webhook settles a payout once; a duplicate delivery changes nothing', async () => {
    const res = await create(bankPayout('0000000000', { confirm: true }));
    const id = res.body.payout_id;
    const rawBody = JSON.stringify({
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'payout.succeeded',
      data: { payout_id: id, transfer_id: res.body.connector_payout_id },
    });
    const headers = { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody) };
    const first = await api.request('POST', '/webhooks/sandbox', { raw: rawBody, headers, key: null });
    expect(first.body).toMatchObject({ applied: true, status: 'Succeeded' });
    const second = await api.request('POST', '/webhooks/sandbox', { raw: rawBody, headers, key: null });
    expect(second.body).toMatchObject({ applied: false });
    expect((await api.request('GET', `/payouts/${id}`)).body.status).toBe('Succeeded');
    expect(await eventsOf(id)).toEqual(['payout.created', 'payout.succeeded']);
  });
});

describe('confirm and cancel', () => {
  test('confirm: false waits in RequiresConfirmation with nothing sent; confirm sends it; a second confirm is 409', async () => {
    const created = await create(bankPayout('0000000000'));
    expect(created.body).toMatchObject({ status: 'RequiresConfirmation', connector_payout_id: null });
    const id = created.body.payout_id;
    expect(await sentAtSandbox(id)).toBeUndefined();
    const confirmed = await api.request('POST', `/payouts/${id}/confirm`, { body: {} });
    expect(confirmed.body.status).toBe('Processing');
    expectError(await api.request('POST', `/payouts/${id}/confirm`, { body: {} }), 409, 'payout_unexpected_state');
    expectError(await api.request('POST', `/payouts/${id}/cancel`, { body: {} }), 409, 'payout_unexpected_state');
  });

  test('cancel before it is sent: Cancelled, nothing sent; cancel again answers it; confirm after is 409', async () => {
    const id = (await create(bankPayout('0000000000'))).body.payout_id;
    const cancelled = await api.request('POST', `/payouts/${id}/cancel`);
    expect(cancelled.body.status).toBe('Cancelled');
    expect((await api.request('POST', `/payouts/${id}/cancel`)).body.status).toBe('Cancelled');
    expectError(await api.request('POST', `/payouts/${id}/confirm`), 409, 'payout_unexpected_state');
    expect(await sentAtSandbox(id)).toBeUndefined();
    expect(await eventsOf(id)).toEqual(['payout.created']);
  });
});

describe('reference and Idempotency-Key', () => {
  test('a reference names one payout: its reuse answers 409 payout_reference_taken and creates nothing', async () => {
    const reference = cardFreeKey('rider-'); // a free-text field: no digit run in it may read as a card number
    const first = await create(bankPayout('0000000000', { reference }));
    expect(first.body.reference).toBe(reference);
    const reuse = await create(bankPayout('0000000000', { reference, confirm: true }));
    const error = expectError(reuse, 409, 'payout_reference_taken');
    expect(error.param).toBe('reference');
    expect(error.message).not.toContain(reference);
    expect((await api.request('GET', `/payouts/${first.body.payout_id}`)).body.status).toBe('RequiresConfirmation');
  });

  test('the same Idempotency-Key answers the same payout, sent once; another body with it is 422', async () => {
    const idem = randomUUID();
    const first = await create(bankPayout('0000000000', { confirm: true }), { idem });
    const second = await create(bankPayout('0000000000', { confirm: true }), { idem });
    expect(second.body.payout_id).toBe(first.body.payout_id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expectError(await create(bankPayout('0000000000', { confirm: true, amount: 1 }), { idem }), 422);
  });
});

describe('tenancy', () => {
  test('another merchant neither sees nor moves a payout, and its list does not hold it', async () => {
    const other = await api.newMerchantKey();
    const id = (await create(bankPayout('0000000000'))).body.payout_id;
    expectError(await api.request('GET', `/payouts/${id}`, { key: other }), 404, 'resource_missing');
    expectError(await api.request('POST', `/payouts/${id}/confirm`, { key: other }), 404, 'resource_missing');
    expectError(await api.request('POST', `/payouts/${id}/cancel`, { key: other }), 404, 'resource_missing');
    expectError(await api.request('POST', `/payouts/${id}/authenticate`, { key: other, body: { otp: '123456' } }), 404);
    const list = await api.request('GET', '/payouts', { key: other });
    expect(list.body).toEqual({ data: [], has_more: false });
    expect((await api.request('GET', `/payouts/${id}`)).body.status).toBe('RequiresConfirmation');
  });
});

describe('bad input: 400 with one error shape, nothing created or sent', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a negative amount', bankPayout('0000000000', { amount: -100 }), 'amount'],
    ['a zero amount', bankPayout('0000000000', { amount: 0 }), 'amount'],
    ['a fractional amount', bankPayout('0000000000', { amount: 10.5 }), 'amount'],
    ['an unsupported currency', bankPayout('0000000000', { currency: 'USD' }), 'currency'],
    ['an account number with letters', bankPayout('00000A0000'), 'payout_method_data.bank.account_number'],
    ['a short account number', bankPayout('12345'), 'payout_method_data.bank.account_number'],
    ['a Nigerian account number that is not 10 digits', bankPayout('000000000012'), 'payout_method_data.bank.account_number'],
    ['an account number that reads as a card number', bankPayout('4242424242424242'), 'payout_method_data.bank.account_number'],
    ['a bank destination on a mobile money payout', bankPayout('0000000000', { payout_type: 'mobile_money' }), 'payout_method_data'],
    ['no destination', bankPayout('0000000000', { payout_method_data: {} }), 'payout_method_data'],
    ['an empty description', bankPayout('0000000000', { description: '' }), 'description'],
  ];
  test.each(cases)('%s', async (_name, body, param) => {
    const key = await api.newMerchantKey();
    const res = await create({ ...body, confirm: true }, { key });
    const error = expectError(res, 400);
    expect(error.param).toBe(param);
    expect(res.text).not.toContain('4242424242424242');
    expect((await api.request('GET', '/payouts', { key })).body.data).toEqual([]);
  });

  test('an OTP that is not 4 to 8 digits is 400 and never echoed', async () => {
    const id = (await create(bankPayout('0000000002', { confirm: true }))).body.payout_id;
    const res = await api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: 'abc-987654321' } });
    expect(expectError(res, 400).param).toBe('otp');
    expect(res.text).not.toContain('987654321');
    expect((await api.request('GET', `/payouts/${id}`)).body.next_action.attempts_remaining).toBe(3);
  });
});

describe('lists', () => {
  test('GET /payouts: newest first, status, customer_id and created filters, pagination with starting_after', async () => {
    const key = await api.newMerchantKey();
    const customer = await api.request('POST', '/customers', { key, body: { name: 'Rider One' } });
    const ids: string[] = [];
    for (const account of ['0000000000', '0000000001', '0000000000']) {
      const body = bankPayout(account, { confirm: true, customer_id: customer.body.customer_id });
      ids.push((await create(body, { key })).body.payout_id);
    }
    const all = await api.request('GET', '/payouts', { key });
    expect(all.body.data.map((p: { payout_id: string }) => p.payout_id)).toEqual([...ids].reverse());
    const failed = await api.request('GET', '/payouts?status=Failed', { key });
    expect(failed.body.data.map((p: { payout_id: string }) => p.payout_id)).toEqual([ids[1]]);
    const ofCustomer = await api.request('GET', `/payouts?customer_id=${customer.body.customer_id}`, { key });
    expect(ofCustomer.body.data).toHaveLength(3);
    const page1 = await api.request('GET', '/payouts?limit=2', { key });
    expect(page1.body.has_more).toBe(true);
    const page2 = await api.request('GET', `/payouts?limit=2&starting_after=${page1.body.data[1].payout_id}`, { key });
    expect(page2.body).toMatchObject({ has_more: false, data: [{ payout_id: ids[0] }] });
    const future = Math.floor(realNow() / 1000) + 3600;
    expect((await api.request('GET', `/payouts?created[gt]=${future}`, { key })).body.data).toEqual([]);
    const past = Math.floor(realNow() / 1000) - 3600;
    expect((await api.request('GET', `/payouts?created[gte]=${past}`, { key })).body.data).toHaveLength(3);
    expectError(await api.request('GET', '/payouts?status=Nope', { key }), 400);
    expectError(await api.request('GET', '/payouts?starting_after=po_unknown', { key }), 400, 'resource_missing');
  });
});

describe('daily payout limit', () => {
  test('a payout that would pass the day’s limit is not sent and stays RequiresConfirmation; a failed payout gives its room back', async () => {
    const key = await api.newMerchantKey();
    const ghs = (amount: number) => ({
      amount,
      currency: 'GHS',
      payout_type: 'mobile_money',
      payout_method_data: { mobile_money: { phone: '+233240000000', network: 'mtn' } },
      description: 'Vendor payout',
      confirm: true,
    });
    expect((await create(ghs(60_000), { key })).body.status).toBe('Processing');
    const over = await create(ghs(60_000), { key });
    expect(expectError(over, 400, 'payout_limit_exceeded').param).toBe('amount');
    const waiting = (await api.request('GET', '/payouts?status=RequiresConfirmation', { key })).body.data;
    expect(waiting).toHaveLength(1);
    expect(await sentAtSandbox(waiting[0].payout_id)).toBeUndefined();
    // A failed payout gives its amount back to the day's room.
    expect(
      (await create({ ...ghs(40_000), payout_method_data: { mobile_money: { phone: '+233240000001', network: 'mtn' } } }, { key })).body
        .status,
    ).toBe('Failed');
    expect((await create(ghs(40_000), { key })).body.status).toBe('Processing');
  });
});

describe('resolve_account', () => {
  test("names a test account's holder; a closed one is 400 account_not_resolved; nothing is created", async () => {
    const res = await api.request('POST', '/payouts/resolve_account', {
      body: { country: 'NG', bank_code: '058', account_number: '0000000000' },
    });
    expect(res.body).toMatchObject({ account_name: 'SANDBOX TEST ACCOUNT 0000', connector: 'sandbox', account_number: '0000000000' });
    const closed = await api.request('POST', '/payouts/resolve_account', {
      body: { country: 'NG', bank_code: '058', account_number: '0000000001' },
    });
    expectError(closed, 400, 'account_not_resolved');
    expectError(
      await api.request('POST', '/payouts/resolve_account', { body: { country: 'NG', bank_code: '058', account_number: '123' } }),
      400,
    );
  });
});
