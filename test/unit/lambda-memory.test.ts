/**
 * The Lambda memory model (scripts/capacity/lambda-memory.ts; docs/capacity.md "Lambda memory and cost"): CPU time scaled by
 * 1769 / MB below one full vCPU (AWS Lambda docs, "Configure Lambda function memory"), DynamoDB wait
 * not scaled, billed duration rounded up to 1 ms, arm64 GB-second pricing, and Power Tuning's choice
 * of the cheapest size within the speed and cold-init limits. Pure arithmetic; inputs are written out
 * here so replacing the measured table does not change these tests.
 */
import {
  billedMs,
  chooseMemory,
  coldInitMs,
  costPerMillionUsd,
  cpuScale,
  durationCostPerMillionUsd,
  type HandlerMeasurement,
  MEASUREMENTS,
  renderReport,
  warmDurationMs,
} from '../../scripts/capacity/lambda-memory';

function measurement(partial: Partial<HandlerMeasurement>): HandlerMeasurement {
  return { handler: 'h', functionName: 'Fn', wallMs: 1, cpuMs: 1, importCpuMs: 50, ...partial };
}

describe('CPU share in proportion to memory (one vCPU at 1,769 MB)', () => {
  test('below 1,769 MB CPU time stretches by 1769 / MB', () => {
    expect(cpuScale(128)).toBeCloseTo(1769 / 128, 12);
    expect(cpuScale(884.5)).toBeCloseTo(2, 12);
    // 2 ms CPU + 3 ms wait at half a vCPU: 2 × 2 + 3.
    expect(warmDurationMs({ wallMs: 5, cpuMs: 2 }, 884.5)).toBeCloseTo(7, 12);
    expect(coldInitMs({ importCpuMs: 80 }, 884.5)).toBeCloseTo(160, 12);
  });

  test('at and above 1,769 MB there is no scaling (a Node handler uses one thread)', () => {
    expect(cpuScale(1769)).toBe(1);
    expect(cpuScale(3538)).toBe(1);
    expect(cpuScale(10240)).toBe(1);
    expect(warmDurationMs({ wallMs: 5, cpuMs: 2 }, 3538)).toBeCloseTo(5, 12);
    expect(coldInitMs({ importCpuMs: 80 }, 10240)).toBe(80);
  });

  test('the wait (wall − CPU) is not scaled: equal CPU, 10 ms more wall is 10 ms more at every size', () => {
    for (const mb of [128, 512, 1769]) {
      const short = warmDurationMs({ wallMs: 3, cpuMs: 2 }, mb);
      const long = warmDurationMs({ wallMs: 13, cpuMs: 2 }, mb);
      expect(long - short).toBeCloseTo(10, 9);
    }
    // All-wait handler: the same duration at every size.
    expect(warmDurationMs({ wallMs: 4, cpuMs: 0 }, 128)).toBe(4);
  });

  test('refuses CPU above wall and non-positive memory', () => {
    expect(() => warmDurationMs({ wallMs: 1, cpuMs: 2 }, 1024)).toThrow(RangeError);
    expect(() => cpuScale(0)).toThrow(RangeError);
  });
});

describe('billing', () => {
  test('billed duration rounds up to a whole ms, at least 1 ms, without floating-point noise', () => {
    expect(billedMs(2.78)).toBe(3);
    expect(billedMs(3.001)).toBe(4);
    expect(billedMs(3)).toBe(3);
    expect(Math.ceil(0.1 * 3 * 10)).toBe(4); // 0.1 × 3 × 10 is 3.0000000000000004 in floating point …
    expect(billedMs(0.1 * 3 * 10)).toBe(3); // … which bills 3 ms, not 4
    expect(billedMs(0.2)).toBe(1);
  });

  test('cost of 1,000,000 invocations: 8 ms at 1024 MB arm64 is 0.008 GB-s × $0.0000133334 × 1e6 + $0.20', () => {
    expect(durationCostPerMillionUsd(8, 1024)).toBeCloseTo(0.1066672, 10);
    expect(costPerMillionUsd(8, 1024)).toBeCloseTo(0.3066672, 10);
    // 3 ms at 1769 MB: 0.003 × 1769/1024 GB-s.
    expect(durationCostPerMillionUsd(3, 1769)).toBeCloseTo(0.003 * (1769 / 1024) * 13.3334, 10);
  });
});

