/**
 * `npx tsx scripts/capacity/lambda-memory.ts`: a memory size per payment function from local
 * measurement (docs/capacity.md "Lambda memory and cost"), printed as markdown (docs/capacity.md has a run).
 *
 * Method: AWS Lambda Power Tuning's (https://github.com/alexcasalboni/aws-lambda-power-tuning): run
 * the function at each memory size, price each size as billed duration × memory × the GB-second
 * price plus the request price, and choose the cheapest size whose speed is acceptable. Without an
 * AWS account the durations are not measured on Lambda but modeled from local CPU measurement:
 *
 * - "Lambda allocates CPU power in proportion to the amount of memory configured ... at 1,769 MB, a
 *   function has the equivalent of one vCPU"
 *   (https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html). A Node handler runs on
 *   one thread, so its CPU time stretches by 1769 / m below 1,769 MB and does not shrink above.
 * - warm duration(m) = cpuMs × max(1, 1769 / m) + waitMs, waitMs = wallMs − cpuMs (time waiting on
 *   DynamoDB, which the function's CPU share does not change);
 * - cold init(m) = importCpuMs × max(1, 1769 / m);
 * - billed = ceil(duration) ms (Lambda bills duration rounded up to 1 ms);
 * - cost per 1,000,000 invocations = billed / 1000 × m / 1024 × $0.0000133334 (arm64, per GB-second)
 *   × 1,000,000 + $0.20 (requests) — prices as cited in docs/capacity.md;
 * - choice: the cheapest size whose warm duration is within 1.5× its duration at 1,769 MB and whose
 *   cold init is ≤ 250 ms (ties: the faster size; none: the largest size, flagged).
 *
 * The model ignores what it cannot see locally: the host's per-core speed (this machine's AMD EPYC
 * vs. Lambda's Graviton), DynamoDB's latency from Lambda, and memory use (whether 128 MB is enough).
 * Run Power Tuning on a deployed stack to replace it. Pure functions below; the CLI runs only when
 * this file is the entry point (jest imports it; no `import.meta`, which CommonJS lacks).
 */

/** Memory size at which a function has one full vCPU (AWS Lambda docs, "Configure Lambda function memory"), MB. */
export const FULL_VCPU_MB = 1769;

/** The memory sizes tried, MB: Power Tuning's range 128–1769 MB, at the steps it is usually run with. */
export const MEMORY_SIZES_MB: readonly number[] = [128, 256, 512, 1024, 1536, 1769];

/** Lambda arm64 duration price, USD per GB-second (US East (N. Virginia), first tier; docs/capacity.md "Lambda memory and cost", Prices). */
export const ARM64_USD_PER_GB_SECOND = 0.0000133334;

/** Lambda request price, USD per 1,000,000 requests (docs/capacity.md "Lambda memory and cost", Prices). */
export const USD_PER_MILLION_REQUESTS = 0.2;

/** The choice's limits: warm duration ≤ `warmSlowdown` × its duration at 1,769 MB; cold init ≤ `coldInitMs` ms. */
export interface ChoiceLimits {
  /** Largest accepted warm duration as a multiple of the duration at 1,769 MB (1.5 = 50 % slower). */
  warmSlowdown: number;
  /** Largest accepted modeled cold init (import) time, ms. */
  coldInitMs: number;
}

/** The limits the memory model chooses within: within 1.5× of the 1,769 MB warm duration, cold init ≤ 250 ms. */
export const DEFAULT_LIMITS: ChoiceLimits = { warmSlowdown: 1.5, coldInitMs: 250 };

/** One handler's local measurement, the model's input. Times in ms per invocation (warm) or per process (import). */
export interface HandlerMeasurement {
  /** Short name, as in docs/benchmarks.md (`create`, `confirm`, …). */
  handler: string;
  /** The Lambda function (CDK id), e.g. `CreatePayment`. */
  functionName: string;
  /** Warm wall time per invocation, ms (in process, one request at a time, p50). */
  wallMs: number;
  /** Warm CPU time per invocation, ms (V8 sampling profiler, mean). Must be ≤ `wallMs`. */
  cpuMs: number;
  /** Cold import CPU time of the function's bundle, ms (fresh process, median). */
  importCpuMs: number;
  /** Where `importCpuMs` came from when it is not the function's own measurement. */
  importNote?: string;
}

