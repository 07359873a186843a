/**
 * The reconciler's fault suite, run by test/http/unknown-outcomes.test.ts (payments on the platform's
 * own Stripe account) and test/http/unknown-outcomes-accounts.test.ts (payments on the merchant's own
 * connector accounts): the same tests, the harness's mode deciding which account the
 * payments go to and which ledger they are compared with (test/helpers/fault-harness.ts).
 *
 * Fault injection through HTTP: every money-moving operation, faulted before, during
 * and after its processor call, must end — after the fault clears and one reconciler
 * pass — in the state the processor's own ledger shows, with nothing left open,
 * nothing charged or refunded twice, and no answer saying "nothing was changed" when
 * the processor did something.
 *
 * The convergence bounds (docs/money-safety.md, "Convergence"), with the real configured leases, deadlines and margins and the
 * harness's clock moved instead of waited on: whatever the processor did is recorded by a reconciler pass run at
 * the convergence bound after the fault (`reconcileWithinBound`: 60 s less the settling allowance, after storage
 * returned or after the faulted request started); a call the processor may still be working on is not taken as
 * "not done" then, only after that processor's own window (`reconcileLater`); a keyed retry of a request that
 * answered `outcome_unknown`, sent `KEYED_RETRY_BOUND_MS` (10 s) after storage returned, gets the reconciled
 * answer — whether storage came back while the request was still waiting on it or only after it gave up.
 *
 * Parts, all real: the local gateway and handlers, DynamoDB Local (a table of this
 * file's own, so the reconciler sees only this file's items), the Stripe adapter
 * against the loopback Stripe stand-in (test/helpers/stripe-stand-in.ts) that keeps a
 * ledger, and the reconciler's own operation. With merchant accounts, every call after the
 * payment's routing (capture, void, refund, lookups, the reconciler's) must use the key of the account
 * the payment is on, and the platform's account must see nothing (checked by `expectConverged`).
 *
 * Storage faults come from the documented test hook: a middleware on the process-wide
 * DynamoDB client (the one the handlers use) that fails a chosen command (matched by
 * name and by the item's `PK`, from `Key` or `Item`) — as a storage
 * outage (`ECONNREFUSED`, what an unreachable or throttled table looks like to the SDK)
 * or as the process dying (an error that no handler code expects, so nothing after it runs).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAIM_LEASE_MARGIN_MS, CLAIM_LEASE_MS, PROCESSOR_WORK_WINDOW_MS } from '../../shared/domain/pending-operation';
import { reconcileDueContinuously, reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { API_GATEWAY_TIMEOUT_MS } from '../../shared/operations/request-context';
import { FINAL_ANSWER_RESERVE_MS, STORAGE_RETRY_MAX_WAIT_MS } from '../../shared/operations/storage-retry';
import { forgetAccountConnector } from '../../shared/processor-call/account-connectors';
import { KEYED_RETRY_BOUND_MS, RECONCILE_PASS_INTERVAL_MS } from '../../shared/settings/reconcile-settings';
import { cardFreeKey } from '../helpers/card-free-key';
import { type FaultHarnessOptions, type StorageFault, useFaultHarness } from '../helpers/fault-harness';
import { card, expectError, type LocalApi, type TestResponse } from '../helpers/local-api';
import type { StripeStandIn } from '../helpers/stripe-stand-in';

/**
 * Registers the suite in the calling test file.
 * @param options the harness's mode: `merchantAccount: true` for payments on the merchant's own accounts
 */
