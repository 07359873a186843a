/**
 * jest's `node` environment with a DynamoDB table per test file (test/setup/file-table-environment.cjs), plus one
 * fast-check seed per test file, so that a property that fails can be replayed.
 *
 * fast-check prints its seed when a property fails, but not when jest stops the test first (its timeout, on a loaded
 * machine) or when the failure is an assertion after the property. Here the seed is chosen before the file runs —
 * `FC_SEED` when set, else a random 32-bit integer — and handed to the file (`__FAST_CHECK_RUN__`), where
 * test/setup/fast-check-seed.ts makes it fast-check's global seed. When a test of a file that ran a property fails,
 * for whatever reason, one more error is added to its report: the seed and the command that draws the same values
 * (`FC_SEED=<seed> npx jest <file>`). A property given its own `seed` keeps it; the suites that read `FC_SEED`
 * themselves (property-based, gateway, auto-retries-property) read the same value.
 */
const { FileTableEnvironment } = require('./file-table-environment.cjs');

class SeededNodeEnvironment extends FileTableEnvironment {
  constructor(config, context) {
    super(config, context);
    const given = process.env.FC_SEED;
    this.seed = given !== undefined && given.trim() !== '' ? Number(given) : (Math.random() * 0x100000000) | 0;
    this.global.__FAST_CHECK_RUN__ = { seed: this.seed, used: false };
  }

  handleTestEvent(event) {
    if (event.name !== 'test_done' || event.test.errors.length === 0) return;
    if (!this.global.__FAST_CHECK_RUN__?.used) return;
    const note = new Error(
      `fast-check seed of this run of the file: ${this.seed}. FC_SEED=${this.seed} npx jest ${this.file} draws the same values.`,
    );
    note.stack = note.message; // a note, not a failure of its own: no code frame
    event.test.errors.push(note);
  }
}

module.exports = SeededNodeEnvironment;
