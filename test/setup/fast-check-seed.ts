/**
 * Makes the seed test/setup/seeded-node-environment.cjs chose for this test file fast-check's global seed, and notes
 * when a property reads it (that is, runs), so that a failing test of the file reports the seed. Loads fast-check only
 * for a file whose source, or a file it imports by relative path, names it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const run = (globalThis as { __FAST_CHECK_RUN__?: { seed: number; used: boolean } }).__FAST_CHECK_RUN__;
const testPath = expect.getState().testPath;

/** Whether the file, or one it imports by a relative path (one level), imports fast-check. */
function usesFastCheck(file: string): boolean {
  const source = readFileSync(file, 'utf8');
  if (source.includes("'fast-check'")) return true;
  for (const [, spec] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const imported = resolve(dirname(file), `${spec}.ts`);
    if (existsSync(imported) && readFileSync(imported, 'utf8').includes("'fast-check'")) return true;
  }
  return false;
}

if (run && testPath && usesFastCheck(testPath)) {
  // Required here, not imported at the top: fast-check is loaded only by the files that use it.
  const fc = require('fast-check') as typeof import('fast-check');
  fc.configureGlobal({
    ...fc.readConfigureGlobal(),
    // Read by fast-check when a property runs (each run spreads the global parameters): the file used it.
    get seed() {
      run.used = true;
      return run.seed;
    },
  });
}
