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
 * - A controllable clock ({@link FaultHarness.clock}: `Date.now` = the real time + an offset the test moves)
 *   and virtual waits: a request retrying storage after its processor call waits by moving that clock
 *   (`storageRetryTimer` of shared/operations/storage-retry.ts), so an outage that outlasts a request's whole
 *   budget takes milliseconds, and the bounds are checked with the real configured leases and deadlines.
 * - One reconciler pass "later" (the clock moved past leases and propagation windows), one pass at the
 *   convergence bound after a fault ({@link FaultHarness.reconcileWithinBound}), and the ledger invariant.
 *
 * Two modes, the same suites run in both (the reconciler's fault suite runs with payments on the platform's
 * account and on merchants' own accounts):
 * - `platform` (default): the harness merchant has no connector account, so its payments go by the
 *   stage's `ROUTING_RULES` (USD cards: Stripe, then the sandbox) to the platform's own Stripe account,
 *   the stand-in's default one;
 * - `merchantAccount: true`: after the API starts, the harness opens a stand-in account and connects it
 *   for the harness merchant (`POST /connector_accounts`, credentials verified with `GET /v1/balance`),
 *   then a sandbox account, so the merchant's default fallback (its accounts in creation order) is the
 *   platform's order: its Stripe account, then its sandbox account. Every later call (capture, void,
 *   refund, lookups, the reconciler) must use that account's key: {@link FaultHarness.expectConverged}
 *   compares with that account's ledger and asserts that the platform's account saw no request and holds
 *   nothing, and that every stand-in request about the payment was made with the key of an account the
 *   payment was sent to (the one it is on, or the one it fell back from). `connectStripeAccount()` opens
 *   and connects more Stripe accounts (last in the fallback order), e.g. to pin a payment to one.
 */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type ReconcileReport, reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { storageRetryTimer } from '../../shared/operations/storage-retry';
import { CONVERGENCE_BOUND_MS, RECONCILE_SETTLE_ALLOWANCE_MS } from '../../shared/settings/reconcile-settings';
import { baseClient } from '../../shared/storage/client';
import { type LocalApi, startLocalApi } from './local-api';
import { scopedEnv } from './scoped-env';
import {
  type StandInFault,
  type StandInFaultMatch,
  type StandInFaultOptions,
  type StandInLedgerEntry,
  type StandInRequest,
  type StripeStandIn,
  type StripeStandInAccount,
  startStripeStandIn,
  stripeEnv,
} from './stripe-stand-in';

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
  /**
   * From its first failure on, every storage call fails (any command, any item), as when the whole table is
   * unreachable — the idempotency layer's own writes included — until the fault has failed `times` calls or is
   * cleared ({@link FaultHarness.storageReturns}).
   */
  wholeTable?: boolean;
}

/** The harness's clock: `Date.now()` is the real time plus an offset that only the test moves. */
export interface HarnessClock {
  /** The harness's now (epoch ms). */
  now(): number;
  /** Moves the clock `ms` forward. */
  advance(ms: number): void;
  /** Sets the clock to `epochMs` (forward or back). */
  set(epochMs: number): void;
  /** Back to the real time (the processor stand-ins keep real time: a clock hours ahead of theirs is no real case). */
  reset(): void;
}

/** Options of {@link useFaultHarness}. */
export interface FaultHarnessOptions {
  /**
   * Payments on the merchant's own connector accounts (a Stripe account of the stand-in, then a sandbox
   * account) instead of the platform's (default false).
   */
  merchantAccount?: boolean;
}

/** A merchant's Stripe account the harness opened at the stand-in and connected. */
export interface ConnectedStripeAccount extends StripeStandInAccount {
  /** Its `mca_…`. */
  merchantConnectorId: string;
}

