/**
 * At most one successful charge per payment with automatic retries of soft declines on (fast-check, against
 * DynamoDB Local through the local API, the fault harness of test/helpers/fault-harness.ts): a merchant with two
 * Stripe stand-in accounts, priority [A, B], `max_auto_retries` 1 or 2. Per run, A soft-declines every card
 * (`try_again_later`, retryable: shared/domain/soft-declines.ts) or approves, and B approves, times out after doing
 * the work, or answers 500 after doing it; then a payment created unconfirmed meets, in an order the scheduler
 * picks, any mix of keyed confirms (one `Idempotency-Key`, replayed), unkeyed confirms, syncs (`force_sync`) and
 * reconciler passes. Once the faults are gone and one reconciler pass has run later:
 * - the two processors' ledgers together hold at most one charge for the payment;
 * - the payment is where the ledgers say (the harness's convergence check on the account it names: status,
 *   amounts, nothing open, every request made with the key of an account it was sent to);
 * - a payment we call Failed or Cancelled holds no money anywhere.
 *
 * Set FC_SEED (and FC_PATH) to replay a failure that fast-check reported.
 */
import fc from 'fast-check';
import { type ConnectedStripeAccount, useFaultHarness } from '../helpers/fault-harness';
import { card } from '../helpers/local-api';
import type { StandInFault } from '../helpers/stripe-stand-in';

const h = useFaultHarness(300, { merchantAccount: true });

type Op = 'confirm_keyed' | 'confirm_unkeyed' | 'sync' | 'reconcile';
type BBehaviour = 'approve' | StandInFault;

const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {};

let a: ConnectedStripeAccount;
let b: ConnectedStripeAccount;

beforeAll(async () => {
  // A is the harness's own Stripe account (first in the merchant's list); B one more.
  b = await h.connectStripeAccount();
  const aId = h.targets.stripe!;
  a = { accountId: '', secretKey: h.stripeKey, webhookSecret: '', merchantConnectorId: aId };
  const created = await h.api.request('POST', '/routing', {
    body: {
      name: 'a then b',
      algorithm: { type: 'priority', data: [{ merchant_connector_id: aId }, { merchant_connector_id: b.merchantConnectorId }] },
    },
  });
  expect(created.status).toBe(200);
  expect((await h.api.request('POST', `/routing/${created.body.routing_algorithm_id}/activate`, { body: {} })).status).toBe(200);
});

/** Successful charges for a payment at one account, by its ledger. */
const charges = (secretKey: string, paymentId: string) => h.stripe.ledgerOf(secretKey)[paymentId]?.charges ?? 0;

test('confirms (keyed and unkeyed), syncs and reconciler passes racing, soft declines at A retried at B: at most one charge across the ledgers', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.boolean(),
      fc.constantFrom<BBehaviour>('approve', 'hang_after_work', 'error_500_after_work'),
      fc.integer({ min: 1, max: 2 }),
      fc.array(fc.constantFrom<Op>('confirm_keyed', 'confirm_unkeyed', 'sync', 'reconcile'), { minLength: 2, maxLength: 5 }),
      fc.scheduler(),
      async (aSoftDeclines, bBehaviour, maxRetries, ops, s) => {
        const { api, stripe } = h;
        if (stripe.pendingFaults().length > 0) stripe.reset();
        h.clock.reset();
        stripe.declineAccount(aSoftDeclines ? { declineCode: 'try_again_later', message: 'Try again later.' } : null, a.secretKey);
        expect((await api.request('PUT', '/routing/auto_retries', { body: { enabled: true, max_auto_retries: maxRetries } })).status).toBe(
          200,
        );
        if (bBehaviour !== 'approve') {
          stripe.failNext({ method: 'POST', path: '/v1/payment_intents', secretKey: b.secretKey }, bBehaviour);
        }
        const created = await api.request('POST', '/payments', {
          body: { amount: 5_000, currency: 'USD', payment_method: 'card' },
        });
        expect([created.status, created.text]).toEqual([200, expect.any(String)]);
        const paymentId = created.body.payment_id as string;
        const idempotencyKey = `confirm-${paymentId}`;
        const run = async (op: Op) => {
          if (op === 'reconcile') return h.reconcileLater(0);
          if (op === 'sync') return api.request('GET', `/payments/${paymentId}?force_sync=true`);
          // Card details only travel on confirm (never stored): every confirm sends them.
          return api.request('POST', `/payments/${paymentId}/confirm`, {
            body: { payment_method: 'card', payment_method_data: card('4242424242424242') },
            ...(op === 'confirm_keyed' ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
          });
        };
        // The scheduler releases the operations' starts in the order it picks; they then overlap.
        const all = Promise.all(ops.map((op) => s.schedule(Promise.resolve(op)).then(run)));
        await s.waitAll();
        const answers = await all;
        for (const res of answers) {
          // Never a 5xx that is not the documented outcome-unknown or conflict answers; never "nothing was changed" wrongly.
          if (res && 'status' in res) expect(res.status).not.toBe(500);
        }
        // One pass later settles whatever is still open (an unknown outcome at B). A fault B was never reached for
        // stays armed on its create call only, which nothing after this makes (the next run starts with a reset).
        await h.reconcileLater();
        const total = charges(a.secretKey, paymentId) + charges(b.secretKey, paymentId);
        expect(total).toBeLessThanOrEqual(1);
        const p = await h.expectConverged(paymentId);
        if (['Succeeded', 'RequiresCapture'].includes(p.status)) {
          expect(total).toBe(1);
          const holder = p.merchant_connector_id === a.merchantConnectorId ? a : b;
          expect(charges(holder.secretKey, paymentId)).toBe(1);
        } else {
          expect(total).toBe(0);
        }
        // The retry is exercised: with A soft-declining and B approving, a confirm ends approved at B.
        if (aSoftDeclines && bBehaviour === 'approve' && ops.some((op) => op.startsWith('confirm'))) {
          expect(p).toMatchObject({ status: 'Succeeded', merchant_connector_id: b.merchantConnectorId });
          expect(p.attempts.map((x: { routing_approach: string }) => x.routing_approach)).toContain('auto_retry');
        }
        // A declines every card: no money there, whatever was retried.
        if (aSoftDeclines) expect(charges(a.secretKey, paymentId)).toBe(0);
      },
    ),
    { numRuns: 10, endOnFailure: true, ...seed },
  );
}, 240_000);
