/**
 * Bundle sizes only (no import timing, no HTTP): every route's handler bundled exactly as the
 * stack bundles it (scripts/bench/bundles.ts `bundle`, lib/functions/function-code.ts `functionCode`).
 * Deterministic, so it gives a before/after on a busy machine where timings would be noise.
 * Usage: `npx tsx scripts/bench/bundle-sizes.ts` → one line per route: name, bytes, largest packages.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '../../shared/api/routes';
import { bundle } from './bundles';

for (const route of ROUTES) {
  const dir = await mkdtemp(join(tmpdir(), 'bundle-size-'));
  try {
    const { file, largest } = await bundle(route.entry, dir);
    const bytes = (await stat(file)).size;
    const top = largest
      .slice(0, 3)
      .map((l) => `${l.name} ${Math.round(l.bytes / 1000)}`)
      .join(', ');
    console.log(`${route.name.padEnd(28)} ${String(bytes).padStart(9)}  ${top}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
