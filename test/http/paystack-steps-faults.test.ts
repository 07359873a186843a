/**
 * Paystack's authentication steps (PIN, OTP, the Telecel voucher) through the whole local stack —
 * gateway, handlers, DynamoDB Local, the Paystack adapter — against the loopback Paystack stand-in
 * (test/helpers/paystack-stand-in.ts), which answers in Paystack's documented shapes and keeps its own
 * ledger. For each step call: storage failing before it (the claim), after it (the outcome write), the
 * process dying between the call and the write, and Paystack doing the work while its answer is lost;
 * after the fault clears and one reconciler pass, our payment must equal Paystack's ledger. No PIN or
 * OTP may show in any answer, event or stored item.
 *
 * A harness of this file's own (after test/helpers/fault-harness.ts, which is Stripe's): a table of
 * its own (so the reconciler sees only these payments), the storage fault middleware on the
 * process-wide DynamoDB client, the stand-in routed for NGN cards and GHS mobile money.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type ReconcileReport, reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { baseClient } from '../../shared/storage/client';
import { card, expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';
import {
  expectedNextStep,
  expectedPaymentStatus,
  PAYSTACK_STAND_IN_VOUCHER,
  PAYSTACK_TEST_CARDS,
  type PaystackLedgerEntry,
  type PaystackStandIn,
  paystackEnv,
  startPaystackStandIn,
  TELECEL_VOUCHER_PROMPT,
} from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';

/* ------------------------------------------------------------------ harness */

/** One storage fault (as in test/helpers/fault-harness.ts): `write` = PutItem, UpdateItem, DeleteItem, TransactWriteItems. */
interface StorageFault {
  command: string;
  pk?: string;
  nth: number;
  times?: number;
  mode: 'outage' | 'killed';
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems']);
const TIMEOUT_MS = 400;
const table = `switchyard-paystack-${randomUUID().slice(0, 8)}`;
let fault: (StorageFault & { seen: number }) | undefined;
let api: LocalApi;
let paystack: PaystackStandIn;
const scoped = scopedEnv();
const savedTable = process.env.TABLE_NAME;

/** Every item `PK` a command's input names. */
function itemKeys(input: unknown): string[] {
  const i = input as {
    Key?: { PK?: string };
    Item?: { PK?: string };
    TransactItems?: Record<string, { Key?: { PK?: string }; Item?: { PK?: string } }>[];
  };
  const one = (x: { Key?: { PK?: string }; Item?: { PK?: string } } | undefined) => String(x?.Key?.PK ?? x?.Item?.PK ?? '');
  if (i.TransactItems) return i.TransactItems.flatMap((t) => Object.values(t).map(one));
  return [one(i)];
}

const failStorage = (f: StorageFault | undefined) => {
  fault = f ? { ...f, seen: 0 } : undefined;
};

/** One reconciler pass as if `aheadMs` (default 2 h: past the 120 s claim lease) had passed; clears any storage fault. */
async function reconcileLater(aheadMs = 2 * 60 * 60 * 1000): Promise<ReconcileReport> {
  fault = undefined;
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now').mockReturnValue(now + aheadMs);
  try {
    return await reconcileOpenOperations({ deadlineMs: now + aheadMs + 60_000 });
  } finally {
    clock.mockRestore();
  }
}

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table);
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      const f = fault;
      if (
        f &&
        (f.command === command || (f.command === 'write' && WRITES.has(command))) &&
        (!f.pk || itemKeys(args.input).some((pk) => pk.includes(f.pk as string)))
      ) {
        f.seen += 1;
        if (f.seen >= f.nth && f.seen < f.nth + (f.times ?? 1)) {
          if (f.mode === 'killed') throw new Error('the process died here (injected)');
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'paystackStepsStorageFaultHook' },
  );
  paystack = await startPaystackStandIn();
  const env = {
    ...paystackEnv(paystack, { timeoutMs: TIMEOUT_MS }),
    ROUTING_RULES: JSON.stringify([
      { currency: 'NGN', payment_method: 'card', connectors: ['paystack'] },
      { currency: 'GHS', payment_method: 'mobile_money', connectors: ['paystack'] },
      { connectors: ['sandbox'] },
    ]),
  };
  scoped.set(env);
  api = await startLocalApi();
});

afterAll(async () => {
  await api.close();
  await paystack.close();
  scoped.restore();
  process.env.TABLE_NAME = savedTable;
});

afterEach(() => {
  fault = undefined;
  jest.restoreAllMocks();
});

/* ------------------------------------------------------------------ helpers */

