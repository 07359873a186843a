/**
 * The success-rate routing decision's cost over today's routing, warm, in process (docs/routing.md "Speed";
 * target: ≤ 0.2 ms more at the median). Per payment, each way:
 * - priority: `routingDecision` of a `priority` algorithm over the merchant's accounts (what routing does today
 *   for a merchant with rules);
 * - success_rate: `routingDecision` of a `success_rate` algorithm over the same accounts, the merchant's outcome
 *   snapshot from the per-container cache (warm: no read, as for every payment but one per 5 s), and
 *   `successRateOrder` (segment key, the candidates' windows, the exploration draw: one SHA-256 of the payment id).
 * The store holds 3 accounts × 2 card networks × 30 one-minute buckets (the lookback) of outcomes; the cache is the
 * real `OutcomeWindowCache` over the in-memory store, read once before timing. Timed with
 * `process.hrtime.bigint()` around each decision, the two ways interleaved payment by payment so machine noise
 * hits both alike; the difference of the medians is the verdict. A report, not a test.
 */
import type { RoutingAlgorithm } from '../../shared/domain/routing-algorithm';
import { routingDecision } from '../../shared/operations/routing/evaluate-algorithm';
import { MemoryOutcomeStore, OutcomeWindowCache } from '../../shared/operations/routing/outcome-store';
import { OUTCOME_BUCKET_MS, OUTCOME_LOOKBACK_MS } from '../../shared/operations/routing/outcome-window';
import { successRateOrder } from '../../shared/operations/routing/success-rate-order';
import { fmt, markdownTable, percentile } from './stats';

/** The target: the decision adds at most this many ms at the median (warm, in process). */
const ROUTING_DECISION_TARGET_MS = 0.2;

/** One way's timings, ms. */
interface Timings {
  p50: number;
  p99: number;
  mean: number;
}

/** What {@link measureRoutingDecision} measured. */
export interface RoutingDecisionResult {
  iterations: number;
  priority: Timings;
  successRate: Timings;
  /** successRate.p50 − priority.p50, ms. */
  addedP50: number;
}

const MERCHANT = 'mer_bench_routing';
const ACCOUNTS = ['mca_bench_routing_a', 'mca_bench_routing_b', 'mca_bench_routing_c'];
const NETWORKS = ['visa', 'mastercard'];

const timings = (ms: number[]): Timings => ({
  p50: percentile(ms, 50),
  p99: percentile(ms, 99),
  mean: ms.reduce((a, x) => a + x, 0) / ms.length,
});

/**
 * Times both decisions `iterations` times each after `warmup` untimed rounds.
 * @param nowMs the virtual now the outcomes are laid out before (epoch ms)
 */
export async function measureRoutingDecision(iterations = 20_000, warmup = 2_000, nowMs = Date.now()): Promise<RoutingDecisionResult> {
  const store = new MemoryOutcomeStore();
  const firstBucket = nowMs - OUTCOME_LOOKBACK_MS + OUTCOME_BUCKET_MS;
  for (let t = firstBucket; t <= nowMs; t += OUTCOME_BUCKET_MS) {
    for (const [a, account] of ACCOUNTS.entries()) {
      for (const network of NETWORKS) {
        for (let i = 0; i < 20; i++) {
          store.recordNow(MERCHANT, {
            merchant_connector_id: account,
            segment: `payment_method=card|card_network=${network}|currency=NGN`,
            success: i % 10 >= a + 1,
            at_ms: t,
            payment_id: `pay_seed_${t}_${i}`,
          });
        }
      }
    }
  }
  const cache = new OutcomeWindowCache(store, () => 5_000);
  await cache.snapshot(MERCHANT, nowMs);
  const connectors = ACCOUNTS.map((merchant_connector_id) => ({ merchant_connector_id }));
  const priority: RoutingAlgorithm = { type: 'priority', data: connectors };
  const successRate: RoutingAlgorithm = { type: 'success_rate', data: { connectors } };
  const facts = (i: number) => ({
    payment_id: `pay_bench_${i.toString(36).padStart(10, '0')}`,
    amount: 5_000,
    currency: 'NGN' as const,
    payment_method: 'card' as const,
    card_network: NETWORKS[i % 2]!,
  });
  const byPriority = (i: number) => routingDecision(priority, facts(i)).candidates[0];
  const bySuccessRate = async (i: number) => {
    const f = facts(i);
    const decision = routingDecision(successRate, f);
    const snapshot = await cache.snapshot(MERCHANT, nowMs);
    return successRateOrder(decision.success_rate!, decision.candidates, f, snapshot, nowMs).order[0];
  };
  const p: number[] = [];
  const s: number[] = [];
  let sink = 0;
  for (let i = 0; i < warmup + iterations; i++) {
    const t0 = process.hrtime.bigint();
    sink += byPriority(i)!.length;
    const t1 = process.hrtime.bigint();
    sink += (await bySuccessRate(i))!.length;
    const t2 = process.hrtime.bigint();
    if (i >= warmup) {
      p.push(Number(t1 - t0) / 1e6);
      s.push(Number(t2 - t1) / 1e6);
    }
  }
  if (sink === 0) throw new Error('no decision made');
  const result = { iterations, priority: timings(p), successRate: timings(s), addedP50: 0 };
  result.addedP50 = result.successRate.p50 - result.priority.p50;
  return result;
}

/** The report section: both ways' p50/p99/mean and the target line with met / not met. */
export function routingDecisionReport(r: RoutingDecisionResult): string {
  const row = (name: string, t: Timings) => [name, fmt(t.p50, 4), fmt(t.p99, 4), fmt(t.mean, 4)];
  const met = r.addedP50 <= ROUTING_DECISION_TARGET_MS;
  return [
    markdownTable(
      ['Routing decision (warm, in process)', 'p50 ms', 'p99 ms', 'mean ms'],
      [row('priority (today)', r.priority), row('success_rate (cache warm)', r.successRate)],
      ['l', 'r', 'r', 'r'],
    ),
    '',
    `- Success-rate decision adds ≤ ${ROUTING_DECISION_TARGET_MS} ms (warm, in process, p50) over today's routing: ` +
      `${fmt(r.addedP50, 4)} ms over ${r.iterations} payments — ${met ? '**met**' : '**not met**'}`,
  ].join('\n');
}
