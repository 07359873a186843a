/**
 * The order jest hands test files to its two workers: longest first, so that no long file starts last and
 * leaves one worker running it alone at the end of the run (a fresh clone has no timings, and jest's default
 * then orders by file size: the fault suites are 8-line files that import a 900-line suite, so they ran last).
 *
 * A file's expected duration is, in this order: jest's own timing from the last run on this machine (its cache),
 * else {@link ./test-durations.json} (seconds measured on the 2-core CI machine; only files of 5 s or more are
 * listed; `npm run test:durations` rewrites it from a `jest --json` run), else 1 s per 8 KB of source (at least 1 s). Files that failed last time still run first, as jest does.
 * The order changes only when files start, never what they assert.
 */
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const root = join(__dirname, '..', '..');
const measured = JSON.parse(readFileSync(join(__dirname, 'test-durations.json'), 'utf8'));

class LongestFirstSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = measured[relative(root, test.path).split('\\').join('/')];
    if (seconds != null) return seconds * 1000;
    const size = test.context.hasteFS.getSize(test.path) ?? 0;
    return Math.max(1000, size / 8);
  }
}

module.exports = LongestFirstSequencer;
