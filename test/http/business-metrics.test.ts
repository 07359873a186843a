/**
 * The business metrics (docs/operations.md) as Powertools writes them: EMF JSON lines on stdout
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html).
 * The test setup turns metrics off (`POWERTOOLS_METRICS_DISABLED=true`, test/setup/global-setup.ts);
 * this file turns them on and captures `process.stdout.write` while requests run through the local
 * gateway (the handlers run in this process), then checks names, dimension sets and values of:
 * `Authorizations`, `ConnectorCalls`, `RefundOutcomes`, `CircuitState`, `CircuitSkips` — for a
 * confirm that succeeds, one that is declined, technical failures (nothing sent, and a timeout after
 * sending), authentication steps, a refund, and a circuit that opens and closes — and that the
 * metrics that were there before (`PaymentsCreated`, `ConnectorLatency`…) are unchanged.
 */
import { resetCircuits } from '../../shared/processor-call/circuit-registry';
import { card, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn, stripeEnv } from '../helpers/stripe-stand-in';

/** One EMF blob as Powertools writes it. */
interface Emf {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[];
  };
  [key: string]: unknown;
}

let api: LocalApi;
let stripe: StripeStandIn;
const env = scopedEnv();
let captured: string[] = [];

beforeAll(async () => {
  stripe = await startStripeStandIn();
  env.set({
    POWERTOOLS_METRICS_DISABLED: 'false',
    ...stripeEnv(stripe, { timeoutMs: 400 }),
    ROUTING_RULES: JSON.stringify([
      { currency: 'USD', payment_method: 'card', connectors: ['stripe', 'sandbox'] },
      { connectors: ['sandbox'] },
    ]),
    CIRCUIT_FAILURE_THRESHOLD: '2',
    CIRCUIT_HALF_OPEN_AFTER_MS: '20000',
  });
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
  await stripe.close();
  env.restore();
  resetCircuits();
});
beforeEach(() => {
  resetCircuits();
  stripe.reset();
  captured = [];
  const write = process.stdout.write.bind(process.stdout);
  jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.startsWith('{"_aws"')) {
      captured.push(text);
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write);
});
afterEach(() => jest.restoreAllMocks());

/** Every EMF blob captured so far in this test. */
function blobs(): Emf[] {
  return captured.flatMap((text) => text.split('\n').filter((line) => line.trim() !== '')).map((line) => JSON.parse(line) as Emf);
}

/** The blobs of one metric whose dimension values include `where`. */
function emitted(name: string, where: Record<string, string> = {}): Emf[] {
  return blobs().filter(
    (b) =>
      b._aws.CloudWatchMetrics.some((m) => m.Metrics.some((x) => x.Name === name)) && Object.entries(where).every(([k, v]) => b[k] === v),
  );
}

/** A blob's dimension sets, each sorted, in order. */
function dimensionSets(blob: Emf): string[][] {
  return blob._aws.CloudWatchMetrics[0]!.Dimensions.map((set) => [...set].sort());
}

const AUTHORIZATION_SETS = [
  ['connector', 'outcome', 'service'],
  ['connector', 'currency', 'outcome', 'payment_method', 'service'],
];
const CONNECTOR_CALL_SETS = [
  ['connector', 'outcome', 'service'],
  ['connector', 'operation', 'outcome', 'service'],
];

/** Exactly one `Authorizations` blob for `connector` with `outcome`, with both dimension sets. */
function expectAuthorization(connector: string, outcome: string, currency: string, paymentMethod: string): void {
  const found = emitted('Authorizations', { connector, outcome });
  expect(found).toHaveLength(1);
  const blob = found[0]!;
  expect(dimensionSets(blob)).toEqual(AUTHORIZATION_SETS);
  expect(blob).toMatchObject({ currency, payment_method: paymentMethod, Authorizations: 1 });
  expect(blob._aws.CloudWatchMetrics[0]!.Metrics).toEqual([{ Name: 'Authorizations', Unit: 'Count' }]);
}

