/**
 * `npm run routing:simulate [-- --seed N] [--check]`: the proof of success-rate routing (docs/routing.md
 * "The simulator"). In process, on a virtual clock, seeded: for each scenario of ./routing-simulation/scenarios.ts
 * it sends the same stream of payments (segment, payment id, and the one uniform draw that decides approval:
 * approved when it is under the chosen account's approval probability, so every strategy faces the same luck) to
 * - `static`: the merchant's best static priority list (the single first account best over the whole scenario,
 *   chosen knowing the future: the best a static list can do);
 * - `split`: an even volume split (50/50; thirds for three accounts), drawn by payment id as the router does;
 * - `success_rate`: the real decision (shared/operations/routing/success-rate-order.ts) with its defaults, reading
 *   the real outcome store (the in-memory one) through the real per-container cache (5 s, on the virtual clock),
 *   each outcome recorded when the payment is answered;
 * - `oracle`: the account truly best for the payment's segment at that moment.
 * It prints each strategy's success rate and the goals met or not, writes the table into docs/routing.md (between
 * its markers) and draws success rate over time per strategy to docs/routing-simulation.svg (vega-lite, rendered
 * headless by vega's `View.toSVG()`, no canvas). `--check` exits 1 when a goal is not met. No I/O but the two files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import prand from 'pure-rand';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { resolveSuccessRateConfig } from '../shared/domain/routing-algorithm';
import { orderVolumeSplit } from '../shared/operations/routing/evaluate-algorithm';
import { MemoryOutcomeStore, OutcomeWindowCache } from '../shared/operations/routing/outcome-store';
import { successRateOrder } from '../shared/operations/routing/success-rate-order';
import { NETWORKS, PAYMENT_INTERVAL_MS, type Scenario, scenarios } from './routing-simulation/scenarios';

const STRATEGIES = ['static', 'split', 'success_rate', 'oracle'] as const;
type Strategy = (typeof STRATEGIES)[number];

/** The per-container cache period the simulation uses: the deployed default, 5,000 ms. */
const CACHE_MS = 5_000;
/** Width of the chart's time buckets: 10 minutes. */
const CHART_BUCKET_MS = 10 * 60_000;
/** Start of the simulated time (any fixed instant: only differences matter). */
const T0 = Date.parse('2026-12-01T00:00:00.000Z');

/** One scenario's result. */
interface ScenarioResult {
  scenario: Scenario;
  payments: number;
  rate: Record<Strategy, number>;
  /** After the outage started: payments of its segment until success rate sent one to another account by exploitation. */
  movedWithin: number | null;
  /** Chart points: per strategy and 10-minute bucket, the success rate. */
  series: { strategy: Strategy; minute: number; rate: number; scenario: string }[];
  goals: { goal: string; met: boolean }[];
}

/** The success rate of the best single first account over the whole scenario (its expected approvals). */
function bestStaticAccount(s: Scenario): number {
  let best = 0;
  let bestSum = -1;
  for (let a = 0; a < s.accounts.length; a++) {
    let sum = 0;
    for (let t = 0; t < s.durationMs; t += 60_000) for (const n of NETWORKS) sum += s.approval(a, n, t);
    if (sum > bestSum) {
      bestSum = sum;
      best = a;
    }
  }
  return best;
}

/** Runs one scenario. */
async function run(s: Scenario, seed: number): Promise<ScenarioResult> {
  const rng = prand.xoroshiro128plus(seed);
  const uniform = () => prand.unsafeUniformIntDistribution(0, 0xffffffff, rng) / 0x100000000;
  const merchant = 'mer_simulation';
  const ids = s.accounts.map((_, i) => `mca_${String(i + 1).padStart(32, '0')}`);
  const store = new MemoryOutcomeStore();
  const cache = new OutcomeWindowCache(store, () => CACHE_MS);
  const config = resolveSuccessRateConfig({ connectors: ids.map((merchant_connector_id) => ({ merchant_connector_id })) });
  const staticAccount = bestStaticAccount(s);
  const split = ids.map((merchant_connector_id, i) => ({
    merchant_connector_id,
    split: Math.floor(100 / ids.length) + (i < 100 % ids.length ? 1 : 0),
  }));
  const wins: Record<Strategy, number> = { static: 0, split: 0, success_rate: 0, oracle: 0 };
  const bucketWins = new Map<string, { wins: number; n: number }>();
  let payments = 0;
  let movedWithin: number | null = null;
  let segmentSinceOutage = 0;
  for (let t = 0; t < s.durationMs; t += PAYMENT_INTERVAL_MS) {
    const now = T0 + t;
    const network = NETWORKS[uniform() < 0.5 ? 0 : 1]!;
    const draw = uniform();
    const paymentId = `pay_${seed}_${payments}`;
    const facts = { payment_id: paymentId, payment_method: 'card', card_network: network, currency: 'NGN' };
    const p = (a: number) => s.approval(a, network, t);
    const snapshot = await cache.snapshot(merchant, now);
    const sr = successRateOrder(config, ids, facts, snapshot, now);
    const chosen: Record<Strategy, number> = {
      static: staticAccount,
      split: ids.indexOf(orderVolumeSplit(split, paymentId)[0]!),
      success_rate: ids.indexOf(sr.order[0]!),
      oracle: s.accounts.map((_, a) => a).reduce((best, a) => (p(a) > p(best) ? a : best), 0),
    };
    const bucket = Math.floor(t / CHART_BUCKET_MS);
    for (const strategy of STRATEGIES) {
      const ok = draw < p(chosen[strategy]);
      if (ok) wins[strategy]++;
      const key = `${strategy}#${bucket}`;
      const b = bucketWins.get(key) ?? { wins: 0, n: 0 };
      b.n++;
      if (ok) b.wins++;
      bucketWins.set(key, b);
    }
    // The outcome of success rate's choice is known when the payment is answered (within the same instant here).
    store.recordNow(merchant, {
      merchant_connector_id: sr.order[0]!,
      segment: sr.segment,
      success: draw < p(chosen.success_rate),
      at_ms: now,
      payment_id: paymentId,
    });
    if (s.outage && t >= s.outage.startMs && network === s.outage.network && movedWithin === null) {
      segmentSinceOutage++;
      if (chosen.success_rate !== s.outage.account && sr.approach !== 'success_rate_explore') movedWithin = segmentSinceOutage;
    }
    payments++;
  }
  const rate = Object.fromEntries(STRATEGIES.map((k) => [k, wins[k] / payments])) as Record<Strategy, number>;
  const series = [...bucketWins.entries()].map(([key, b]) => {
    const [strategy, bucket] = key.split('#') as [Strategy, string];
    return { strategy, minute: Number(bucket) * (CHART_BUCKET_MS / 60_000), rate: b.wins / b.n, scenario: s.name };
  });
  const pp = (x: number) => x * 100;
  const goals = s.stationary
    ? [{ goal: 'success_rate ≥ oracle − 0.3 pp', met: pp(rate.oracle - rate.success_rate) <= 0.3 }]
    : [
        { goal: 'success_rate ≥ static + 0.9 pp', met: pp(rate.success_rate - rate.static) >= 0.9 },
        { goal: 'success_rate ≥ oracle − 1 pp', met: pp(rate.oracle - rate.success_rate) <= 1 },
        ...(s.outage
          ? [{ goal: 'traffic moves within 200 payments of the segment', met: movedWithin !== null && movedWithin <= 200 }]
          : []),
      ];
  return { scenario: s, payments, rate, movedWithin, series, goals };
}

