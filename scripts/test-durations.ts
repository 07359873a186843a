/**
 * `npm run test:durations [-- results.json]`: refreshes test/setup/test-durations.json, the seconds per test file
 * the longest-first sequencer (test/setup/test-sequencer.cjs) uses on a machine whose jest cache has no timings (a
 * fresh clone, CI). Reads a `jest --json` results file when one is given and exists; otherwise runs the whole jest
 * suite once with `--json` (about as long as `npm test`) and reads that. Files of 5 s or more are written, longest
 * first, in whole seconds (each file's `endTime - startTime` in jest's `--json` report). Run it on the 2-core
 * CI machine, on a quiet moment, after suites were added or became much longer or shorter; commit the file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/** The part of jest's `--json` output read here. */
interface JestResults {
  testResults: { name: string; startTime: number; endTime: number }[];
}

/** Files shorter than this are left to the sequencer's size estimate (1 s per 8 KB of source). */
const MIN_SECONDS = 5;

const root = resolve(import.meta.dirname, '..');
const given = process.argv[2];
let resultsFile = given && existsSync(given) ? given : undefined;
const scratch = resultsFile ? undefined : mkdtempSync(join(tmpdir(), 'switchyard-test-durations-'));
try {
  if (!resultsFile) {
    resultsFile = join(scratch!, 'results.json');
    process.stderr.write(`no results file given: running jest --json (writes ${resultsFile})\n`);
    try {
      execFileSync('npx', ['jest', '--json', `--outputFile=${resultsFile}`], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      // a failing test still has a duration; the results file is what counts
      if (!existsSync(resultsFile)) throw new Error('jest wrote no results file');
    }
  }
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as JestResults;
  const seconds = results.testResults
    .map((r) => [relative(root, r.name).split('\\').join('/'), Math.round((r.endTime - r.startTime) / 1000)] as const)
    .filter(([, s]) => s >= MIN_SECONDS)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const out = join(root, 'test', 'setup', 'test-durations.json');
  writeFileSync(out, `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
  process.stderr.write(`${seconds.length} files of ${MIN_SECONDS} s or more written to ${relative(root, out)}\n`);
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
