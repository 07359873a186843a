import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The layering that `npm run lint:layers` cannot say as a dependency-cruiser rule: which modules register the
 * steps payments run after an outcome, and how many loose files shared/operations keeps. The graph is
 * dependency-cruiser's (.dependency-cruiser.cjs: static, type-only and lazy `import()` all count).
 */
interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

function importGraph(...roots: string[]): Map<string, string[]> {
  const out = execFileSync(
    join('node_modules', '.bin', 'depcruise'),
    ['--config', '.dependency-cruiser.cjs', '--no-progress', '--output-type', 'json', ...roots],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const result = JSON.parse(out) as CruiseResult;
  return new Map(result.modules.map((m) => [m.source, m.dependencies.map((d) => d.resolved)]));
}

function reaches(graph: Map<string, string[]>, from: string, target: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at === target) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    stack.push(...(graph.get(at) ?? []));
  }
  return false;
}

const AUTHORIZATION = 'shared/operations/payments/payment-authorization.ts';
const BILLING_HOOK = 'shared/operations/billing/invoice-settlement-hook.ts';
const LINK_PLACE_HOOK = 'shared/operations/payment-links/link-place-hook.ts';

describe('layering', () => {
  test('every handler that can record a payment outcome registers billing’s step and payment links’ step (an invoice’s payment moves its invoice; a failed link payment gives its place back)', () => {
    const graph = importGraph('functions');
    const settling = [...graph.keys()].filter((m) => m.startsWith('functions/') && reaches(graph, m, AUTHORIZATION));
    expect(settling.length).toBeGreaterThan(0);
    expect(settling.filter((m) => !reaches(graph, m, BILLING_HOOK))).toEqual([]);
    expect(settling.filter((m) => !reaches(graph, m, LINK_PLACE_HOOK))).toEqual([]);
  }, 120_000);

  test('shared/operations keeps at most 3 loose files: every use case lives in its capability folder', () => {
    const loose = readdirSync('shared/operations', { withFileTypes: true }).filter((e) => e.isFile());
    expect(loose.length).toBeLessThanOrEqual(3);
  });
});