export function unknownOutcomesSuite(options: FaultHarnessOptions = {}): void {
  const h = useFaultHarness(400, options);
  const { merchantAccount } = h;
  /** What a payment (or its pending operation) routed to Stripe carries: the connector and the account. */
  const onStripe = () => ({ connector: 'stripe', merchant_connector_id: h.targets.stripe });
  const onSandbox = () => ({ connector: 'sandbox', merchant_connector_id: h.targets.sandbox });
  const failStorage = (f: StorageFault) => h.failStorage(f);
  const clearFault = () => h.failStorage(undefined);
  const reconcileLater = (aheadMs?: number) => h.reconcileLater(aheadMs);
  /** One reconciler pass at the convergence bound after a fault that ended (or a faulted request that started) at `from`. */
  const reconcileWithinBound = (from: number) => h.reconcileWithinBound(from);
  const expectConverged = (id: string) => h.expectConverged(id);
  const now = () => h.clock.now();
  /**
   * A storage outage from a request's write after its processor call (`nth` write on the item's `pk`) that takes
   * the whole table down: it lasts `times` failed calls (then storage is back while the request still waits on it),
   * or, with `Infinity`, until the test says storage returned — after the request gave up (its waits run on the
   * harness clock, so its whole budget passes in milliseconds).
   */
  const outageAfterCall = (pk: string, nth: number, times: number): StorageFault => ({
    command: 'write',
    pk,
    nth,
    times,
    mode: 'outage',
    wholeTable: true,
  });
  let api: LocalApi;
  let stripe: StripeStandIn;
  beforeAll(() => {
    api = h.api;
    stripe = h.stripe;
  });

  /** An answer that claims nothing changed must be true: the ledger shows no call for this payment. */
  function expectNothingChangedIsTrue(res: TestResponse, paymentId: string | undefined, ledgerBefore?: unknown): void {
    if (res.status === 503 && res.body?.error?.code === 'service_unavailable') {
      expect(paymentId ? h.ledger()[paymentId] : undefined).toEqual(ledgerBefore);
    }
  }

  const usdCard = (extra: Record<string, unknown> = {}) => ({
    amount: 2000 + Math.floor(Math.random() * 9000),
    currency: 'USD',
    payment_method_data: card('4242424242424242'),
    ...extra,
  });
  const pidFromKey = async (key: string) => {
    // The payment id derived from an Idempotency-Key is found through the list (the create's answer was lost).
    const list = (await api.request('GET', '/payments?limit=100')).body.data as { payment_id: string; metadata: Record<string, string> }[];
    return list.find((p) => p.metadata.test_key === key)?.payment_id;
  };

  async function manualPayment(): Promise<Record<string, any>> {
    const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true, capture_method: 'manual' }) });
    expect(res.body).toMatchObject({ status: 'RequiresCapture', ...onStripe() });
    return res.body;
  }

  async function succeededPayment(): Promise<Record<string, any>> {
    const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true }) });
    expect(res.body).toMatchObject({ status: 'Succeeded', ...onStripe() });
    return res.body;
  }

  describe('create with confirm: true', () => {
    test('storage down before the processor call → 503 "nothing was changed", and nothing was', async () => {
      const key = cardFreeKey();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 1, mode: 'outage' });
      const res = await api.request('POST', '/payments', {
        body: usdCard({ confirm: true, metadata: { test_key: key } }),
        headers: { 'Idempotency-Key': key },
      });
      expect(expectError(res, 503, 'service_unavailable').message).toMatch(/nothing was changed/i);
      expect(await pidFromKey(key)).toBeUndefined();
      expect(stripe.requests.filter((r) => r.idempotencyKey?.includes(':authorize') && r.form['metadata[test_key]'] === key)).toEqual([]);
    });

    test('processor charges then times out → Processing with outcome_unknown; the reconciler finds the charge', async () => {
      h.failProcessor({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
      h.failProcessor({ method: 'GET', path: '/v1/payment_intents/search' }, 'reset_before_work'); // the lookup fails too
      const sandboxCalls = jest.spyOn(
        (await import('../../shared/connectors/sandbox/sandbox-connector')).SandboxConnector.prototype,
        'authorize',
      );
      const t0 = now();
      const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true }) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'Processing',
        ...onStripe(),
        pending_operation: { operation: 'authorize', ...onStripe(), state: 'in_progress' },
      });
      // Leased until the request's end (API Gateway's 30 s at most) plus the margin, not minutes.
      const claim = res.body.pending_operation;
      expect(Date.parse(claim.lease_expires_at)).toBeLessThanOrEqual(
        Date.parse(claim.started_at) + API_GATEWAY_TIMEOUT_MS + CLAIM_LEASE_MARGIN_MS,
      );
      expect(h.ledger()[res.body.payment_id]?.charges).toBe(1);
      expect(sandboxCalls).not.toHaveBeenCalled(); // never a second processor while the first may hold the charge
      const report = await reconcileWithinBound(t0);
      expect(report.outcomes['payment:settled']).toBeGreaterThanOrEqual(1);
      expect(await expectConverged(res.body.payment_id)).toMatchObject({ status: 'Succeeded', ...onStripe() });
    });

    test('processor times out without charging → the reconciler fails the payment once Stripe search has had its window', async () => {
      h.failProcessor({ method: 'POST', path: '/v1/payment_intents' }, 'hang_before_work');
      h.failProcessor({ method: 'GET', path: '/v1/payment_intents/search' }, 'reset_before_work');
      const t0 = now();
      const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true }) });
      expect(res.body).toMatchObject({ status: 'Processing', pending_operation: { state: 'in_progress' } });
      expect(h.ledger()[res.body.payment_id]).toBeUndefined();
      // At the bound Stripe's search cannot tell yet whether the charge exists (its window is an hour): the
      // payment is never failed then, it stays Processing with its outcome unknown (nothing was charged either).
      await reconcileWithinBound(t0);
      expect((await api.request('GET', `/payments/${res.body.payment_id}`)).body).toMatchObject({
        status: 'Processing',
        amount_captured: 0,
        pending_operation: { operation: 'authorize', state: 'outcome_unknown' },
      });
      await reconcileLater();
      expect(await expectConverged(res.body.payment_id)).toMatchObject({ status: 'Failed', error_code: 'payment_intent_not_found' });
    });

    test('outcome write fails after the charge → 503 outcome_unknown (never "nothing was changed"); a keyed retry gets the reconciled payment', async () => {
      const key = cardFreeKey();
      const body = usdCard({ confirm: true, metadata: { test_key: key } });
      // One failed write: the outcome's. The table is back for the request's hand-over.
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'outage' });
      const res = await api.request('POST', '/payments', { body, headers: { 'Idempotency-Key': key } });
      const error = expectError(res, 503, 'outcome_unknown');
      expect(error.message).not.toMatch(/nothing was changed/i);
      expect(error.message).toMatch(/Idempotency-Key/);
      expect(res.headers.get('retry-after')).toBe('5');
      const back = h.storageReturns();
      const id = await pidFromKey(key);
      expect(h.ledger()[id as string]?.charges).toBe(1);
      const stuck = (await api.request('GET', `/payments/${id}`)).body;
      expect(stuck).toMatchObject({ status: 'Processing', pending_operation: { operation: 'authorize', ...onStripe() } });
      // The request handed its claim over before answering: free a lease margin later, not at the end of its time.
      expect(Date.parse(stuck.pending_operation.lease_expires_at)).toBeLessThanOrEqual(back + CLAIM_LEASE_MARGIN_MS + 1_000);
      // The retry its Retry-After invites, within the keyed-retry bound, reconciles and answers the truth.
      h.clock.set(back + KEYED_RETRY_BOUND_MS);
      const retry = await api.request('POST', '/payments', { body, headers: { 'Idempotency-Key': key } });
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ payment_id: id, status: 'Succeeded' });
      expect(h.ledger()[id as string]?.charges).toBe(1);
      await expectConverged(id as string);
    });

    test.each([
      ['while the request still waits on it (it hands its claim over then)', 3],
      ['only after the request gave up', Infinity],
    ])('storage down from the outcome write, back %s: a keyed retry 10 s later gets the reconciled payment, never 409', async (_when, times) => {
      const key = cardFreeKey();
      const body = usdCard({ confirm: true, metadata: { test_key: key } });
      failStorage(outageAfterCall('#PAYMENT#', 2, times));
      const t0 = now();
      const res = await api.request('POST', '/payments', { body, headers: { 'Idempotency-Key': key } });
      expectError(res, 503, 'outcome_unknown');
      const back = h.storageReturns();
      // The request waited on storage for at most its own time (virtual here): never past API Gateway's 30 s.
      expect(back - t0).toBeLessThan(API_GATEWAY_TIMEOUT_MS);
      const id = (await pidFromKey(key)) as string;
      expect(h.ledger()[id]?.charges).toBe(1);
      const claim = (await api.request('GET', `/payments/${id}`)).body.pending_operation;
      // The arithmetic of the bound: handed over (a margin after storage answered) or, when storage came back only
      // after the request gave up (its last try at most a wait before its answer reserve), leased until the
      // request's end plus the margin — either way free well before the retry.
      expect(Date.parse(claim.lease_expires_at)).toBeLessThanOrEqual(
        back + CLAIM_LEASE_MARGIN_MS + FINAL_ANSWER_RESERVE_MS + STORAGE_RETRY_MAX_WAIT_MS,
      );
      h.clock.set(back + KEYED_RETRY_BOUND_MS);
      const retry = await api.request('POST', '/payments', { body, headers: { 'Idempotency-Key': key } });
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ payment_id: id, status: 'Succeeded', pending_operation: null });
      expect(h.ledger()[id]?.charges).toBe(1);
      await expectConverged(id);
    });

    test('the process dies between the charge and its write → the reconciler records the charge', async () => {
      const key = cardFreeKey();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'killed' });
      const t0 = now();
      const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true, metadata: { test_key: key } }) });
      expect(res.status).toBeGreaterThanOrEqual(500);
      const id = (await pidFromKey(key)) as string;
      expect(h.ledger()[id]?.charges).toBe(1);
      await reconcileWithinBound(t0);
      expect(await expectConverged(id)).toMatchObject({ status: 'Succeeded' });
    });

    test('storage down during the call (processor hangs after charging, every write fails) → outcome_unknown, then converges', async () => {
      const key = cardFreeKey();
      h.failProcessor({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, times: Infinity, mode: 'outage' });
      const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true, metadata: { test_key: key } }) });
      expectError(res, 503, 'outcome_unknown');
      const back = h.storageReturns();
      const id = (await pidFromKey(key)) as string;
      await reconcileWithinBound(back);
      expect(await expectConverged(id)).toMatchObject({ status: 'Succeeded' });
    });
  });

  describe('confirm', () => {
    test('claim write fails → 503 nothing changed (true: no call); the outcome write fails → outcome_unknown, then converges', async () => {
      const created = await api.request('POST', '/payments', { body: { amount: 5100, currency: 'USD', payment_method: 'card' } });
      const id = created.body.payment_id as string;
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 1, mode: 'outage' });
      const first = await api.request('POST', `/payments/${id}/confirm`, { body: { payment_method_data: card('4242424242424242') } });
      expectError(first, 503, 'service_unavailable');
      expectNothingChangedIsTrue(first, id, undefined);
      expect(h.ledger()[id]).toBeUndefined();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'outage' });
      expectError(
        await api.request('POST', `/payments/${id}/confirm`, { body: { payment_method_data: card('4242424242424242') } }),
        503,
        'outcome_unknown',
      );
      expect(h.ledger()[id]?.charges).toBe(1);
      await reconcileWithinBound(h.storageReturns());
      await expectConverged(id);
    });

    test('a keyed confirm whose outcome write met an outage: its retry 10 s after storage returns gets the confirmed payment (200), not 409', async () => {
      const created = await api.request('POST', '/payments', { body: { amount: 5200, currency: 'USD', payment_method: 'card' } });
      const id = created.body.payment_id as string;
      const confirm = () =>
        api.request('POST', `/payments/${id}/confirm`, {
          body: { payment_method_data: card('4242424242424242') },
          headers: { 'Idempotency-Key': `confirm-${id}` },
        });
      failStorage(outageAfterCall('#PAYMENT#', 2, Infinity));
      expectError(await confirm(), 503, 'outcome_unknown');
      const back = h.storageReturns();
      expect(h.ledger()[id]?.charges).toBe(1);
      h.clock.set(back + KEYED_RETRY_BOUND_MS);
      const retry = await confirm();
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ payment_id: id, status: 'Succeeded', pending_operation: null });
      // The same key is still this confirm: answered again, never charged again.
      expect((await confirm()).body).toMatchObject({ payment_id: id, status: 'Succeeded' });
      expect(h.ledger()[id]?.charges).toBe(1);
      // Another confirm (no key) is refused as ever.
      expectError(await api.request('POST', `/payments/${id}/confirm`, { body: {} }), 409, 'payment_unexpected_state');
      await expectConverged(id);
    });
  });

  describe('capture', () => {
    test('processor captures then times out → outcome_unknown; the reconciler records the capture', async () => {
      const p = await manualPayment();
      h.failProcessor({ method: 'POST', path: `/v1/payment_intents/${p.connector_transaction_id}/capture` }, 'hang_after_work');
      const t0 = now();
      const res = await api.request('POST', `/payments/${p.payment_id}/capture`);
      expect(expectError(res, 503, 'outcome_unknown').message).not.toMatch(/nothing was changed/i);
      expect((await api.request('GET', `/payments/${p.payment_id}`)).body.pending_operation).toMatchObject({
        operation: 'capture',
        amount: p.amount,
        state: 'in_progress',
      });
      // While the claim is there, refund and cancel refuse (no double movement) …
      expectError(await api.request('POST', `/payments/${p.payment_id}/cancel`), 409);
      await reconcileWithinBound(t0);
      expect(await expectConverged(p.payment_id)).toMatchObject({ status: 'Succeeded', amount_captured: p.amount });
    });

    test('processor times out without capturing → the claim stays while Stripe may still apply it, then the reconciler releases it; a capture then works', async () => {
      const p = await manualPayment();
      h.failProcessor({ method: 'POST', path: `/v1/payment_intents/${p.connector_transaction_id}/capture` }, 'hang_before_work');
      const t0 = now();
      expectError(await api.request('POST', `/payments/${p.payment_id}/capture`), 503, 'outcome_unknown');
      const claim = (await api.request('GET', `/payments/${p.payment_id}`)).body.pending_operation;
      // At the bound, Stripe shows no capture, but it may still apply the call it received: kept, not released
      // (the money is the ledger's: nothing captured on either side).
      expect((await reconcileWithinBound(t0)).outcomes['payment:unchanged']).toBeGreaterThanOrEqual(1);
      expect((await api.request('GET', `/payments/${p.payment_id}`)).body).toMatchObject({
        status: 'RequiresCapture',
        amount_captured: 0,
        pending_operation: { operation: 'capture', state: 'outcome_unknown' },
      });
      expect(h.ledger()[p.payment_id]?.amountCaptured).toBe(0);
      // Once the processor's work window has passed since the call was sent, "not captured" is final.
      const report = await reconcileLater(Date.parse(claim.started_at) + PROCESSOR_WORK_WINDOW_MS - now());
      expect(report.outcomes['payment:released']).toBeGreaterThanOrEqual(1);
      expect(await expectConverged(p.payment_id)).toMatchObject({ status: 'RequiresCapture', pending_operation: null });
      expect((await api.request('POST', `/payments/${p.payment_id}/capture`)).body.status).toBe('Succeeded');
      await expectConverged(p.payment_id);
    });

    test('storage fails before (claim), after (outcome write) and the process dies → each converges', async () => {
      const before = await manualPayment();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 1, mode: 'outage' });
      const res = await api.request('POST', `/payments/${before.payment_id}/capture`);
      expectError(res, 503, 'service_unavailable');
      expect(h.ledger()[before.payment_id]?.amountCaptured).toBe(0);

      const after = await manualPayment();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'outage' });
      expectError(await api.request('POST', `/payments/${after.payment_id}/capture`), 503, 'outcome_unknown');
      expect(h.ledger()[after.payment_id]?.amountCaptured).toBe(after.amount);

      const killed = await manualPayment();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'killed' });
      const t0 = now();
      expect((await api.request('POST', `/payments/${killed.payment_id}/capture`)).status).toBeGreaterThanOrEqual(500);

      await reconcileWithinBound(t0);
      await expectConverged(before.payment_id);
      expect(await expectConverged(after.payment_id)).toMatchObject({ status: 'Succeeded' });
      expect(await expectConverged(killed.payment_id)).toMatchObject({ status: 'Succeeded' });
    });

    test.each([
      ['capture', 'Succeeded'],
      ['cancel', 'Cancelled'],
    ])('a keyed %s whose outcome write met an outage: its retry 10 s after storage returns gets the payment it made (200), not 409', async (op, status) => {
      const p = await manualPayment();
      const send = () =>
        api.request('POST', `/payments/${p.payment_id}/${op}`, { headers: { 'Idempotency-Key': `${op}-${p.payment_id}` } });
      failStorage(outageAfterCall('#PAYMENT#', 2, Infinity));
      expectError(await send(), 503, 'outcome_unknown');
      const back = h.storageReturns();
      h.clock.set(back + KEYED_RETRY_BOUND_MS);
      const retry = await send();
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ payment_id: p.payment_id, status, pending_operation: null });
      // Another request (no key) meets the payment's state as ever.
      expectError(await api.request('POST', `/payments/${p.payment_id}/${op}`), 409, 'payment_unexpected_state');
      expect(await expectConverged(p.payment_id)).toMatchObject({ status });
    });

    if (!merchantAccount) {
      test('connector not configured at capture → 502, no claim left behind; capture works once it is back', async () => {
        const p = await manualPayment();
        const key = process.env.STRIPE_SECRET_KEY;
        delete process.env.STRIPE_SECRET_KEY;
        try {
          expectError(await api.request('POST', `/payments/${p.payment_id}/capture`), 502, 'connector_unavailable');
          expect((await api.request('GET', `/payments/${p.payment_id}`)).body).toMatchObject({
            status: 'RequiresCapture',
            pending_operation: null,
          });
        } finally {
          process.env.STRIPE_SECRET_KEY = key;
        }
        expect((await api.request('POST', `/payments/${p.payment_id}/capture`)).body.status).toBe('Succeeded');
        await expectConverged(p.payment_id);
      });
    } else {
      // An account cannot lose its credentials while it holds an authorized payment (its delete is refused,
      // test/http/connector-accounts.test.ts); the stage's own Stripe key does not matter to it.
      test("the platform's Stripe key unset at capture → the merchant's account captures with its own key", async () => {
        const p = await manualPayment();
        const key = process.env.STRIPE_SECRET_KEY;
        delete process.env.STRIPE_SECRET_KEY;
        try {
          expect((await api.request('POST', `/payments/${p.payment_id}/capture`)).body).toMatchObject({
            status: 'Succeeded',
            ...onStripe(),
          });
        } finally {
          process.env.STRIPE_SECRET_KEY = key;
        }
        await expectConverged(p.payment_id);
      });
    }
  });

  describe('cancel (void)', () => {
    test('processor voids then times out, or the void write fails → both converge to Cancelled', async () => {
      const hung = await manualPayment();
      h.failProcessor({ method: 'POST', path: `/v1/payment_intents/${hung.connector_transaction_id}/cancel` }, 'hang_after_work');
      expectError(await api.request('POST', `/payments/${hung.payment_id}/cancel`), 503, 'outcome_unknown');
      const lost = await manualPayment();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'outage' });
      const t0 = now();
      expectError(await api.request('POST', `/payments/${lost.payment_id}/cancel`), 503, 'outcome_unknown');
      await reconcileWithinBound(t0);
      expect(await expectConverged(hung.payment_id)).toMatchObject({ status: 'Cancelled' });
      expect(await expectConverged(lost.payment_id)).toMatchObject({ status: 'Cancelled' });
    });
  });

  describe('refund', () => {
    test('processor refunds then times out → Pending with outcome_unknown; the reconciler finds it by our refund id', async () => {
      const p = await succeededPayment();
      h.failProcessor({ method: 'POST', path: '/v1/refunds' }, 'hang_after_work');
      const t0 = now();
      const res = await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 700 } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'Pending',
        connector_refund_id: null,
        pending_operation: { operation: 'refund', amount: 700, state: 'in_progress' },
      });
      // The reserved amount cannot be refunded again meanwhile.
      expect((await api.request('GET', `/payments/${p.payment_id}`)).body.amount_refunded).toBe(700);
      const report = await reconcileWithinBound(t0);
      expect(report.outcomes['refund:succeeded']).toBeGreaterThanOrEqual(1);
      await expectConverged(p.payment_id);
      expect((await api.request('GET', `/refunds/${res.body.refund_id}`)).body).toMatchObject({
        status: 'Succeeded',
        connector_refund_id: expect.stringMatching(/^re_/),
      });
    });

    test('processor times out without refunding → the reconciler fails the refund and releases its amount', async () => {
      const p = await succeededPayment();
      h.failProcessor({ method: 'POST', path: '/v1/refunds' }, 'hang_before_work');
      const t0 = now();
      const res = await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 300 } });
      expect(res.body.status).toBe('Pending');
      // At the bound Stripe shows no such refund, but a refund request may still be executing there: the
      // refund stays Pending (its amount reserved), never failed then.
      await reconcileWithinBound(t0);
      expect((await api.request('GET', `/refunds/${res.body.refund_id}`)).body).toMatchObject({
        status: 'Pending',
        pending_operation: { operation: 'refund', state: 'outcome_unknown' },
      });
      expect(h.ledger()[p.payment_id]?.refunds).toEqual([]);
      await reconcileLater();
      await expectConverged(p.payment_id);
      expect((await api.request('GET', `/refunds/${res.body.refund_id}`)).body).toMatchObject({
        status: 'Failed',
        error_code: 'refund_not_found',
      });
      expect((await api.request('GET', `/payments/${p.payment_id}`)).body.amount_refunded).toBe(0);
    });

    test('storage fails on the reservation (nothing changed), on the settle write (outcome_unknown), or the process dies → each converges', async () => {
      const p = await succeededPayment();
      failStorage({ command: 'write', pk: '#REFUND#', nth: 1, mode: 'outage' });
      expectError(await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 100 } }), 503, 'service_unavailable');
      expect(h.ledger()[p.payment_id]?.refunds).toEqual([]);

      failStorage({ command: 'write', pk: '#REFUND#', nth: 2, mode: 'outage' });
      const lost = await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 200 } });
      expect(expectError(lost, 503, 'outcome_unknown').message).toMatch(/\/refunds\/ref_/);
      expect(h.ledger()[p.payment_id]?.refunds).toHaveLength(1);

      failStorage({ command: 'write', pk: '#REFUND#', nth: 2, mode: 'killed' });
      const t0 = now();
      expect((await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 300 } })).status).toBeGreaterThanOrEqual(500);
      expect(h.ledger()[p.payment_id]?.refunds).toHaveLength(2);

      await reconcileWithinBound(t0);
      expect(await expectConverged(p.payment_id)).toMatchObject({ amount_refunded: 500 });
    });

    test('a keyed refund whose settle write met an outage: its retry 10 s after storage returns gets the reconciled refund (Succeeded)', async () => {
      const p = await succeededPayment();
      const send = () =>
        api.request('POST', `/payments/${p.payment_id}/refund`, {
          body: { amount: 450 },
          headers: { 'Idempotency-Key': `ref-${p.payment_id}` },
        });
      // write 1 = the reservation, write 2 = the settlement.
      failStorage(outageAfterCall('#REFUND#', 2, Infinity));
      expect(expectError(await send(), 503, 'outcome_unknown').message).toMatch(/\/refunds\/ref_/);
      const back = h.storageReturns();
      expect(h.ledger()[p.payment_id]?.refunds).toHaveLength(1);
      h.clock.set(back + KEYED_RETRY_BOUND_MS);
      const retry = await send();
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ amount: 450, status: 'Succeeded', pending_operation: null });
      expect(h.ledger()[p.payment_id]?.refunds).toHaveLength(1);
      expect(await expectConverged(p.payment_id)).toMatchObject({ amount_refunded: 450 });
    });

    if (!merchantAccount) {
      test('refund to a connector that is not configured → 502 and nothing is reserved, however often it is retried', async () => {
        const p = await succeededPayment();
        const key = process.env.STRIPE_SECRET_KEY;
        delete process.env.STRIPE_SECRET_KEY;
        try {
          for (let i = 0; i < 3; i += 1)
            expectError(
              await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 100 } }),
              502,
              'connector_unavailable',
            );
        } finally {
          process.env.STRIPE_SECRET_KEY = key;
        }
        expect((await api.request('GET', `/payments/${p.payment_id}`)).body.amount_refunded).toBe(0);
        expect((await api.request('GET', `/payments/${p.payment_id}/refunds`)).body.data).toEqual([]);
      });
    } else {
      test('refund on an account deleted since (credentials destroyed) → 502 and nothing is reserved, however often it is retried', async () => {
        const other = await h.connectStripeAccount();
        const paid = await api.request('POST', '/payments', {
          body: usdCard({ confirm: true, merchant_connector_id: other.merchantConnectorId }),
        });
        expect(paid.body).toMatchObject({ status: 'Succeeded', connector: 'stripe', merchant_connector_id: other.merchantConnectorId });
        const id = paid.body.payment_id as string;
        // One container here: nothing else routes from a cached configuration, so the delete need not wait the cache period.
        const cacheMs = process.env.CONNECTOR_CONFIG_CACHE_MS;
        process.env.CONNECTOR_CONFIG_CACHE_MS = '0';
        try {
          expect((await api.request('DELETE', `/connector_accounts/${other.merchantConnectorId}`)).body).toEqual({
            merchant_connector_id: other.merchantConnectorId,
            deleted: true,
          });
        } finally {
          if (cacheMs === undefined) delete process.env.CONNECTOR_CONFIG_CACHE_MS;
          else process.env.CONNECTOR_CONFIG_CACHE_MS = cacheMs;
        }
        for (let i = 0; i < 3; i += 1)
          expectError(await api.request('POST', `/payments/${id}/refund`, { body: { amount: 100 } }), 502, 'connector_unavailable');
        expect((await api.request('GET', `/payments/${id}`)).body.amount_refunded).toBe(0);
        expect((await api.request('GET', `/payments/${id}/refunds`)).body.data).toEqual([]);
        expect(stripe.ledgerOf(other.secretKey)[id]?.refunds).toEqual([]);
        await expectConverged(id);
        // The merchant's other payments still go to its first account.
        await succeededPayment();
      });
    }
  });

  /** Posts a Stripe event signed as Stripe signs (`t=…,v1=HMAC-SHA256(t.body)`) to our webhook endpoint. */
  async function sendStripeEvent(event: Record<string, unknown>) {
    const raw = JSON.stringify(event);
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', h.stripeWebhook.secret).update(`${t}.${raw}`).digest('hex');
    return api.request('POST', h.stripeWebhook.path, {
      raw,
      key: null,
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${sig}` },
    });
  }

  /** A Stripe event from the recorded fixture (test/connectors/fixtures/stripe/), with its object replaced. */
  function stripeEvent(fixtureName: string, object: Record<string, unknown>): Record<string, unknown> {
    const event = JSON.parse(readFileSync(join(process.cwd(), 'test/connectors/fixtures/stripe', `${fixtureName}.json`), 'utf8')) as {
      data: { object: Record<string, unknown> };
    };
    return {
      ...event,
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      created: Math.floor(Date.now() / 1000),
      data: { ...event.data, object: { ...event.data.object, ...object } },
    };
  }

  describe('processor events that change money', () => {
    test('a capture done in the processor dashboard and a cancellation by the processor are applied to RequiresCapture payments', async () => {
      const captured = await manualPayment();
      const cancelled = await manualPayment();
      const intent = (p: Record<string, any>, status: string, amountReceived: number) => ({
        id: p.connector_transaction_id,
        amount: p.amount,
        amount_received: amountReceived,
        amount_capturable: 0,
        currency: 'usd',
        status,
        metadata: { payment_id: p.payment_id },
      });
      const r1 = await sendStripeEvent(stripeEvent('event.payment_intent.succeeded', intent(captured, 'succeeded', captured.amount)));
      expect(r1.body).toMatchObject({ applied: true, status: 'Succeeded' });
      const r2 = await sendStripeEvent(stripeEvent('event.payment_intent.canceled', intent(cancelled, 'canceled', 0)));
      expect(r2.body).toMatchObject({ applied: true, status: 'Cancelled' });
      expect((await api.request('GET', `/payments/${captured.payment_id}`)).body).toMatchObject({
        status: 'Succeeded',
        amount_captured: captured.amount,
      });
      expect((await api.request('GET', `/payments/${cancelled.payment_id}`)).body.status).toBe('Cancelled');
    });

    test('a refund event settles a Pending refund whose call never answered (the event triggers a lookup at the processor)', async () => {
      const p = await succeededPayment();
      h.failProcessor({ method: 'POST', path: '/v1/refunds' }, 'hang_after_work');
      const refund = (await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 250 } })).body;
      expect(refund).toMatchObject({ status: 'Pending', connector_refund_id: null });
      const atStripe = h.ledger()[p.payment_id]!.refunds[0]!;
      const event = stripeEvent('event.refund.updated', {
        id: atStripe.id,
        amount: 250,
        currency: 'usd',
        status: 'succeeded',
        payment_intent: p.connector_transaction_id,
        metadata: { refund_id: refund.refund_id, payment_id: p.payment_id },
      });
      // While the refund request's lease runs, the event asks for redelivery (not recorded as handled) …
      expectError(await sendStripeEvent(event), 409, 'payment_busy');
      // … the processor's redelivery after it is applied.
      h.clock.advance(CLAIM_LEASE_MS + 1_000);
      const res = await sendStripeEvent(event);
      expect(res.body).toMatchObject({ applied: true, status: 'Succeeded' });
      expect((await api.request('GET', `/refunds/${refund.refund_id}`)).body).toMatchObject({
        status: 'Succeeded',
        connector_refund_id: atStripe.id,
        pending_operation: null,
      });
      // A redelivery changes nothing.
      expect((await sendStripeEvent(event)).body.applied).toBe(false);
      await expectConverged(p.payment_id);
    });
  });

  describe('routing fallback never charges twice', () => {
    test('[stripe, sandbox]: Stripe charges and times out → its lookup finds the charge; the sandbox is never called', async () => {
      const sandbox = jest.spyOn(
        (await import('../../shared/connectors/sandbox/sandbox-connector')).SandboxConnector.prototype,
        'authorize',
      );
      h.failProcessor({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
      const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true }) });
      expect(res.body).toMatchObject({ status: 'Succeeded', ...onStripe(), pending_operation: null });
      expect(sandbox).not.toHaveBeenCalled();
      await expectConverged(res.body.payment_id);
    });

    test('[stripe, sandbox]: the request to Stripe never leaves (connection refused) → the sandbox takes it; Stripe holds nothing', async () => {
      const url = process.env.STRIPE_BASE_URL;
      process.env.STRIPE_BASE_URL = 'http://127.0.0.1:1';
      // An account's adapter is built with the stage's base URL and kept for a while: build it afresh.
      if (h.targets.stripe) forgetAccountConnector(h.targets.stripe);
      try {
        const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true }) });
        expect(res.body).toMatchObject({ status: 'Succeeded', ...onSandbox(), pending_operation: null });
        expect(
          res.body.attempts.map((a: { connector: string; merchant_connector_id: string | null; status: string }) => [
            a.connector,
            a.merchant_connector_id,
            a.status,
          ]),
        ).toEqual([
          ['stripe', h.targets.stripe, 'Failed'],
          ['sandbox', h.targets.sandbox, 'Succeeded'],
        ]);
        expect(h.ledger()[res.body.payment_id]).toBeUndefined();
      } finally {
        process.env.STRIPE_BASE_URL = url;
        if (h.targets.stripe) forgetAccountConnector(h.targets.stripe);
      }
    });
  });

  describe('customer delete', () => {
    const linkedPayments = async (customerId: string, n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 8) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(8, n - i) }, () =>
            api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN', customer_id: customerId } }),
          ),
        );
        ids.push(...batch.map((r) => r.body.payment_id as string));
      }
      return ids;
    };

    // No processor call and nothing per account in the unlink of 400 payments (the slowest test here): run once,
    // on the platform's accounts; the 30-payment unlink below, finished by the reconciler, runs in both modes.
    const platformOnly = merchantAccount ? test.skip : test;
    platformOnly(
      '400 payments: interrupted midway, a retried DELETE finishes the unlink; then it is 404',
      async () => {
        const cus = (await api.request('POST', '/customers', { body: { name: 'Big Buyer' } })).body.customer_id as string;
        const ids = await linkedPayments(cus, 400);
        failStorage({ command: 'write', pk: '#PAYMENT#', nth: 150, mode: 'outage' });
        expectError(await api.request('DELETE', `/customers/${cus}`), 503);
        clearFault();
        expectError(await api.request('GET', `/customers/${cus}`), 404); // gone for the API from the first DELETE
        expect((await api.request('DELETE', `/customers/${cus}`)).body).toEqual({ customer_id: cus, deleted: true });
        expectError(await api.request('DELETE', `/customers/${cus}`), 404);
        const linked = (await Promise.all(ids.map((id) => api.request('GET', `/payments/${id}`)))).filter(
          (r) => r.body.customer_id !== null,
        );
        expect(linked).toHaveLength(0);
        await reconcileLater();
        expect((await api.request('GET', `/payments?limit=1`)).status).toBe(200);
        // 400 linked payments through HTTP take ~27 s alone on 2 cores; the default 30 s is too tight under load.
      },
      120_000,
    );

    test('interrupted and never retried: the reconciler finishes the unlink and removes the customer', async () => {
      const cus = (await api.request('POST', '/customers', { body: {} })).body.customer_id as string;
      const ids = await linkedPayments(cus, 30);
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 10, mode: 'killed' });
      expect((await api.request('DELETE', `/customers/${cus}`)).status).toBeGreaterThanOrEqual(500);
      const report = await reconcileLater();
      expect(report.outcomes['customer_delete:deleted']).toBeGreaterThanOrEqual(1);
      const linked = (await Promise.all(ids.map((id) => api.request('GET', `/payments/${id}`)))).filter((r) => r.body.customer_id !== null);
      expect(linked).toHaveLength(0);
      expectError(await api.request('DELETE', `/customers/${cus}`), 404);
      expectError(
        await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN', customer_id: cus } }),
        400,
        'resource_missing',
      );
    });
  });

  describe('idempotency during a storage outage', () => {
    test('a keyed POST while storage is down answers 503 JSON, never a bare 500; the key works once storage is back', async () => {
      const key = cardFreeKey();
      failStorage({ command: 'PutItem', nth: 1, times: Infinity, mode: 'outage' });
      const res = await api.request('POST', '/customers', { body: { name: 'Ada' }, headers: { 'Idempotency-Key': key } });
      expectError(res, 503, 'service_unavailable');
      clearFault();
      const retry = await api.request('POST', '/customers', { body: { name: 'Ada' }, headers: { 'Idempotency-Key': key } });
      expect(retry.status).toBe(200);
      expect(retry.body.customer_id).toMatch(/^cus_/);
    });

    test('storage failing after the work (the stored answer cannot be completed) still answers the work done', async () => {
      const key = cardFreeKey();
      failStorage({ command: 'UpdateItem', pk: 'idempotency#', nth: 1, mode: 'outage' });
      const res = await api.request('POST', '/payments', {
        body: usdCard({ confirm: true, metadata: { test_key: key } }),
        headers: { 'Idempotency-Key': key },
      });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('Succeeded');
      await expectConverged(res.body.payment_id);
    });
  });

  describe('the reconciler itself', () => {
    test('never takes over a claim whose lease still runs; two runs at once settle an item once', async () => {
      const p = await manualPayment();
      failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'outage' });
      expectError(await api.request('POST', `/payments/${p.payment_id}/capture`), 503, 'outcome_unknown');
      const claim = (await api.request('GET', `/payments/${p.payment_id}`)).body.pending_operation;
      const leaseEnd = Date.parse(claim.lease_expires_at);
      // The lease follows the request's own end (API Gateway's 30 s at most) plus the margin: not minutes.
      expect(leaseEnd).toBeLessThanOrEqual(Date.parse(claim.started_at) + API_GATEWAY_TIMEOUT_MS + CLAIM_LEASE_MARGIN_MS);
      expect(leaseEnd).toBeGreaterThanOrEqual(Date.parse(claim.started_at) + CLAIM_LEASE_MARGIN_MS);
      // Until its lease ends the capture request may still be running: left alone. (A pass one second before the
      // end, not one millisecond: the harness's clock keeps running during the pass, and a pass slower than the
      // margin on a loaded machine would start inside the lease and end after it.)
      await h.reconcileLater(leaseEnd - 1_000 - now());
      expect((await api.request('GET', `/payments/${p.payment_id}`)).body).toMatchObject({
        status: 'RequiresCapture',
        pending_operation: { operation: 'capture', state: 'in_progress' },
      });
      h.clock.set(leaseEnd);
      const [a, b] = await Promise.all([
        reconcileOpenOperations({ deadlineMs: leaseEnd + 300_000 }),
        reconcileOpenOperations({ deadlineMs: leaseEnd + 300_000 }),
      ]);
      const settledRuns = [a, b].filter((r) => (r.outcomes['payment:settled'] ?? 0) > 0).length;
      expect(settledRuns).toBeGreaterThanOrEqual(1);
      const after = await expectConverged(p.payment_id);
      expect(after).toMatchObject({ status: 'Succeeded', amount_captured: p.amount });
      // Settling asks, it never captures again: one capture call reached the processor.
      expect(
        stripe.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/capture') && r.path.includes(p.connector_transaction_id)),
      ).toHaveLength(1);
    });

    test('storage failing after the reconciler asked the processor (its settle write) leaves the item open; the next pass converges', async () => {
      h.failProcessor({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
      h.failProcessor({ method: 'GET', path: '/v1/payment_intents/search' }, 'reset_before_work');
      const paid = await api.request('POST', '/payments', { body: usdCard({ confirm: true }) });
      expect(paid.body.status).toBe('Processing');
      const p = await succeededPayment();
      h.failProcessor({ method: 'POST', path: '/v1/refunds' }, 'hang_after_work');
      const refund = (await api.request('POST', `/payments/${p.payment_id}/refund`, { body: { amount: 400 } })).body;
      expect(refund.status).toBe('Pending');
      const later = now() + CLAIM_LEASE_MS + 1_000;
      h.clock.set(later);
      // The processor is asked (a read), then every write that would record its answer fails.
      failStorage({ command: 'write', pk: 'MERCHANT#', nth: 1, times: Infinity, mode: 'outage' });
      const failed = await reconcileOpenOperations({ deadlineMs: later + 300_000 });
      clearFault();
      expect(failed.outcomes['payment:error']).toBeGreaterThanOrEqual(1);
      expect(failed.outcomes['refund:error']).toBeGreaterThanOrEqual(1);
      expect((await api.request('GET', `/payments/${paid.body.payment_id}`)).body).toMatchObject({
        status: 'Processing',
        pending_operation: { operation: 'authorize' },
      });
      expect((await api.request('GET', `/refunds/${refund.refund_id}`)).body).toMatchObject({
        status: 'Pending',
        pending_operation: { operation: 'refund' },
      });
      // A failure of storage is no reason to back off: the items stay due, and the very next look takes them.
      await reconcileLater(RECONCILE_PASS_INTERVAL_MS);
      expect(await expectConverged(paid.body.payment_id)).toMatchObject({ status: 'Succeeded' });
      await expectConverged(p.payment_id);
      expect((await api.request('GET', `/refunds/${refund.refund_id}`)).body.status).toBe('Succeeded');
    });

    // A run of about 2 s of real time: once, on the platform's accounts.
    (merchantAccount ? test.skip : test)(
      'a run keeps looking: a claim whose lease ends during the run is settled within a look of its end, not at the next scheduled run',
      async () => {
        h.failProcessor({ method: 'POST', path: '/v1/payment_intents' }, 'hang_after_work');
        h.failProcessor({ method: 'GET', path: '/v1/payment_intents/search' }, 'reset_before_work');
        const res = await api.request('POST', '/payments', { body: usdCard({ confirm: true }) });
        expect(res.body).toMatchObject({ status: 'Processing', pending_operation: { operation: 'authorize' } });
        const id = res.body.payment_id as string;
        const leaseEnd = Date.parse(res.body.pending_operation.lease_expires_at);
        const searches = () =>
          stripe.requests.filter((r) => r.path === '/v1/payment_intents/search' && JSON.stringify(r.form).includes(id)).length;
        const asked = searches();
        // Looks before the lease ends leave the claim alone (its request may still run).
        h.clock.set(leaseEnd - 1_500);
        await reconcileDueContinuously({ untilMs: now() + 500, deadlineMs: now() + 60_000, intervalMs: 100 });
        expect((await api.request('GET', `/payments/${id}`)).body).toMatchObject({
          status: 'Processing',
          pending_operation: { state: 'in_progress' },
        });
        expect(searches()).toBe(asked);
        // The same run, going on past the lease's end (the clock runs on in real time): a look takes it over then.
        const outcomes = await reconcileDueContinuously({ untilMs: now() + 2_000, deadlineMs: now() + 60_000, intervalMs: 100 });
        expect(outcomes['payment:settled']).toBeGreaterThanOrEqual(1);
        expect(searches()).toBe(asked + 1);
        expect(await expectConverged(id)).toMatchObject({ status: 'Succeeded', ...onStripe() });
      },
    );

    test('sandbox bank transfer, USSD and mobile money complete through the reconciler where no webhook timer runs (a deployed stage)', async () => {
      const saved = process.env.SANDBOX_WEBHOOKS;
      process.env.SANDBOX_WEBHOOKS = 'off';
      try {
        const ids: string[] = [];
        for (const method of ['bank_transfer', 'ussd', 'mobile_money']) {
          const res = await api.request('POST', '/payments', {
            body: { amount: 4500, currency: 'NGN', payment_method: method, confirm: true },
          });
          expect(['RequiresAction', 'Processing']).toContain(res.body.status);
          ids.push(res.body.payment_id);
        }
        await reconcileLater(5 * 60 * 1000);
        for (const id of ids) {
          expect((await api.request('GET', `/payments/${id}`)).body).toMatchObject({
            status: 'Succeeded',
            ...onSandbox(),
            amount_captured: 4500,
            pending_operation: null,
          });
        }
      } finally {
        if (saved === undefined) delete process.env.SANDBOX_WEBHOOKS;
        else process.env.SANDBOX_WEBHOOKS = saved;
      }
    });
  });

  describe('items written before the open-operations index', () => {
    test('the one-off backfill indexes a legacy Processing payment with an old-style claim, and the reconciler settles it', async () => {
      const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
      const { documentClient } = await import('../../shared/storage/client');
      const { backfillOpenIndex } = await import('../../scripts/migrations/open-index-backfill');
      const created = (await api.request('POST', '/payments', { body: { amount: 3100, currency: 'NGN', payment_method: 'card' } })).body;
      // Written before connector accounts existed: no merchant_connector_id (the platform's own sandbox).
      const template = Object.fromEntries(Object.entries(created).filter(([k]) => k !== 'merchant_connector_id'));
      const legacyId = `pay_legacy${cardFreeKey().replace(/-/g, '').slice(0, 20)}`; // no digits: never read as a card number
      const old = new Date(Date.now() - 10 * 60_000).toISOString();
      // As the previous release stored a confirm interrupted after its claim: a bare-string claim, no GSI5 keys.
      await documentClient().send(
        new PutCommand({
          TableName: process.env.TABLE_NAME,
          Item: {
            PK: `MERCHANT#${api.merchantId}#PAYMENT#${legacyId}`,
            SK: 'PAYMENT',
            entity: 'payment',
            merchant_id: api.merchantId,
            version: 2,
            ...template,
            pending_operation: 'confirm',
            payment_id: legacyId,
            status: 'Processing',
            connector: 'sandbox',
            created_at: old,
            updated_at: old,
          },
        }),
      );
      expect((await reconcileLater()).outcomes['payment:settled'] ?? 0).toBe(0); // invisible to the reconciler before the backfill
      const dry = await backfillOpenIndex({ dryRun: true });
      expect(dry.found).toBeGreaterThanOrEqual(1);
      expect((await backfillOpenIndex()).indexed).toBe(dry.found);
      expect((await backfillOpenIndex()).found).toBe(0); // idempotent
      await reconcileLater();
      expect((await api.request('GET', `/payments/${legacyId}`)).body).toMatchObject({
        status: 'Succeeded',
        amount_captured: 3100,
        pending_operation: null,
      });
    });
  });
}
