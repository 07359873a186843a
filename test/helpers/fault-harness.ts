/**
 * The fault-injection harness of the HTTP suites that compare our table with a
 * processor's ledger (test/http/unknown-outcomes.test.ts, test/http/ledger-property.test.ts).
 *
 * - A table of the test file's own in DynamoDB Local, so the reconciler (which reads
 *   every open operation of the table) sees only that file's items.
 * - The storage test hook: a middleware on the process-wide DynamoDB client — the one
 *   the in-process handlers use — that fails a chosen command, matched by its name and
 *   the item's `PK` (from `Key` or `Item`), either as a storage outage (`ECONNREFUSED`,
 *   how an unreachable or throttled table reaches the SDK) or as the process dying there
 *   (an error no handler code expects, so nothing after that point runs).
 * - The loopback Stripe stand-in with its ledger, routed for USD cards (then the sandbox).
 * - One reconciler pass "later" (the clock moved past leases and propagation windows),
 *   and the ledger invariant.
 */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type ReconcileReport, reconcileOpenOperations } from '../../shared/operations/reconcile-operations';
import { baseClient } from '../../shared/storage/client';
import { type LocalApi, startLocalApi } from './local-api';
import { scopedEnv } from './scoped-env';
import { type StripeStandIn, startStripeStandIn, stripeEnv } from './stripe-stand-in';

/** How an injected storage fault shows itself. */
export type FaultMode = 'outage' | 'killed';

/** One storage fault: which calls fail, and how. */
export interface StorageFault {
  /**
   * SDK command name without `Command` (`PutItem`, `UpdateItem`, `TransactWriteItems`, `Query`…),
   * or `write`: any of PutItem, UpdateItem, DeleteItem and TransactWriteItems (a status change and
   * its event are one transaction, a claim alone one UpdateItem: `write` counts them in order).
   */
  command: string;
  /** Part of the item's `PK` (e.g. `#PAYMENT#`, `#REFUND#`, `idempotency#`); any item when absent. */
  pk?: string;
  /** Fail the n-th matching call (1-based) … */
  nth: number;
  /** … and the next `times - 1` (default 1); `Infinity` = until cleared. */
  times?: number;
  mode: FaultMode;
}

/** A harness set up by {@link useFaultHarness} (its fields are ready in `beforeAll` and after). */
export interface FaultHarness {
  readonly api: LocalApi;
  readonly stripe: StripeStandIn;
  /** Arms a storage fault (undefined clears it). */
  failStorage(fault: StorageFault | undefined): void;
  /** Runs one reconciler pass as if `aheadMs` (default 2 h) had passed; clears any storage fault first. */
  reconcileLater(aheadMs?: number): Promise<ReconcileReport>;
  /**
   * Asserts the ledger invariant for one payment: nothing open (no pending operation, not
   * `Processing`/`RequiresAction`, no `Pending` refund); `amount_captured` and
   * `amount_refunded` equal the processor's; our succeeded refunds are exactly the
   * processor's refunds; at most one charge; the status matches the processor's.
   * @returns the payment
   */
  expectConverged(paymentId: string): Promise<Record<string, any>>;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems']);

/** Every item `PK` a command's input names (`Key`, `Item`, or each item of a transaction). */
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

const STRIPE_STATUS: Record<string, string> = {
  succeeded: 'Succeeded',
  requires_capture: 'RequiresCapture',
  canceled: 'Cancelled',
  requires_payment_method: 'Failed',
};

/**
 * Registers the harness's `beforeAll`/`afterAll`/`afterEach` in the calling test file.
 * @param connectorTimeoutMs the processors' timeout in this file (short, so hangs end fast)
 */
export function useFaultHarness(connectorTimeoutMs = 400): FaultHarness {
  let fault: (StorageFault & { seen: number }) | undefined;
  const scoped = scopedEnv();
  const table = `switchyard-faults-${randomUUID().slice(0, 8)}`;
  const harness = {
    api: undefined as unknown as LocalApi,
    stripe: undefined as unknown as StripeStandIn,
    failStorage(f: StorageFault | undefined) {
      fault = f ? { ...f, seen: 0 } : undefined;
    },
    async reconcileLater(aheadMs = 2 * 60 * 60 * 1000) {
      fault = undefined;
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + aheadMs);
      try {
        return await reconcileOpenOperations({ deadlineMs: now + aheadMs + 60_000 });
      } finally {
        clock.mockRestore();
      }
    },
    async expectConverged(paymentId: string) {
      const { api, stripe } = harness;
      const p = (await api.request('GET', `/payments/${paymentId}`)).body;
      const entry = stripe.ledger()[paymentId];
      const refunds = (await api.request('GET', `/payments/${paymentId}/refunds?limit=100`)).body.data as Record<string, any>[];
      expect(p.pending_operation).toBeNull();
      expect(['Processing', 'RequiresAction']).not.toContain(p.status);
      expect(refunds.filter((r) => r.status === 'Pending' || r.pending_operation !== null)).toEqual([]);
      expect(p.amount_captured).toBe(entry?.amountCaptured ?? 0);
      expect(p.amount_refunded).toBe(entry?.amountRefunded ?? 0);
      expect(
        refunds
          .filter((r) => r.status === 'Succeeded')
          .map((r) => r.connector_refund_id)
          .sort(),
      ).toEqual((entry?.refunds ?? []).map((r) => r.id).sort());
      expect(entry?.charges ?? 0).toBeLessThanOrEqual(1);
      if (entry && entry.charges === 1) expect(p.status).toBe(STRIPE_STATUS[entry.status]);
      if (!entry || entry.charges === 0) expect(['Failed', 'Cancelled', 'RequiresConfirmation']).toContain(p.status);
      return p;
    },
  };
  const savedTable = process.env.TABLE_NAME;
  beforeAll(async () => {
    process.env.TABLE_NAME = table;
    await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table);
    baseClient().middlewareStack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName).replace(/Command$/, '');
        const matchesCommand = fault && (fault.command === command || (fault.command === 'write' && WRITES.has(command)));
        if (fault && matchesCommand && (!fault.pk || itemKeys(args.input).some((pk) => pk.includes(fault!.pk as string)))) {
          fault.seen += 1;
          if (fault.seen >= fault.nth && fault.seen < fault.nth + (fault.times ?? 1)) {
            if (fault.mode === 'killed') throw new Error('the process died here (injected)');
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
          }
        }
        return next(args);
      },
      { step: 'initialize', name: 'storageFaultHook' },
    );
    harness.stripe = await startStripeStandIn();
    const env = {
      ...stripeEnv(harness.stripe, { timeoutMs: connectorTimeoutMs }),
      ROUTING_RULES: JSON.stringify([
        { currency: 'USD', payment_method: 'card', connectors: ['stripe', 'sandbox'] },
        { connectors: ['sandbox'] },
      ]),
      // The convergence checks compare our table with the Stripe stand-in's ledger. The faults here
      // (hangs, timeouts) would open Stripe's circuit breaker within a few runs and route later
      // payments to the sandbox, which keeps no ledger; the breaker has its own suite
      // (test/http/circuit-breaker.test.ts), so here it never opens.
      CIRCUIT_FAILURE_THRESHOLD: '1000000',
    };
    scoped.set(env);
    harness.api = await startLocalApi();
  });
  afterAll(async () => {
    await harness.api.close();
    await harness.stripe.close();
    scoped.restore();
    process.env.TABLE_NAME = savedTable;
  });
  afterEach(() => {
    fault = undefined;
    jest.restoreAllMocks();
  });
  return harness;
}
