/**
 * The per-account authorization metrics (shared/observability/metrics.ts `recordAuthorization`:
 * `AccountAuthorizationRate` and `AccountAuthorizationShortfall`) as Powertools writes them (EMF on stdout), and
 * what the per-account alarm's query (lib/monitoring/account-authorization-section.ts: Sum per `{connector,
 * merchant_connector_id}`, at or above the stage bound) makes of them: one account's numbers are its own, so a busy
 * merchant's approvals neither hide a small merchant's failing account nor does a busy merchant's decline burst
 * move anyone else's; a few ordinary declines never reach the bound.
 */
import { STAGES } from '../../lib/config/stage-config';
import { ACCOUNT_AUTHORIZATION_RATE_FLOOR, BUSINESS_METRICS, recordAuthorization } from '../../shared/observability/metrics';
import { scopedEnv } from '../helpers/scoped-env';

interface Emf {
  _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

const env = scopedEnv();
let captured: string[] = [];

beforeAll(() => env.set({ POWERTOOLS_METRICS_DISABLED: 'false' }));
afterAll(() => env.restore());
beforeEach(() => {
  captured = [];
  jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write);
});
afterEach(() => jest.restoreAllMocks());

/** The captured blobs that carry the per-account metrics. */
function accountBlobs(): Emf[] {
  return captured
    .flatMap((t) => t.split('\n'))
    .filter((l) => l.startsWith('{"_aws"'))
    .map((l) => JSON.parse(l) as Emf)
    .filter((b) => b._aws.CloudWatchMetrics.some((m) => m.Metrics.some((x) => x.Name === BUSINESS_METRICS.accountAuthorizationShortfall)));
}

/** What the alarm's query computes over the captured samples: Sum of the shortfall per (connector, account). */
function shortfallPerAccount(): Map<string, number> {
  const sums = new Map<string, number>();
  for (const b of accountBlobs()) {
    const key = `${b.connector}/${b.merchant_connector_id}`;
    sums.set(key, (sums.get(key) ?? 0) + (b[BUSINESS_METRICS.accountAuthorizationShortfall] as number));
  }
  return sums;
}

/** The panel's rate: Average of the rate samples per (connector, account). */
function ratePerAccount(): Map<string, number> {
  const samples = new Map<string, number[]>();
  for (const b of accountBlobs()) {
    const key = `${b.connector}/${b.merchant_connector_id}`;
    samples.set(key, [...(samples.get(key) ?? []), b[BUSINESS_METRICS.accountAuthorizationRate] as number]);
  }
  return new Map([...samples].map(([k, v]) => [k, v.reduce((a, x) => a + x, 0) / v.length]));
}

const answers = (account: string | null, approved: number, declined: number, connector = 'stripe') => {
  for (let i = 0; i < approved; i++) recordAuthorization(connector, 'NGN', 'card', 'succeeded', account);
  for (let i = 0; i < declined; i++) recordAuthorization(connector, 'NGN', 'card', 'declined', account);
};

test('one blob per issuer answer at a merchant account, dimension set {service, connector, merchant_connector_id} only: 100 / floor − 1 when approved, 0 / floor when declined', () => {
  answers('mca_a', 1, 1);
  const blobs = accountBlobs();
  expect(blobs).toHaveLength(2);
  for (const b of blobs) {
    expect(b._aws.CloudWatchMetrics).toHaveLength(1);
    expect(b._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service', 'connector', 'merchant_connector_id']]);
    expect(b._aws.CloudWatchMetrics[0]!.Metrics).toEqual([
      { Name: BUSINESS_METRICS.accountAuthorizationRate, Unit: 'Percent' },
      { Name: BUSINESS_METRICS.accountAuthorizationShortfall, Unit: 'Count' },
    ]);
    expect(b.merchant_connector_id).toBe('mca_a');
  }
  expect([blobs[0]![BUSINESS_METRICS.accountAuthorizationRate], blobs[0]![BUSINESS_METRICS.accountAuthorizationShortfall]]).toEqual([
    100,
    ACCOUNT_AUTHORIZATION_RATE_FLOOR - 1,
  ]);
  expect([blobs[1]![BUSINESS_METRICS.accountAuthorizationRate], blobs[1]![BUSINESS_METRICS.accountAuthorizationShortfall]]).toEqual([
    0,
    ACCOUNT_AUTHORIZATION_RATE_FLOOR,
  ]);
});

test('not emitted for the stage’s own accounts, nor for technical failures, unknown outcomes or payer steps', () => {
  answers(null, 3, 3);
  for (const outcome of ['technical_failure', 'unknown', 'requires_action'] as const)
    recordAuthorization('stripe', 'NGN', 'card', outcome, 'mca_a');
  expect(accountBlobs()).toEqual([]);
});

test('the Sum is answers × (floor − rate) and the Average the rate in percent', () => {
  answers('mca_a', 30, 70);
  expect(shortfallPerAccount().get('stripe/mca_a')).toBeCloseTo(100 * (ACCOUNT_AUTHORIZATION_RATE_FLOOR - 0.3), 9);
  expect(ratePerAccount().get('stripe/mca_a')).toBeCloseTo(30, 9);
});

test.each([
  'dev',
  'prod',
])('%s: per tenant — a busy merchant neither hides nor trips another merchant’s account; a few declines never fire', (stage) => {
  const bound = STAGES[stage]!.alarms.accountAuthorizationShortfall;
  const breaches = (sum: number | undefined) => (sum ?? Number.NEGATIVE_INFINITY) >= bound;
  // Merchant 1: a busy, healthy account on the same processor. Merchant 2: a small account that stopped approving.
  answers('mca_busy_m1', 5_000, 600);
  answers('mca_small_m2', 0, 2 * bound);
  // Merchant 3: a small account having an ordinary bad period (two declines of three answers).
  answers('mca_quiet_m3', 1, 2);
  const sums = shortfallPerAccount();
  expect(breaches(sums.get('stripe/mca_small_m2'))).toBe(true);
  expect(breaches(sums.get('stripe/mca_busy_m1'))).toBe(false);
  expect(breaches(sums.get('stripe/mca_quiet_m3'))).toBe(false);
  // Pooled per connector, merchant 1's volume would hide merchant 2's account entirely.
  const pooled = [...sums.values()].reduce((a, x) => a + x, 0);
  expect(breaches(pooled)).toBe(false);

  // A burst of declines at the busy merchant's account fires for it alone.
  captured = [];
  answers('mca_busy_m1', 100, 900);
  answers('mca_small_m2', 40, 10);
  const after = shortfallPerAccount();
  expect(breaches(after.get('stripe/mca_busy_m1'))).toBe(true);
  expect(breaches(after.get('stripe/mca_small_m2'))).toBe(false);
});