/** A harness set up by {@link useFaultHarness} (its fields are ready in `beforeAll` and after). */
export interface FaultHarness {
  readonly api: LocalApi;
  readonly stripe: StripeStandIn;
  /** Whether the merchant's payments are on its own connector accounts ({@link FaultHarnessOptions}). */
  readonly merchantAccount: boolean;
  /** The Stripe secret key the merchant's payments are made with: the platform's, or its own account's. */
  readonly stripeKey: string;
  /**
   * The `merchant_connector_id` a payment routed to each connector carries: the merchant's Stripe and
   * sandbox accounts, or null for both (the platform's accounts).
   */
  readonly targets: { readonly stripe: string | null; readonly sandbox: string | null };
  /** Where Stripe's events for the merchant's payments are posted and the secret they are signed with. */
  readonly stripeWebhook: { readonly path: string; readonly secret: string };
  /** The Stripe ledger of the account the merchant's payments are on ({@link stripeKey}). */
  ledger(): Record<string, StandInLedgerEntry>;
  /** `stripe.failNext` for the merchant's Stripe account only (any key in platform mode). */
  failProcessor(match: Omit<StandInFaultMatch, 'secretKey'>, fault: StandInFault, options?: StandInFaultOptions): void;
  /**
   * Opens one more stand-in account and connects it for the merchant (after its others in the default
   * fallback list, so routing does not change). Only in `merchantAccount` mode.
   */
  connectStripeAccount(): Promise<ConnectedStripeAccount>;
  /** The controllable clock (installed on first use in a test; back to the real time after each test). */
  readonly clock: HarnessClock;
  /** Arms a storage fault (undefined clears it). */
  failStorage(fault: StorageFault | undefined): void;
  /**
   * Storage is back: clears the fault and answers when storage came back — the harness time of the first call
   * let through after the fault failed its `times` calls, or now when it was still failing.
   */
  storageReturns(): number;
  /** Runs one reconciler pass as if `aheadMs` (default 2 h) had passed; clears any storage fault first. */
  reconcileLater(aheadMs?: number): Promise<ReconcileReport>;
  /**
   * Runs one reconciler pass at `faultEndedMs` + `CONVERGENCE_BOUND_MS` − `RECONCILE_SETTLE_ALLOWANCE_MS` (45 s;
   * shared/settings/reconcile-settings.ts) and leaves the clock there: what the fault left open must be due
   * by then, and that pass settles it (leaving the allowance for the settling itself). `faultEndedMs`: when
   * storage returned ({@link storageReturns}), or, for a processor fault or a crash, when the faulted request started.
   */
  reconcileWithinBound(faultEndedMs: number): Promise<ReconcileReport>;
  /**
   * Asserts the ledger invariant for one payment: nothing open (no pending operation, not
   * `Processing`/`RequiresAction`, no `Pending` refund); `amount_captured` and
   * `amount_refunded` equal the processor's; our succeeded refunds are exactly the
   * processor's refunds; at most one charge; the status matches the processor's. The ledger is the
   * one of the account the payment is on. With `merchantAccount`: the payment, its attempts and refunds
   * carry a merchant account of the harness's, every stand-in request about the payment was made with the
   * key of an account it was sent to, and the platform's account received no request and holds nothing; without, they carry
   * `merchant_connector_id: null`.
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
 * Whether a stand-in request is about one of our payments: it names the payment id (metadata, search
 * query) or one of its PaymentIntents or refunds at the processor.
 */
function concerns(r: StandInRequest, paymentId: string, processorIds: string[]): boolean {
  return (
    Object.values(r.form).some((v) => v.includes(paymentId)) ||
    processorIds.some((id) => r.path.includes(id) || Object.values(r.form).some((v) => v === id))
  );
}

/**
 * Registers the harness's `beforeAll`/`afterAll`/`afterEach` in the calling test file.
 * @param connectorTimeoutMs the processors' timeout in this file (short, so hangs end fast)
 */
export function useFaultHarness(connectorTimeoutMs = 400, options: FaultHarnessOptions = {}): FaultHarness {
  const merchantAccount = options.merchantAccount ?? false;
  let fault: (StorageFault & { seen: number; failed: number; down: boolean }) | undefined;
  /** When the last fault let a call through again after failing (harness time). */
  let storageBackAt: number | undefined;
  const realNow = Date.now.bind(Date);
  let offset = 0;
  let clockSpy: jest.SpyInstance<number, []> | undefined;
  const ensureClock = () => {
    if (!clockSpy || Date.now !== (clockSpy as unknown as () => number)) {
      clockSpy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    }
  };
  const clock: HarnessClock = {
    now: () => realNow() + offset,
    advance: (ms) => {
      ensureClock();
      offset += ms;
    },
    set: (epochMs) => {
      ensureClock();
      offset = epochMs - realNow();
    },
    reset: () => {
      offset = 0;
    },
  };
  /** Runs `fn` with the clock at `epochMs`, then puts it back where it was. */
  const at = async <T>(epochMs: number, fn: () => Promise<T>): Promise<T> => {
    const saved = offset;
    clock.set(epochMs);
    try {
      return await fn();
    } finally {
      offset = saved;
    }
  };
  /** The merchant's Stripe accounts by `mca_…` (merchantAccount mode). */
  const accounts = new Map<string, ConnectedStripeAccount>();
  /** Connects one stand-in account (or a sandbox account) for the harness merchant; returns its `mca_…`. */
  const connect = async (body: Record<string, unknown>): Promise<string> => {
    const res = await harness.api.request('POST', '/connector_accounts', { body });
    if (res.status !== 200) throw new Error(`connecting a ${String(body.connector_name)} account: ${res.status} ${res.text}`);
    return res.body.merchant_connector_id as string;
  };
  const connectStripe = async (): Promise<ConnectedStripeAccount> => {
    if (!merchantAccount) throw new Error('connectStripeAccount: the harness runs on the platform accounts');
    const account = harness.stripe.addAccount();
    const merchantConnectorId = await connect({
      connector_name: 'stripe',
      connector_account_details: { api_key: account.secretKey },
      connector_webhook_details: { merchant_secret: account.webhookSecret },
    });
    const connected = { ...account, merchantConnectorId };
    accounts.set(merchantConnectorId, connected);
    return connected;
  };
  const realWait = storageRetryTimer.wait;
  const scoped = scopedEnv();
  const table = `switchyard-faults-${randomUUID().slice(0, 8)}`;
  const harness = {
    api: undefined as unknown as LocalApi,
    stripe: undefined as unknown as StripeStandIn,
    merchantAccount,
    stripeKey: '',
    targets: { stripe: null as string | null, sandbox: null as string | null },
    stripeWebhook: { path: '/webhooks/stripe', secret: '' },
    ledger() {
      return harness.stripe.ledgerOf(harness.stripeKey);
    },
    failProcessor(match: Omit<StandInFaultMatch, 'secretKey'>, f: StandInFault, o?: StandInFaultOptions) {
      harness.stripe.failNext(merchantAccount ? { ...match, secretKey: harness.stripeKey } : match, f, o);
    },
    connectStripeAccount: connectStripe,
    clock,
    failStorage(f: StorageFault | undefined) {
      if (!f && fault?.down) storageBackAt = clock.now();
      fault = f ? { ...f, seen: 0, failed: 0, down: false } : undefined;
      if (f) storageBackAt = undefined;
    },
    storageReturns() {
      harness.failStorage(undefined);
      return storageBackAt ?? clock.now();
    },
    async reconcileLater(aheadMs = 2 * 60 * 60 * 1000) {
      harness.failStorage(undefined);
      const later = clock.now() + aheadMs;
      return at(later, () => reconcileOpenOperations({ deadlineMs: later + 60_000 }));
    },
    async reconcileWithinBound(faultEndedMs: number) {
      harness.failStorage(undefined);
      const pass = faultEndedMs + CONVERGENCE_BOUND_MS - RECONCILE_SETTLE_ALLOWANCE_MS;
      clock.set(pass);
      return reconcileOpenOperations({ deadlineMs: pass + 60_000 });
    },
    async expectConverged(paymentId: string) {
      const { api, stripe } = harness;
      const p = (await api.request('GET', `/payments/${paymentId}`)).body;
      const refunds = (await api.request('GET', `/payments/${paymentId}/refunds?limit=100`)).body.data as Record<string, any>[];
      const attemptTargets = (p.attempts as { merchant_connector_id: string | null }[]).map((a) => a.merchant_connector_id);
      const targets = [p.merchant_connector_id, ...attemptTargets, ...refunds.map((r) => r.merchant_connector_id)];
      // The Stripe accounts the payment was sent to (the one it is on, or the one tried before a fallback).
      const tried = [...new Set([p.merchant_connector_id, ...attemptTargets])].flatMap((id) => accounts.get(id) ?? []);
      const entry = stripe.ledgerOf(tried[0]?.secretKey ?? harness.stripeKey)[paymentId];
      if (!merchantAccount) {
        expect(new Set(targets)).toEqual(new Set([null]));
      } else {
        if (p.connector === 'sandbox') expect(p.merchant_connector_id).toBe(harness.targets.sandbox);
        else expect([...accounts.keys()]).toContain(p.merchant_connector_id);
        const known = new Set([harness.targets.sandbox, ...accounts.keys()]);
        expect(targets.filter((t) => !known.has(t))).toEqual([]);
        expect(refunds.filter((r) => r.merchant_connector_id !== p.merchant_connector_id)).toEqual([]);
        // The platform's own account is never called for a merchant with accounts, and holds nothing.
        expect(stripe.requests.filter((r) => r.accountId === stripe.accountId)).toEqual([]);
        expect(stripe.ledger()).toEqual({});
        // Every request about this payment (create, capture, void, refund, lookups) used the key of an account it was sent to.
        const ids = [...(entry?.paymentIntentIds ?? []), ...(entry?.refunds ?? []).map((r) => r.id)];
        const about = stripe.requests.filter((r) => concerns(r, paymentId, ids));
        if (entry) expect(about.length).toBeGreaterThan(0);
        const allowed = new Set(tried.map((a) => a.accountId));
        expect(about.filter((r) => !allowed.has(r.accountId ?? '')).map((r) => `${r.method} ${r.path} ${r.accountId}`)).toEqual([]);
      }
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
        const matches = fault && matchesCommand && (!fault.pk || itemKeys(args.input).some((pk) => pk.includes(fault!.pk as string)));
        if (fault && (matches || (fault.wholeTable && fault.down))) {
          if (matches && !fault.down) fault.seen += 1;
          if (fault.down || fault.seen >= fault.nth) {
            if (fault.failed < (fault.times ?? 1)) {
              fault.failed += 1;
              fault.down = true;
              if (fault.mode === 'killed') throw new Error('the process died here (injected)');
              throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
            }
            if (fault.down) {
              fault.down = false;
              storageBackAt = clock.now();
            }
          }
        }
        return next(args);
      },
      { step: 'initialize', name: 'storageFaultHook' },
    );
    // A request retrying storage after its processor call waits on the harness's clock, not on real time.
    storageRetryTimer.wait = async (ms: number) => clock.advance(ms);
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
    harness.stripeKey = harness.stripe.secretKey;
    harness.stripeWebhook = { path: '/webhooks/stripe', secret: harness.stripe.webhookSecret };
    if (merchantAccount) {
      const own = await connectStripe();
      harness.stripeKey = own.secretKey;
      harness.targets = { stripe: own.merchantConnectorId, sandbox: await connect({ connector_name: 'sandbox' }) };
      harness.stripeWebhook = { path: `/webhooks/stripe/${own.merchantConnectorId}`, secret: own.webhookSecret };
      // No algorithm, no custom list: the merchant's accounts in creation order, as the platform's [stripe, sandbox].
      const fallback = (await harness.api.request('GET', '/routing/default')).body;
      const order = (fallback.default_fallback as { merchant_connector_id: string }[]).map((e) => e.merchant_connector_id);
      if (fallback.is_custom !== false || order.join() !== [harness.targets.stripe, harness.targets.sandbox].join()) {
        throw new Error(`the merchant's default fallback is not [its Stripe account, its sandbox account]: ${JSON.stringify(fallback)}`);
      }
    }
  });
  afterAll(async () => {
    storageRetryTimer.wait = realWait;
    await harness.api.close();
    await harness.stripe.close();
    scoped.restore();
    process.env.TABLE_NAME = savedTable;
  });
  afterEach(() => {
    fault = undefined;
    storageBackAt = undefined;
    offset = 0;
    clockSpy = undefined;
    jest.restoreAllMocks();
  });
  return harness;
}