/** Exactly `times` `ConnectorCalls` blobs for (connector, operation, outcome), with both dimension sets. */
function expectConnectorCall(connector: string, operation: string, outcome: string, times = 1): void {
  const found = emitted('ConnectorCalls', { connector, operation, outcome });
  expect(found).toHaveLength(times);
  for (const blob of found) {
    expect(dimensionSets(blob)).toEqual(CONNECTOR_CALL_SETS);
    expect(blob.ConnectorCalls).toBe(1);
  }
}

describe('business metrics (EMF on stdout)', () => {
  test('a confirm that succeeds, then a refund', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 150000, currency: 'NGN', payment_method: 'card' } });
    const c = await api.request('POST', `/payments/${p.body.payment_id}/confirm`, {
      body: { payment_method_data: card('4242424242424242') },
    });
    expect(c.body.status).toBe('Succeeded');
    expectAuthorization('sandbox', 'succeeded', 'NGN', 'card');
    expectConnectorCall('sandbox', 'authorize', 'ok');
    expect(emitted('ConnectorCalls', { outcome: 'technical_error' })).toEqual([]);

    const r = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 50000 } });
    expect(r.body.status).toBe('Succeeded');
    const refunds = emitted('RefundOutcomes');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ connector: 'sandbox', outcome: 'succeeded', RefundOutcomes: 1 });
    expect(dimensionSets(refunds[0]!)).toEqual([['connector', 'outcome', 'service']]);
    expectConnectorCall('sandbox', 'refund', 'ok');

    // The metrics that were there before keep their names and dimensions (dashboards read them).
    expect(dimensionSets(emitted('PaymentsCreated')[0]!)).toEqual([['connector', 'currency', 'service']]);
    expect(dimensionSets(emitted('PaymentsSucceeded')[0]!)).toEqual([['connector', 'currency', 'service']]);
    expect(dimensionSets(emitted('ConnectorLatency', { operation: 'authorize' })[0]!)).toEqual([['connector', 'operation', 'service']]);
    expect(dimensionSets(emitted('Refunds')[0]!)).toEqual([['currency', 'service']]);
    expect(emitted('RefundedAmountMinor')[0]).toMatchObject({ RefundedAmountMinor: 50000 });
    // No card data in any blob.
    expect(captured.join('')).not.toContain('4242424242424242');
  });

  test('a confirm that is declined: Authorizations declined, the call itself ok', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 9000, currency: 'GHS', confirm: true, payment_method_data: card('4000000000000002') },
    });
    expect(p.body).toMatchObject({ status: 'Failed', error_code: 'card_declined' });
    expectAuthorization('sandbox', 'declined', 'GHS', 'card');
    expectConnectorCall('sandbox', 'authorize', 'ok');
    expect(emitted('ConnectorCalls', { outcome: 'technical_error' })).toEqual([]);
  });

  test('technical failures: nothing sent (fallback) and a timeout after sending (unknown)', async () => {
    // Stripe's PaymentMethod call answers 500: nothing was requested, routing falls back to the sandbox.
    stripe.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'error_500_before_work');
    const fallback = await api.request('POST', '/payments', {
      body: { amount: 4200, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(fallback.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox' });
    expectAuthorization('stripe', 'technical_failure', 'USD', 'card');
    expectAuthorization('sandbox', 'succeeded', 'USD', 'card');
    expectConnectorCall('stripe', 'authorize', 'technical_error');

    // The PaymentIntent call hangs until the timeout: the outcome is unknown, the payment stays with stripe.
    captured = [];
    stripe.failNext({ method: 'POST', path: '/v1/payment_intents' }, 'hang_before_work');
    const unknown = await api.request('POST', '/payments', {
      body: { amount: 4300, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(unknown.body).toMatchObject({ status: 'Processing', connector: 'stripe', error_code: 'connector_unreachable' });
    expectAuthorization('stripe', 'unknown', 'USD', 'card');
    expectConnectorCall('stripe', 'authorize', 'technical_error');
    expectConnectorCall('stripe', 'sync', 'ok'); // the lookup by our reference answered (nothing found yet)
    expect(emitted('Authorizations', { connector: 'sandbox' })).toEqual([]);
  });

  test('a refund whose answer is lost counts unknown, then succeeded when it is settled', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 8000, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(p.body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
    captured = [];
    stripe.failNext({ method: 'POST', path: '/v1/refunds' }, 'hang_after_work');
    const r = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 3000 } });
    expect(r.body.status).toBe('Pending');
    expect(emitted('RefundOutcomes').map((b) => [b.connector, b.outcome])).toEqual([['stripe', 'unknown']]);
    expectConnectorCall('stripe', 'refund', 'technical_error');
    // After the claim's lease, a force_sync finds the refund at Stripe by our id and settles it.
    captured = [];
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 180_000);
    const synced = await api.request('GET', `/refunds/${r.body.refund_id}?force_sync=true`);
    expect(synced.body.status).toBe('Succeeded');
    expect(emitted('RefundOutcomes').map((b) => [b.connector, b.outcome])).toEqual([['stripe', 'succeeded']]);
    expectConnectorCall('stripe', 'find_refund', 'ok');
  });

  test('authentication steps: each answer of the processor counts (PIN → OTP → succeeded)', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 150000, currency: 'NGN', confirm: true, payment_method_data: card('5060666666666666666') },
    });
    expect(p.body.next_action.type).toBe('submit_pin');
    expectAuthorization('sandbox', 'requires_action', 'NGN', 'card');
    captured = [];
    const pin = await api.request('POST', `/payments/${p.body.payment_id}/authenticate`, { body: { pin: '1234' } });
    expect(pin.body.next_action.type).toBe('submit_otp');
    expectAuthorization('sandbox', 'requires_action', 'NGN', 'card');
    expectConnectorCall('sandbox', 'authenticate', 'ok');
    captured = [];
    const otp = await api.request('POST', `/payments/${p.body.payment_id}/authenticate`, { body: { otp: '123456' } });
    expect(otp.body.status).toBe('Succeeded');
    expectAuthorization('sandbox', 'succeeded', 'NGN', 'card');
    // Neither the PIN nor the OTP appears in any blob.
    expect(captured.join('')).not.toMatch(/1234|123456/);
  });

  test('a circuit that opens, skips, probes and closes: CircuitState on every change, CircuitSkips per skip', async () => {
    for (let i = 0; i < 2; i += 1) {
      stripe.failNext({ method: 'POST', path: '/v1/payment_methods' }, 'error_500_before_work');
      await api.request('POST', '/payments', {
        body: { amount: 5000 + i, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
      });
    }
    const opened = emitted('CircuitState', { connector: 'stripe' });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ CircuitState: 2 });
    expect(dimensionSets(opened[0]!)).toEqual([['connector', 'service']]);
    expect(opened[0]!._aws.CloudWatchMetrics[0]!.Metrics).toEqual([{ Name: 'CircuitState', Unit: 'None' }]);

    const skipped = await api.request('POST', '/payments', {
      body: { amount: 5100, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(skipped.body.connector).toBe('sandbox');
    const skips = emitted('CircuitSkips', { connector: 'stripe' });
    expect(skips).toHaveLength(1);
    expect(skips[0]).toMatchObject({ CircuitSkips: 1 });
    expect(dimensionSets(skips[0]!)).toEqual([['connector', 'service']]);

    // Past the half-open delay the next payment probes stripe and closes the circuit: 1 (half-open), then 0.
    captured = [];
    const later = Date.now() + 21_000;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    const probe = await api.request('POST', '/payments', {
      body: { amount: 5200, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(probe.body).toMatchObject({ status: 'Succeeded', connector: 'stripe' });
    expect(emitted('CircuitState', { connector: 'stripe' }).map((b) => b.CircuitState)).toEqual([1, 0]);
    expect(emitted('CircuitSkips')).toEqual([]);
  });
});
