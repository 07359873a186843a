/**
 * The ledger property, run by test/http/ledger-property.test.ts (payments on the platform's own Stripe
 * account) and test/http/ledger-property-accounts.test.ts (on the merchant's own connector accounts,
 * too); the harness's mode decides the account and the ledger compared (test/helpers/fault-harness.ts).
 *
 * Property (fast-check): for any sequence of money operations on a payment — create
 * with confirm (automatic or manual capture), then captures, cancels and refunds — each
 * with any injected fault (processor hangs before or after doing the work, or answers 500 or resets
 * the connection after doing it; storage failing before or after the processor call — one write, or the whole
 * table down from then until after the request gave up —, the process dying after it), once the faults clear and
 * the reconciler has run:
 * - the payment and its refunds equal the processor's ledger (amounts, statuses, refund ids);
 * - nothing stays open, nothing was charged twice;
 * - no answer said "nothing was changed" while the ledger changed.
 * The reconciler pass runs at the convergence bound (docs/money-safety.md, "Convergence": 60 s after the faults ended, less the settling
 * allowance; `reconcileWithinBound`), with the real leases. Only a run in which the processor hung *before*
 * doing the work leaves something open then — a call it may still be working on, which no lookup may call "not
 * done" inside the processor's own window —; such runs get a second pass once those windows have passed.
 * Same harness as test/http/unknown-outcomes-suite.ts (own table, storage hook, Stripe stand-in).
 */
import fc from 'fast-check';
import { type FaultHarnessOptions, type StorageFault, useFaultHarness } from '../helpers/fault-harness';
import { card } from '../helpers/local-api';
import type { StandInFault } from '../helpers/stripe-stand-in';

type Fault =
  | 'none'
  | 'processor_after'
  | 'processor_500_after'
  | 'processor_reset_after'
  | 'processor_before'
  | 'storage_before'
  | 'storage_after'
  | 'storage_outage_after'
  | 'killed';
type Step = { op: 'capture' | 'cancel' } | { op: 'refund'; amount: number };

const FAULTS: Fault[] = [
  'none',
  'processor_after',
  'processor_500_after',
  'processor_reset_after',
  'processor_before',
  'storage_before',
  'storage_after',
  'storage_outage_after',
  'killed',
];
const faultArb = fc.constantFrom(...FAULTS);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ op: 'capture' }),
  fc.constant<Step>({ op: 'cancel' }),
  fc.integer({ min: 1, max: 4000 }).map<Step>((amount) => ({ op: 'refund', amount })),
);

/**
 * The storage fault that hits an operation's first write ("before": the create, the claim, the
 * refund's reservation) or its second ("after": the outcome written after the processor call; "outage after":
 * that write and every storage call after it, until the request has answered).
 */
function storageFault(op: 'create' | Step['op'], fault: Fault): StorageFault | undefined {
  const mode = fault === 'killed' ? 'killed' : 'outage';
  const pk = op === 'refund' ? '#REFUND#' : '#PAYMENT#';
  if (fault === 'storage_before') return { command: 'write', pk, nth: 1, mode };
  if (fault === 'storage_after' || fault === 'killed') return { command: 'write', pk, nth: 2, mode };
  // The whole table down from the write after the processor call until after the request answered.
  if (fault === 'storage_outage_after') return { command: 'write', pk, nth: 2, times: Infinity, mode, wholeTable: true };
  return undefined;
}

/** What the stand-in does for each processor fault: hang (the client times out), 500 or reset after the work, or hang before it. */
const PROCESSOR_FAULTS: Partial<Record<Fault, StandInFault>> = {
  processor_after: 'hang_after_work',
  processor_500_after: 'error_500_after_work',
  processor_reset_after: 'reset_after_work',
  processor_before: 'hang_before_work',
};

/** The processor path an operation calls, for the stand-in's faults. */
const processorPath = (op: 'create' | Step['op']) =>
  op === 'create' ? '/v1/payment_intents' : op === 'refund' ? '/v1/refunds' : '/v1/payment_intents/pi_';

/**
 * Registers the property in the calling test file.
 * @param options the harness's mode (`merchantAccount: true`: payments on the merchant's own accounts)
 * @param numRuns fast-check runs
 */
export function ledgerPropertySuite(options: FaultHarnessOptions = {}, numRuns = 12): void {
  const h = useFaultHarness(300, options);

  test('any operations with any faults converge to the processor ledger after one reconciler pass at the convergence bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        faultArb,
        fc.array(fc.tuple(stepArb, faultArb), { maxLength: 3 }),
        async (manual, createFault, steps) => {
          const { api, stripe } = h;
          const run = async (
            op: 'create' | Step['op'],
            fault: Fault,
            send: () => Promise<{ status: number; body: any }>,
            paymentId?: string,
          ) => {
            const processorFault = PROCESSOR_FAULTS[fault];
            if (processorFault) h.failProcessor({ method: 'POST', path: processorPath(op) }, processorFault);
            h.failStorage(storageFault(op, fault));
            const before = paymentId ? JSON.stringify(h.ledger()[paymentId] ?? null) : undefined;
            if (fault === 'processor_before') processorMayStillWork = true;
            const res = await send();
            h.failStorage(undefined);
            if (res.status === 503 && res.body?.error?.code === 'service_unavailable' && paymentId) {
              expect(JSON.stringify(h.ledger()[paymentId] ?? null)).toBe(before);
            }
            // A valid request is never a 400, whatever failed; the one exception is a refund above what is
            // left once earlier refunds (settled or still reserved by an unknown outcome) are counted.
            if (res.status === 400) expect([op, res.body?.error?.code]).toEqual(['refund', 'refund_exceeds_amount']);
            return res;
          };
          // A processor fault a refused request never reached is still armed: it must not hit this run's calls
          // unannounced (the earlier runs' payments are settled; only their ledger entries go).
          if (stripe.pendingFaults().length > 0) stripe.reset();
          // Each run starts at the real time again (the previous one moved the clock on to its bound).
          h.clock.reset();
          let processorMayStillWork = false;
          const amount = 5000;
          // Letters only: a long digit run in metadata would be refused as a possible card number.
          const metadata = { run: Array.from({ length: 16 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('') };
          await run('create', createFault, () =>
            api.request('POST', '/payments', {
              body: {
                amount,
                currency: 'USD',
                confirm: true,
                capture_method: manual ? 'manual' : 'automatic',
                payment_method_data: card('4242424242424242'),
                metadata,
              },
            }),
          );
          const list = (await api.request('GET', '/payments?limit=20')).body.data as {
            payment_id: string;
            metadata: Record<string, string>;
          }[];
          const paymentId = list.find((p) => p.metadata.run === metadata.run)?.payment_id;
          if (!paymentId) {
            // The create never wrote the payment (storage down before anything): then Stripe was never asked.
            expect(stripe.requests.some((r) => r.form['metadata[run]'] === metadata.run)).toBe(false);
            return;
          }
          for (const [step, fault] of steps) {
            const path = step.op === 'refund' ? `/payments/${paymentId}/refund` : `/payments/${paymentId}/${step.op}`;
            await run(
              step.op,
              fault,
              () => api.request('POST', path, step.op === 'refund' ? { body: { amount: step.amount } } : {}),
              paymentId,
            );
          }
          // Storage is back and every request has ended: from here the bound runs.
          await h.reconcileWithinBound(h.clock.now());
          if (processorMayStillWork) await h.reconcileLater();
          await h.expectConverged(paymentId);
        },
      ),
      { numRuns, endOnFailure: true },
    );
  }, 240_000);
}