/** The Markdown table of the results. */
function table(results: ScenarioResult[], seed: number): string {
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  const pp = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)} pp`;
  const lines = [
    `Seed ${seed}; ${PAYMENT_INTERVAL_MS} ms of virtual time between payments; \`success_rate\` with its defaults; outcomes read through the 5 s cache.`,
    '',
    '| Scenario | Payments | Best static list | 50/50 split | success_rate | Oracle | vs static | vs oracle | Moved within | Goals |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const goals = r.goals.map((g) => `${g.met ? 'met' : '**not met**'}: ${g.goal}`).join('<br>');
    lines.push(
      `| ${r.scenario.name} | ${r.payments} | ${pct(r.rate.static)} | ${pct(r.rate.split)} | ${pct(r.rate.success_rate)} | ${pct(r.rate.oracle)} | ${pp(r.rate.success_rate - r.rate.static)} | ${pp(r.rate.success_rate - r.rate.oracle)} | ${r.movedWithin === null ? '—' : `${r.movedWithin} payments`} | ${goals} |`,
    );
  }
  return lines.join('\n');
}

/** The chart (SVG) of success rate per 10 minutes, per strategy, one panel per scenario. */
async function chart(results: ScenarioResult[]): Promise<string> {
  const spec: vl.TopLevelSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values: results.flatMap((r) => r.series) },
    facet: { row: { field: 'scenario', type: 'nominal', title: null, sort: results.map((r) => r.scenario.name) } },
    spec: {
      width: 640,
      height: 140,
      mark: { type: 'line', point: false },
      encoding: {
        x: { field: 'minute', type: 'quantitative', title: 'minutes (virtual time)' },
        y: { field: 'rate', type: 'quantitative', title: 'success rate per 10 min', scale: { zero: false }, axis: { format: '.0%' } },
        color: { field: 'strategy', type: 'nominal', sort: [...STRATEGIES] },
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  return view.toSVG();
}

/** Replaces the text between the simulation markers of docs/routing.md. */
function writeTable(markdown: string): void {
  const path = join(process.cwd(), 'docs', 'routing.md');
  const doc = readFileSync(path, 'utf8');
  const begin = '<!-- simulation:begin -->';
  const end = '<!-- simulation:end -->';
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error('docs/routing.md has no simulation markers');
  writeFileSync(path, `${doc.slice(0, i + begin.length)}\n${markdown}\n${doc.slice(j)}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf('--seed');
  const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : 36;
  const results: ScenarioResult[] = [];
  for (const s of scenarios(seed)) {
    const r = await run(s, seed);
    results.push(r);
    const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
    console.log(
      `${s.name.padEnd(12)} static ${pct(r.rate.static)}  split ${pct(r.rate.split)}  success_rate ${pct(r.rate.success_rate)}  oracle ${pct(r.rate.oracle)}${r.movedWithin === null ? '' : `  moved within ${r.movedWithin}`}`,
    );
    for (const g of r.goals) console.log(`  ${g.met ? 'met    ' : 'NOT MET'}  ${g.goal}`);
  }
  writeTable(table(results, seed));
  writeFileSync(join(process.cwd(), 'docs', 'routing-simulation.svg'), await chart(results));
  const failed = results.flatMap((r) => r.goals).filter((g) => !g.met).length;
  console.log(failed === 0 ? 'All goals met.' : `${failed} goal(s) not met.`);
  if (failed > 0 && args.includes('--check')) process.exitCode = 1;
}

void main();