/**
 * Today's inputs. Warm wall (p50) and CPU (mean, "CPU ms / invocation") per invocation: docs/benchmarks.md,
 * "Speed per invocation: before" (`npm run bench`, 2-vCPU VM, Node v20.20.2, DynamoDB Local in
 * memory, code 1ea0bc3, 26 November 2026). Cold import CPU: the same machine on 26 November 2026 after the
 * payment bundles' code splitting, Node 20, one fresh process per import, median (floor with Tracer 54 ms);
 * not yet recorded in docs/benchmarks.md. RefundPayment's import was not measured; ConfirmPayment's is used.
 * Replace these numbers after the next bench run.
 */
export const MEASUREMENTS: readonly HandlerMeasurement[] = [
  { handler: 'create', functionName: 'CreatePayment', wallMs: 2.78, cpuMs: 2.11, importCpuMs: 77 },
  { handler: 'retrieve', functionName: 'GetPayment', wallMs: 1.17, cpuMs: 1.07, importCpuMs: 73 },
  { handler: 'confirm', functionName: 'ConfirmPayment', wallMs: 6.21, cpuMs: 2.35, importCpuMs: 78 },
  {
    handler: 'refund',
    functionName: 'RefundPayment',
    wallMs: 6.38,
    cpuMs: 3.2,
    importCpuMs: 78,
    importNote: "not measured; ConfirmPayment's 78 ms used",
  },
  { handler: 'list', functionName: 'ListPayments', wallMs: 2.22, cpuMs: 1.77, importCpuMs: 66 },
];

/** How much longer CPU work takes at `memoryMb` than with one full vCPU: max(1, 1769 / memoryMb), dimensionless. */
export function cpuScale(memoryMb: number): number {
  if (!(memoryMb > 0)) throw new RangeError(`memory must be positive, got ${memoryMb} MB`);
  return Math.max(1, FULL_VCPU_MB / memoryMb);
}

/** Modeled warm duration at `memoryMb`, ms: cpuMs × cpuScale(memoryMb) + (wallMs − cpuMs); the wait is not scaled. */
export function warmDurationMs(m: Pick<HandlerMeasurement, 'wallMs' | 'cpuMs'>, memoryMb: number): number {
  if (m.cpuMs < 0 || m.cpuMs > m.wallMs) throw new RangeError(`CPU ${m.cpuMs} ms must be within 0..wall ${m.wallMs} ms`);
  return m.cpuMs * cpuScale(memoryMb) + (m.wallMs - m.cpuMs);
}

/** Modeled cold init (bundle import) at `memoryMb`, ms: importCpuMs × cpuScale(memoryMb). */
export function coldInitMs(m: Pick<HandlerMeasurement, 'importCpuMs'>, memoryMb: number): number {
  return m.importCpuMs * cpuScale(memoryMb);
}

/**
 * Billed duration, ms: the duration rounded up to a whole ms, at least 1 ms. A tolerance of 1e-9 ms
 * absorbs floating-point noise, so 3 ms computed as 3.0000000000000004 bills 3, not 4.
 */
export function billedMs(durationMs: number): number {
  return Math.max(1, Math.ceil(durationMs - 1e-9));
}

/**
 * Lambda cost of 1,000,000 invocations, USD: duration (billed / 1000 s × memoryMb / 1024 GB ×
 * ARM64_USD_PER_GB_SECOND × 1e6) plus requests (USD_PER_MILLION_REQUESTS).
 */
export function costPerMillionUsd(billed: number, memoryMb: number): number {
  return durationCostPerMillionUsd(billed, memoryMb) + USD_PER_MILLION_REQUESTS;
}

