/**
 * The report of the per-invocation measurements: the in-process warm table (handler vs bare DynamoDB), the
 * profile, and the three per-invocation target lines, each **met** / **not met** (docs/benchmarks.md,
 * "Speed per invocation").
 */
import type { BundleResult } from './bundles';
import type { WarmResult } from './in-process';
import { fmt, markdownTable } from './stats';

/** The per-invocation targets: cold import against the library floor, warm cost against bare DynamoDB calls. */
export const PER_INVOCATION_TARGETS = {
  /** Each handler bundle's cold import ÷ the fixed-choice floor with Tracer. */
  coldRatio: 1.15,
  /** Warm, p50 − bare p50, ms: retrieve, list, create. */
  warmReadCreateMs: 0.5,
  /** Warm, p50 − bare p50, ms: confirm, refund (sandbox connector). */
  warmConnectorMs: 1,
};

const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
const signed = (v: number, d = 2) => (Number.isFinite(v) && v >= 0 ? `+${fmt(v, d)}` : fmt(v, d));

/** The in-process table, the DynamoDB calls each side made, and the profile. */
export function warmReport(results: WarmResult[], settings: { iterations: number; warmup: number; profileIterations: number }): string {
  const table = markdownTable(
    [
      'Handler',
      'Invocations',
      'p50 ms',
      'p99 ms',
      'mean ms',
      'bare p50 ms',
      'bare p99 ms',
      'p50 − bare p50 ms',
      'p99 − bare p99 ms',
      'budget ms',
      'target',
    ],
    results.map((r) => [
      `${r.name} (${r.functionName})`,
      String(r.iterations),
      fmt(r.p50, 2),
      fmt(r.p99, 2),
      fmt(r.mean, 2),
      fmt(r.bareP50, 2),
      fmt(r.bareP99, 2),
      signed(r.p50 - r.bareP50),
      signed(r.p99 - r.bareP99),
      `≤ ${r.budgetMs}`,
      r.p50 - r.bareP50 <= r.budgetMs ? 'met' : 'not met',
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  const calls = markdownTable(
    ['Handler', 'Handler DynamoDB calls (most frequent sequence, share)', 'Bare sequence', 'Same?', 'API-key / rate-limit calls'],
    results.map((r) => [
      r.name,
      `${r.handlerCalls.join(' + ') || 'none'} (${fmt(100 * r.handlerCallsShare, 0)} %)`,
      r.bareCalls.join(' + ') || 'none',
      r.handlerCalls.join('+') === r.bareCalls.join('+') ? 'yes' : '**no**',
      `${r.bookkeepingCalls} in ${r.iterations}`,
    ]),
  );
  const problems = results.flatMap((r) => [
    ...(r.failures ? [`- ${r.name}: ${r.failures} invocation(s) not 2xx, first: \`${r.firstFailure}\``] : []),
    ...(r.bareErrors ? [`- ${r.name}: ${r.bareErrors} bare sequence(s) failed, first: ${r.firstBareError}`] : []),
  ]);
  const lines = [
    table,
    '',
    `In this process, one request at a time: per handler ${settings.warmup} invocations of warm-up (dropped), then ${settings.iterations} measured, ` +
      'each followed by the same DynamoDB calls made bare with the document client (scripts/bench/bare-dynamodb.ts). ' +
      'Handler duration: `await handler(event, context)` with a payload-2.0 event built beforehand by the local gateway’s `toEvent` ' +
      '(checked against recorded API Gateway events by test/http/payload-v2.test.ts). No HTTP hop. ' +
      'Powertools Logger SILENT, Metrics disabled, Tracer inactive outside Lambda (the bench environment).',
    '',
    calls,
    '',
    'Calls recorded by a middleware on the process-wide DynamoDB client during each invocation and each bare sequence. ' +
      'API-key lookups (cached per process) and rate-limit leases (amortized) are counted apart; they fall into the handler’s time, not the bare time.',
  ];
  if (problems.length) lines.push('', 'Problems:', '', ...problems);
  const profiled = results.filter((r) => r.profile);
  if (profiled.length) {
    lines.push(
      '',
      `#### Where the handler CPU time goes (V8 sampling profiler, ${settings.profileIterations} more invocations per handler, self time)`,
      '',
      markdownTable(
        [
          'Handler',
          'CPU ms / invocation',
          'bare CPU ms',
          'Largest self-time groups, ms / invocation',
          'Most over bare (handler − bare), ms',
        ],
        profiled.map((r) => [
          r.name,
          fmt(r.profileCpuMs ?? Number.NaN, 2),
          fmt(r.bareProfileCpuMs ?? Number.NaN, 2),
          (r.profile ?? [])
            .slice(0, 6)
            .map((g) => `${g.group} ${fmt(g.msPerInvocation, 2)}`)
            .join(', '),
          (r.profileOverBare ?? [])
            .filter((g) => g.msPerInvocation > 0)
            .slice(0, 6)
            .map((g) => `${g.group} +${fmt(g.msPerInvocation, 2)}`)
            .join(', '),
        ]),
        ['l', 'r', 'r', 'l', 'l'],
      ),
      '',
      'Groups: an npm package, `(own) <dir>` for our code, `node internals`, and V8’s `(program)` / `(garbage collector)`. ' +
        'Sampled every 100 µs, so small groups are noisy. The AWS SDK’s share (@aws-sdk/*, @smithy/*) is also paid by the bare calls; ' +
        'DynamoDB Local’s time is another process (idle here). The same number of bare sequences is profiled the same way; ' +
        'the last column is the per-group difference, what the handler adds.',
    );
  }
  return lines.join('\n');
}

/** The three per-invocation target lines: (a) cold import, (b) warm reads and create, (c) warm confirm and refund. */
export function perInvocationTargets(
  bundles: BundleResult[],
  results: WarmResult[],
  floorTracerName: string,
  handlerNames: string[],
  paymentHandlers: string[],
): string {
  const lines: string[] = [];
  const floor = bundles.find((b) => b.name === floorTracerName);
  if (floor) {
    const handlers = bundles
      .filter((b) => handlerNames.includes(b.name))
      .map((b) => ({ name: b.name, ratio: b.importStackMs / floor.importStackMs, cpu: b.importStackCpuMs / floor.importStackCpuMs }))
      .sort((a, b) => b.ratio - a.ratio);
    const over = handlers.filter((h) => h.ratio > PER_INVOCATION_TARGETS.coldRatio);
    const mark = (h: { name: string; ratio: number; cpu: number }) =>
      `${h.name} ${fmt(h.ratio, 2)}× (CPU ${fmt(h.cpu, 2)}×) ${h.ratio <= PER_INVOCATION_TARGETS.coldRatio ? 'met' : 'not met'}`;
    const named = handlers.filter((h) => paymentHandlers.includes(h.name));
    const others = over.filter((h) => !paymentHandlers.includes(h.name));
    lines.push(
      `- (a) Cold import, every handler ≤ ${PER_INVOCATION_TARGETS.coldRatio}× the fixed-choice floor with Tracer (${fmt(floor.importStackMs, 1)} ms): ` +
        `${handlers.length - over.length} of ${handlers.length} handlers within; ` +
        `payments: ${named.map(mark).join('; ')}; ` +
        (others.length
          ? `other handlers over: ${others
              .slice(0, 8)
              .map((h) => `${h.name} ${fmt(h.ratio, 2)}×`)
              .join(', ')}${others.length > 8 ? `, … (${others.length})` : ''}`
          : 'no other handler over') +
        ` — ${verdict(handlers.length > 0 && over.length === 0)}`,
    );
  } else {
    lines.push(`- (a) Cold import ≤ ${PER_INVOCATION_TARGETS.coldRatio}× the floor with Tracer: not measured (BENCH_SKIP_BUNDLES=1)`);
  }
  const warm = (names: string[], budget: number, label: string) => {
    const rows = results.filter((r) => names.includes(r.name));
    const parts = rows.map(
      (r) =>
        `${r.name} ${signed(r.p50 - r.bareP50)} ms (p50 ${fmt(r.p50, 2)} vs bare ${fmt(r.bareP50, 2)}; p99 ${fmt(r.p99, 2)} vs ${fmt(r.bareP99, 2)}) ${
          r.p50 - r.bareP50 <= budget ? 'met' : 'not met'
        }`,
    );
    const met = rows.length === names.length && rows.every((r) => r.failures === 0 && r.p50 - r.bareP50 <= budget);
    lines.push(`- ${label} ≤ ${budget} ms over bare (in-process p50 − bare p50): ${parts.join('; ') || 'not measured'} — ${verdict(met)}`);
  };
  warm(['retrieve', 'list', 'create'], PER_INVOCATION_TARGETS.warmReadCreateMs, '(b) Warm, retrieve, list and create,');
  warm(['confirm', 'refund'], PER_INVOCATION_TARGETS.warmConnectorMs, '(c) Warm, confirm and refund (sandbox connector),');
  return lines.join('\n');
}

/** Every handler's cold import ÷ the floor with Tracer (the per-handler statement of target (a)). */
export function coldTable(bundles: BundleResult[], floorTracerName: string, handlerNames: string[]): string {
  const floor = bundles.find((b) => b.name === floorTracerName);
  if (!floor) return '';
  const rows = bundles
    .filter((b) => handlerNames.includes(b.name))
    .map((b) => ({ b, ratio: b.importStackMs / floor.importStackMs }))
    .sort((x, y) => y.ratio - x.ratio)
    .map(({ b, ratio }) => [
      b.name,
      fmt(b.bytes / 1024, 0),
      fmt(b.importStackMs, 1),
      `${fmt(ratio, 2)}×`,
      `${fmt(b.importStackCpuMs / floor.importStackCpuMs, 2)}×`,
      ratio <= PER_INVOCATION_TARGETS.coldRatio ? 'met' : 'not met',
    ]);
  return markdownTable(
    ['Function', 'Size KB', 'Import ms', '÷ floor with Tracer', 'CPU ÷ floor', `≤ ${PER_INVOCATION_TARGETS.coldRatio}×`],
    [[`**${floor.name}**`, fmt(floor.bytes / 1024, 0), fmt(floor.importStackMs, 1), '1.00×', '1.00×', ''], ...rows],
    ['l', 'r', 'r', 'r', 'r', 'l'],
  );
}