const VERVE = PAYSTACK_TEST_CARDS.vervePinOtp;
const PIN = VERVE.pin;
const OTP = VERVE.otp;
/** Every step value used in this file: none may show in an answer, an event or a stored item. */
const SECRETS = [PIN, OTP, PAYSTACK_STAND_IN_VOUCHER, '9999', '000000', '111111'];
/** Every answer the API gave in this file (checked for secrets at the end). */
const answers: TestResponse[] = [];

async function request(method: string, path: string, body?: unknown): Promise<TestResponse> {
  const res = await api.request(method, path, body === undefined ? {} : { body });
  answers.push(res);
  return res;
}

const authenticate = (paymentId: string, body: Record<string, unknown>) => request('POST', `/payments/${paymentId}/authenticate`, body);
const getPayment = async (paymentId: string) => (await request('GET', `/payments/${paymentId}`)).body as Record<string, any>;

/** An NGN card payment created, then confirmed with `number` (the walk-through's two calls). */
async function confirmedCard(number: string = VERVE.number): Promise<Record<string, any>> {
  const created = await request('POST', '/payments', {
    amount: 150000,
    currency: 'NGN',
    payment_method: 'card',
    email: 'payer@example.com',
    description: 'Order 42',
  });
  expect(created.body).toMatchObject({ status: 'RequiresConfirmation', connector: 'paystack' });
  const confirmed = await request('POST', `/payments/${created.body.payment_id}/confirm`, { payment_method_data: card(number) });
  expect(confirmed.status).toBe(200);
  return confirmed.body;
}