/** The duration part of `costPerMillionUsd` alone, USD per 1,000,000 invocations (no request price). */
export function durationCostPerMillionUsd(billed: number, memoryMb: number): number {
  return (billed / 1000) * (memoryMb / 1024) * ARM64_USD_PER_GB_SECOND * 1e6;
}

/** One handler modeled at one memory size: times in ms, cost in USD per 1,000,000 invocations. */
export interface ModeledSize {
  memoryMb: number;
  /** Modeled warm duration, ms (unrounded). */
  warmMs: number;
  /** `warmMs` rounded up to the billed ms. */
  billedMs: number;
  /** Modeled cold init, ms. */
  coldInitMs: number;
  /** Lambda cost of 1,000,000 warm invocations (duration + requests), USD. */
  costPerMillionUsd: number;
  /** warmMs ÷ the warm duration at 1,769 MB (1 = as fast as one full vCPU). */
  slowdown: number;
  /** Whether `slowdown` and `coldInitMs` are within the limits. */
  withinLimits: boolean;
}

/** Models `m` at each of `sizes` (MB, default MEMORY_SIZES_MB), in the order given, against `limits`. */
export function modelSizes(
  m: HandlerMeasurement,
  sizes: readonly number[] = MEMORY_SIZES_MB,
  limits: ChoiceLimits = DEFAULT_LIMITS,
): ModeledSize[] {
  const fullVcpuMs = warmDurationMs(m, FULL_VCPU_MB);
  return sizes.map((memoryMb) => {
    const warmMs = warmDurationMs(m, memoryMb);
    const billed = billedMs(warmMs);
    const init = coldInitMs(m, memoryMb);
    const slowdown = warmMs / fullVcpuMs;
    return {
      memoryMb,
      warmMs,
      billedMs: billed,
      coldInitMs: init,
      costPerMillionUsd: costPerMillionUsd(billed, memoryMb),
      slowdown,
      withinLimits: slowdown <= limits.warmSlowdown + 1e-9 && init <= limits.coldInitMs + 1e-9,
    };
  });
}

/** A handler's chosen size: the modeled sizes, the chosen one, and whether any size met the limits. */
export interface MemoryChoice {
  measurement: HandlerMeasurement;
  sizes: ModeledSize[];
  chosen: ModeledSize;
  /** False when no size met both limits; `chosen` is then the largest size. */
  meetsLimits: boolean;
}

/**
 * The choice rule: among `sizes` (MB) within `limits`, the cheapest per 1,000,000 invocations; on equal
 * cost the faster (shorter warm duration). When none is within the limits, the largest size, flagged.
 */
export function chooseMemory(
  m: HandlerMeasurement,
  sizes: readonly number[] = MEMORY_SIZES_MB,
  limits: ChoiceLimits = DEFAULT_LIMITS,
): MemoryChoice {
  const modeled = modelSizes(m, sizes, limits);
  if (modeled.length === 0) throw new RangeError('no memory sizes to choose from');
  const eligible = modeled.filter((s) => s.withinLimits);
  if (eligible.length === 0) {
    const largest = modeled.reduce((a, b) => (b.memoryMb > a.memoryMb ? b : a));
    return { measurement: m, sizes: modeled, chosen: largest, meetsLimits: false };
  }
  const chosen = eligible.reduce((best, s) => {
    const d = s.costPerMillionUsd - best.costPerMillionUsd;
    if (d < -1e-12) return s;
    if (Math.abs(d) <= 1e-12 && s.warmMs < best.warmMs) return s;
    return best;
  });
  return { measurement: m, sizes: modeled, chosen, meetsLimits: true };
}

function usd(n: number): string {
  return `$${n.toFixed(3)}`;
}

/**
 * The markdown report: every handler at every size, the choice per function (with the configured
 * dev 512 MB / prod 1024 MB, lib/config/stage-config.ts, for comparison), and the Lambda duration of
 * create + confirm per 1,000,000 payments at the chosen sizes.
 */