describe('choice: cheapest size within 1.5× the 1,769 MB warm duration and ≤ 250 ms cold init', () => {
  // Wait-dominated: 0.5 ms CPU + 20 ms waiting. 128 MB: 0.5 × 13.82 + 20 = 26.9 ms (1.31×), cold 138 ms.
  const waiting = measurement({ wallMs: 20.5, cpuMs: 0.5, importCpuMs: 10 });

  test('a wait-dominated function gets the smallest size, which is also the cheapest', () => {
    const c = chooseMemory(waiting);
    expect(c.meetsLimits).toBe(true);
    expect(c.chosen.memoryMb).toBe(128);
    expect(c.chosen.billedMs).toBe(27);
  });

  test('a size over the speed limit is skipped for the cheapest one within it', () => {
    // With 1.2×, 128 MB (1.31×) is out; 256 MB: 0.5 × 6.91 + 20 = 23.46 ms (1.14×) is in and cheapest.
    const c = chooseMemory(waiting, undefined, { warmSlowdown: 1.2, coldInitMs: 250 });
    expect(c.sizes.find((s) => s.memoryMb === 128)?.withinLimits).toBe(false);
    expect(c.chosen.memoryMb).toBe(256);
  });

  test('the cheapest eligible size wins, not the smallest or the fastest: rounding makes 1769 MB cheaper than 1536', () => {
    // Today's create: 1536 MB → 3.10 ms billed 4 ($0.280); 1769 MB → 2.78 ms billed 3 ($0.269); 1024 MB is 1.55×.
    const c = chooseMemory(measurement({ wallMs: 2.78, cpuMs: 2.11, importCpuMs: 77 }));
    const at1536 = c.sizes.find((s) => s.memoryMb === 1536);
    expect(at1536?.withinLimits).toBe(true);
    expect(c.sizes.find((s) => s.memoryMb === 1024)?.withinLimits).toBe(false);
    expect(c.chosen.memoryMb).toBe(1769);
    expect(c.chosen.costPerMillionUsd).toBeLessThan(at1536?.costPerMillionUsd ?? 0);
  });

  test('a function whose cold init is too slow at small sizes gets a larger one', () => {
    // Same warm profile, 60 ms import: 128 MB → 829 ms, 256 MB → 415 ms, 512 MB → 207 ms.
    const heavyImport = { ...waiting, importCpuMs: 60 };
    const c = chooseMemory(heavyImport);
    expect(c.sizes.filter((s) => s.memoryMb < 512).every((s) => !s.withinLimits)).toBe(true);
    expect(c.chosen.memoryMb).toBe(512);
    expect(c.chosen.coldInitMs).toBeLessThanOrEqual(250);
  });

  test('when no size meets the limits the largest is returned, flagged', () => {
    const c = chooseMemory(measurement({ wallMs: 2, cpuMs: 1, importCpuMs: 400 }));
    expect(c.meetsLimits).toBe(false);
    expect(c.chosen.memoryMb).toBe(1769);
  });
});

describe('report', () => {
  test('marks exactly one chosen size per function and lists every measured function', () => {
    const report = renderReport(MEASUREMENTS);
    for (const m of MEASUREMENTS) {
      const rows = report.split('\n').filter((l) => l.startsWith(`| ${m.functionName} | `) && l.includes(' ✓ |'));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toContain(`| ${chooseMemory(m).chosen.memoryMb} ✓ |`);
    }
  });
});