/** A Verve payment whose PIN was accepted: Paystack now waits for the OTP. */
async function waitingForOtp(): Promise<Record<string, any>> {
  const p = await confirmedCard();
  const afterPin = await authenticate(p.payment_id, { pin: PIN });
  expect(afterPin.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp' }, pending_operation: null });
  return afterPin.body;
}

/** Paystack's ledger entry for our payment (by the reference the adapter recorded). */
function ledgerOf(p: Record<string, any>): PaystackLedgerEntry {
  expect(p.connector_transaction_id).toEqual(expect.any(String));
  const entry = paystack.entry(p.connector_transaction_id);
  expect(entry).toBeDefined();
  return entry!;
}

/** The stand-in's step calls for a reference, by path. */
const stepCalls = (reference: string) =>
  paystack.requests.filter((r) => r.path.startsWith('/charge/submit_') && r.body?.reference === reference).map((r) => r.path);

/**
 * Asserts our payment equals Paystack's ledger: nothing open (no claim), the status Paystack's
 * charge status means, the step Paystack waits for, the amount Paystack took, Paystack's reference.
 * @returns the payment
 */
async function expectConverged(paymentId: string): Promise<Record<string, any>> {
  const p = await getPayment(paymentId);
  const entry = ledgerOf(p);
  expect(p.pending_operation).toBeNull();
  expect({ status: p.status, amount_captured: p.amount_captured, step: p.next_action?.type ?? null }).toEqual({
    status: expectedPaymentStatus(entry),
    amount_captured: entry.amountCaptured,
    step: expectedNextStep(entry),
  });
  expect(p.connector_transaction_id).toBe(entry.reference);
  expect(p.amount).toBe(entry.amount);
  return p;
}

/** Whether `text` holds `secret` as a value of its own (not inside an id's hex digits or a longer number). */
const holds = (text: string, secret: string) => new RegExp(`(?<![0-9A-Za-z])${secret}(?![0-9A-Za-z])`).test(text);

/* -------------------------------------------------------------------- tests */

describe('Paystack authentication steps through the API', () => {
  test("1. happy path: confirm → submit_pin → PIN → submit_otp with Paystack's prompt → OTP → Succeeded, equal to the ledger", async () => {
    const p = await confirmedCard();
    expect(p).toMatchObject({
      status: 'RequiresAction',
      connector: 'paystack',
      next_action: { type: 'submit_pin', display_text: null },
      pending_operation: null,
    });
    expect(ledgerOf(p)).toMatchObject({
      status: 'send_pin',
      waitingOn: 'pin',
      amount: 150000,
      currency: 'NGN',
      email: 'payer@example.com',
    });

    const afterPin = await authenticate(p.payment_id, { pin: PIN });
    expect(afterPin.status).toBe(200);
    expect(afterPin.body).toMatchObject({
      status: 'RequiresAction',
      next_action: { type: 'submit_otp', display_text: ledgerOf(p).displayText },
    });
    await expectConverged(p.payment_id);

    const afterOtp = await authenticate(p.payment_id, { otp: OTP });
    expect(afterOtp.body).toMatchObject({ status: 'Succeeded', amount_captured: 150000, next_action: null, error_code: null });
    expect(await expectConverged(p.payment_id)).toMatchObject({ status: 'Succeeded' });
    expect(ledgerOf(p).submissions).toEqual([
      { step: 'pin', accepted: true },
      { step: 'otp', accepted: true },
    ]);
    expect(stepCalls(p.connector_transaction_id)).toEqual(['/charge/submit_pin', '/charge/submit_otp']);
  });

  test('2. Paystack completes the OTP step but its answer is lost → 503 outcome_unknown; the reconciler settles it to the ledger', async () => {
    const p = await waitingForOtp();
    paystack.failNext({ method: 'POST', path: '/charge/submit_otp' }, 'hang_after_work');
    const res = await authenticate(p.payment_id, { otp: OTP });
    expect(expectError(res, 503, 'outcome_unknown').message).not.toMatch(/nothing was changed/i);
    expect(ledgerOf(p)).toMatchObject({ status: 'success', amountCaptured: 150000 });
    expect(await getPayment(p.payment_id)).toMatchObject({
      status: 'RequiresAction',
      pending_operation: { operation: 'authorize', connector: 'paystack', state: 'in_progress' },
    });
    // While the claim holds, a second submission is refused (never a second call to Paystack).
    expectError(await authenticate(p.payment_id, { otp: OTP }), 409, 'payment_unexpected_state');
    expect(stepCalls(p.connector_transaction_id)).toEqual(['/charge/submit_pin', '/charge/submit_otp']);

    const report = await reconcileLater();
    expect(report.outcomes['payment:settled']).toBeGreaterThanOrEqual(1);
    expect(await expectConverged(p.payment_id)).toMatchObject({ status: 'Succeeded', amount_captured: 150000 });
  });

  test('2b. storage down during the call (Paystack completes the OTP, hangs, every later write fails) → outcome_unknown, then converges', async () => {
    const p = await waitingForOtp();
    paystack.failNext({ method: 'POST', path: '/charge/submit_otp' }, 'hang_after_work');
    failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, times: Infinity, mode: 'outage' });
    const res = await authenticate(p.payment_id, { otp: OTP });
    failStorage(undefined);
    expectError(res, 503, 'outcome_unknown');
    expect(ledgerOf(p)).toMatchObject({ status: 'success', amountCaptured: 150000 });
    await reconcileLater();
    expect(await expectConverged(p.payment_id)).toMatchObject({ status: 'Succeeded' });
  });

  test('3. storage fails after Paystack answered the step → 503 outcome_unknown, the claim stays; the reconciler converges (outage and process death)', async () => {
    for (const mode of ['outage', 'killed'] as const) {
      const p = await waitingForOtp();
      // write 1 = the claim, write 2 = the outcome (with its event).
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode });
      const res = await authenticate(p.payment_id, { otp: OTP });
      failStorage(undefined);
      if (mode === 'outage') expect(expectError(res, 503, 'outcome_unknown').message).not.toMatch(/nothing was changed/i);
      else expect(res.status).toBeGreaterThanOrEqual(500);
      expect(ledgerOf(p)).toMatchObject({ status: 'success', amountCaptured: 150000 });
      expect(await getPayment(p.payment_id)).toMatchObject({
        status: 'RequiresAction',
        amount_captured: 0,
        pending_operation: { operation: 'authorize', state: 'in_progress' },
      });
      await reconcileLater();
      expect(await expectConverged(p.payment_id)).toMatchObject({ status: 'Succeeded' });
    }
  });

  test('4. storage fails on the claim before the call → 503 service_unavailable; Paystack saw no step call; the step is still open', async () => {
    const p = await confirmedCard();
    const before = ledgerOf(p);
    failStorage({ command: 'write', pk: '#PAYMENT#', nth: 1, mode: 'outage' });
    const res = await authenticate(p.payment_id, { pin: PIN });
    failStorage(undefined);
    expect(expectError(res, 503, 'service_unavailable').message).toMatch(/nothing was changed/i);
    expect(stepCalls(p.connector_transaction_id)).toEqual([]);
    expect(ledgerOf(p)).toEqual(before);
    expect(await expectConverged(p.payment_id)).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_pin' } });
    // The payer can answer it.
    expect((await authenticate(p.payment_id, { pin: PIN })).body.next_action.type).toBe('submit_otp');
    await expectConverged(p.payment_id);
  });

  test("5. a wrong OTP: the step stays open as Paystack keeps it, with Paystack's reason; the right OTP then succeeds", async () => {
    const p = await waitingForOtp();
    const wrong = await authenticate(p.payment_id, { otp: '000000' });
    expect(ledgerOf(p)).toMatchObject({ status: 'send_otp', waitingOn: 'otp', wrongOtps: 1, amountCaptured: 0 });
    // The API answers the refusal (402 authentication_failed) or the updated payment: either way the step is open.
    expect([200, 402]).toContain(wrong.status);
    const after = await expectConverged(p.payment_id);
    expect(after).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp' }, error_code: expect.any(String) });
    expect((await authenticate(p.payment_id, { otp: OTP })).body).toMatchObject({ status: 'Succeeded', error_code: null });
    await expectConverged(p.payment_id);
  });

  test('5a. three wrong OTPs: Paystack saw exactly three, and the third fails the payment (authentication_failed); a fourth never reaches Paystack', async () => {
    const p = await waitingForOtp();
    for (const guess of ['918271', '918272']) {
      const wrong = await authenticate(p.payment_id, { otp: guess });
      expect([200, 402]).toContain(wrong.status);
      expect((await getPayment(p.payment_id)).status).toBe('RequiresAction');
    }
    const third = await authenticate(p.payment_id, { otp: '918273' });
    expect([200, 402]).toContain(third.status);
    expect(third.text).not.toContain('918273');
    const failed = await getPayment(p.payment_id);
    expect(failed).toMatchObject({ status: 'Failed', error_code: 'authentication_failed', next_action: null, pending_operation: null });
    expect(ledgerOf(p)).toMatchObject({ amountCaptured: 0 });
    const fourth = await authenticate(p.payment_id, { otp: OTP });
    expectError(fourth, 409, 'payment_unexpected_state');
    expect(ledgerOf(p)).toMatchObject({ amountCaptured: 0 });
    expect(stepCalls(p.connector_transaction_id).filter((c) => c.includes('otp'))).toHaveLength(3);
  });

  test('5b. a wrong PIN: Paystack closes the charge ("Incorrect PIN") and so do we; nothing more can be submitted', async () => {
    const p = await confirmedCard();
    const wrong = await authenticate(p.payment_id, { pin: '9999' });
    expect(ledgerOf(p)).toMatchObject({ status: 'failed', failureMessage: 'Incorrect PIN' });
    expect(wrong.body).toMatchObject({ status: 'Failed', next_action: null, error_message: 'Incorrect PIN' });
    await expectConverged(p.payment_id);
    expectError(await authenticate(p.payment_id, { pin: PIN }), 409, 'payment_unexpected_state');
    expect(stepCalls(p.connector_transaction_id)).toEqual(['/charge/submit_pin']);
  });

  test("6. Telecel (GHS mobile money): submit_otp with Paystack's *110# prompt → the voucher as otp → Succeeded", async () => {
    const customer = (await request('POST', '/customers', { phone: '+233201234567', email: 'ama@example.com' })).body;
    const created = await request('POST', '/payments', {
      amount: 2500,
      currency: 'GHS',
      payment_method: 'mobile_money',
      customer_id: customer.customer_id,
      email: 'ama@example.com',
      confirm: true,
    });
    expect(created.body).toMatchObject({
      status: 'RequiresAction',
      connector: 'paystack',
      next_action: { type: 'submit_otp', display_text: TELECEL_VOUCHER_PROMPT },
    });
    expect(ledgerOf(created.body)).toMatchObject({ channel: 'mobile_money', provider: 'vod', currency: 'GHS', waitingOn: 'otp' });
    // The reconciler does not settle it behind the payer's back.
    await reconcileLater();
    await expectConverged(created.body.payment_id);
    const wrong = await authenticate(created.body.payment_id, { otp: '111111' });
    expect([200, 402]).toContain(wrong.status);
    expect(await expectConverged(created.body.payment_id)).toMatchObject({
      next_action: { type: 'submit_otp', display_text: TELECEL_VOUCHER_PROMPT },
    });
    const done = await authenticate(created.body.payment_id, { otp: PAYSTACK_STAND_IN_VOUCHER });
    expect(done.body).toMatchObject({ status: 'Succeeded', amount_captured: 2500 });
    expect(await expectConverged(created.body.payment_id)).toMatchObject({ currency: 'GHS', amount_captured: 2500 });
  });

  // Paystack takes the PIN but its answer is lost: verify only says "ongoing"; the sync asks GET
  // /charge/:reference ("Check pending charge", [OAS] charge_{reference}.yaml), which names the OTP step.
  test('7. Paystack takes the PIN but its answer is lost → after reconciliation the payment asks for what Paystack waits for (the OTP)', async () => {
    const p = await confirmedCard();
    paystack.failNext({ method: 'POST', path: '/charge/submit_pin' }, 'hang_after_work');
    expectError(await authenticate(p.payment_id, { pin: PIN }), 503, 'outcome_unknown');
    expect(ledgerOf(p)).toMatchObject({ waitingOn: 'otp' });
    await reconcileLater();
    const reopened = await expectConverged(p.payment_id);
    expect(reopened).toMatchObject({ status: 'RequiresAction', pending_operation: null, next_action: { type: 'submit_otp' } });
    expect(reopened.next_action.redirect_to_url).toMatch(new RegExp(`/pay/${p.payment_id}/authenticate$`));
    expect((await authenticate(p.payment_id, { otp: OTP })).body.status).toBe('Succeeded');
    await expectConverged(p.payment_id);
  });

  test('8. Paystack unreachable (connection refused) at the step → nothing was sent: 503 connector_unreachable, the step is open again at once', async () => {
    const p = await waitingForOtp();
    await paystack.setDown('refuse');
    let res: TestResponse;
    try {
      res = await authenticate(p.payment_id, { otp: OTP });
    } finally {
      await paystack.setDown(false);
    }
    // The request provably never left (ECONNREFUSED): the claim is released at once and the answer says
    // nothing was sent; the step stays open without waiting for the reconciler.
    expect(expectError(res, 503, 'connector_unreachable').message).toMatch(/Nothing was sent/);
    expect(ledgerOf(p)).toMatchObject({ status: 'send_otp', amountCaptured: 0 });
    expect((await request('GET', `/payments/${p.payment_id}`)).body).toMatchObject({
      status: 'RequiresAction',
      pending_operation: null,
      next_action: { type: 'submit_otp' },
    });
    expect((await authenticate(p.payment_id, { otp: OTP })).body.status).toBe('Succeeded');
  });

  test('every request the adapter sent was authorized, to a documented path, and valid against PaystackOSS/openapi', () => {
    expect(paystack.requests.length).toBeGreaterThan(20);
    const odd = paystack.requests
      .filter((r) => !r.authorized || r.schemaErrors !== null || r.status === 404)
      .map((r) => ({ method: r.method, path: r.path, authorized: r.authorized, status: r.status, schemaErrors: r.schemaErrors }));
    expect(odd).toEqual([]);
    const paths = new Set(paystack.requests.map((r) => `${r.method} ${r.path.replace(/\/(pay-[0-9a-z]+)$/, '/:reference')}`));
    expect([...paths].sort()).toEqual([
      'GET /charge/:reference',
      'GET /transaction/verify/:reference',
      'POST /charge',
      'POST /charge/submit_otp',
      'POST /charge/submit_pin',
    ]);
  });

  test('a refund Paystack marks needs-attention stays Pending and shows refund_needs_attention; processed later → Succeeded', async () => {
    const p = await waitingForOtp();
    expect((await authenticate(p.payment_id, { otp: OTP })).body.status).toBe('Succeeded');
    const refund = await request('POST', `/payments/${p.payment_id}/refund`, { amount: 50000 });
    expect(refund.body).toMatchObject({ status: 'Pending', error_code: null });
    const [atPaystack] = ledgerOf(p).refunds;
    expect(atPaystack).toMatchObject({ amount: 50000, status: 'pending' });
    paystack.setRefundStatus(atPaystack!.id, 'needs-attention');
    const attention = await request('GET', `/refunds/${refund.body.refund_id}?force_sync=true`);
    expect(attention.body).toMatchObject({ status: 'Pending', error_code: 'refund_needs_attention' });
    paystack.setRefundStatus(atPaystack!.id, 'processed');
    const done = await request('GET', `/refunds/${refund.body.refund_id}?force_sync=true`);
    expect(done.body).toMatchObject({ status: 'Succeeded', error_code: null, connector_refund_id: String(atPaystack!.id) });
  });

  test('no PIN, OTP or voucher in any answer, event or stored item', async () => {
    const events = await request('GET', '/events?limit=100');
    expect(events.status).toBe(200);
    const stored: string[] = [];
    let startKey: Record<string, any> | undefined;
    do {
      const page = await baseClient().send(new ScanCommand({ TableName: table, ExclusiveStartKey: startKey }));
      stored.push(...(page.Items ?? []).map((item) => JSON.stringify(item)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    expect(stored.length).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(20);
    const leaks = SECRETS.flatMap((secret) => [
      ...answers.filter((a) => holds(a.text, secret)).map((a) => `answer holds ${secret}: ${a.text.slice(0, 200)}`),
      ...stored.filter((s) => holds(s, secret)).map((s) => `stored item holds ${secret}: ${s.slice(0, 200)}`),
    ]);
    expect(leaks).toEqual([]);
  });
});