export function renderReport(
  measurements: readonly HandlerMeasurement[] = MEASUREMENTS,
  sizes: readonly number[] = MEMORY_SIZES_MB,
  limits: ChoiceLimits = DEFAULT_LIMITS,
): string {
  const choices = measurements.map((m) => chooseMemory(m, sizes, limits));
  const lines: string[] = [];
  lines.push(
    `Model: warm = CPU × max(1, ${FULL_VCPU_MB}/MB) + wait; cold init = import CPU × max(1, ${FULL_VCPU_MB}/MB); ` +
      `$ per 1M = ceil(warm) ms × GB × $${ARM64_USD_PER_GB_SECOND}/GB-s + $${USD_PER_MILLION_REQUESTS.toFixed(2)}. ` +
      `Within limits: warm ≤ ${limits.warmSlowdown}× the ${FULL_VCPU_MB} MB warm, cold init ≤ ${limits.coldInitMs} ms. ✓ = chosen.`,
    '',
    '| Function | MB | CPU × | warm ms | billed ms | × 1769 MB warm | cold init ms | $ / 1M invocations | within limits |',
    '|----------|---:|------:|--------:|----------:|---------------:|-------------:|-------------------:|---------------|',
  );
  for (const c of choices) {
    for (const s of c.sizes) {
      const mark = s === c.chosen ? ' ✓' : '';
      lines.push(
        `| ${c.measurement.functionName} | ${s.memoryMb}${mark} | ${cpuScale(s.memoryMb).toFixed(2)} | ${s.warmMs.toFixed(2)} | ${s.billedMs} | ` +
          `${s.slowdown.toFixed(2)} | ${s.coldInitMs.toFixed(0)} | ${usd(s.costPerMillionUsd)} | ${s.withinLimits ? 'yes' : 'no'} |`,
      );
    }
  }
  lines.push(
    '',
    '| Function | wall ms | CPU ms | wait ms | import CPU ms | chosen MB | warm ms | cold init ms | $ / 1M invocations | vs dev 512 / prod 1024 MB |',
    '|----------|--------:|-------:|--------:|--------------:|----------:|--------:|-------------:|-------------------:|---------------------------|',
  );
  for (const c of choices) {
    const m = c.measurement;
    const vs = [512, 1024].map((configured) =>
      c.chosen.memoryMb === configured ? 'same' : c.chosen.memoryMb > configured ? 'larger' : 'smaller',
    );
    lines.push(
      `| ${m.functionName} | ${m.wallMs.toFixed(2)} | ${m.cpuMs.toFixed(2)} | ${(m.wallMs - m.cpuMs).toFixed(2)} | ` +
        `${m.importCpuMs}${m.importNote ? ` (${m.importNote})` : ''} | ${c.chosen.memoryMb}${c.meetsLimits ? '' : ' (no size met the limits)'} | ` +
        `${c.chosen.warmMs.toFixed(2)} | ${c.chosen.coldInitMs.toFixed(0)} | ${usd(c.chosen.costPerMillionUsd)} | ${vs.join(' / ')} |`,
    );
  }
  const perPayment = choices.filter((c) => c.measurement.handler === 'create' || c.measurement.handler === 'confirm');
  if (perPayment.length > 0) {
    lines.push('', 'Lambda duration per 1,000,000 payments at the chosen sizes (requests apart):');
    for (const c of perPayment) {
      const gbS = (c.chosen.billedMs / 1000) * (c.chosen.memoryMb / 1024);
      lines.push(
        `- ${c.measurement.handler}: ${c.chosen.warmMs.toFixed(2)} ms → billed ${c.chosen.billedMs} ms at ${c.chosen.memoryMb} MB = ` +
          `${gbS.toFixed(5)} GB-s per payment, ${usd(durationCostPerMillionUsd(c.chosen.billedMs, c.chosen.memoryMb))}`,
      );
    }
  }
  return lines.join('\n');
}

// Run only as `tsx scripts/capacity/lambda-memory.ts` (jest imports this file).
if (/[\\/]scripts[\\/]capacity[\\/]lambda-memory\.ts$/.test(process.argv[1] ?? '')) {
  process.stdout.write(`${renderReport()}\n`);
}
