/**
 * One synthesis of each stage per test run, shared by the infra suites: most of them read the same default templates
 * of dev and prod (test/infra/synth-stage.ts `synthStage(stage)` without options), and a synthesis costs several
 * CPU-seconds (about 90 functions, their alarms, the nested stacks). The first suite to ask for a stage claims it (a
 * lock file created with `wx`), synthesizes it and writes the templates as JSON; a suite asking meanwhile waits for
 * the file (polling every 50 ms) and then reads it; later suites read it at once. What the suites assert is unchanged:
 * they get the templates of the same synthesis code, as JSON, as `Template.fromStack` would give them.
 *
 * The directory lives for one jest run (test/setup/global-setup.ts makes it, global-teardown removes it), so a change
 * to lib/ between runs is always synthesized again. Without it (a script, another runner) nothing is cached. The key
 * holds the stage and everything outside the code that changes a synthesis (synth-stage.ts `SYNTHESIS_ENV`).
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The environment variable naming the run's cache directory (set by test/setup/global-setup.ts). */
export const STAGE_TEMPLATE_CACHE_DIR_ENV = 'SWITCHYARD_STAGE_TEMPLATE_CACHE_DIR';

/** How long a suite waits for another worker's synthesis before doing its own (a crashed worker never writes). */
const WAIT_LIMIT_MS = 10 * 60_000;
/** How often a waiting suite looks for the file. */
const POLL_MS = 50;

/** Blocks the thread for `ms` (synthStage is synchronous: suites call it while jest collects their tests). */
const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * The value `produce` returned for `name` in this run: read from the run's cache when a suite already wrote it,
 * else produced here (or, when another worker is producing it, waited for) and written for the others.
 * @param name what is cached (e.g. `stage-dev`), the start of the file name
 * @param inputs everything besides the code that changes what `produce` returns (hashed into the file name)
 * @param produce the synthesis; its value must survive `JSON.stringify`
 * @returns `produce()`'s value, or its JSON copy from the cache
 * @throws what `produce` throws (the suite that produced it, and each waiting suite by producing it itself)
 */
export function cachedForRun<T>(name: string, inputs: unknown, produce: () => T): T {
  const dir = process.env[STAGE_TEMPLATE_CACHE_DIR_ENV];
  if (!dir) return produce();
  const key = createHash('sha256')
    .update(JSON.stringify([name, inputs]))
    .digest('hex')
    .slice(0, 16);
  const file = join(dir, `${name}-${key}.json`);
  const failed = `${file}.failed`;
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
    if (existsSync(failed)) return produce();
    let claimed = false;
    try {
      closeSync(openSync(`${file}.lock`, 'wx'));
      claimed = true;
    } catch {
      // another worker holds the claim: wait for its file
    }
    if (claimed) {
      let value: T;
      try {
        value = produce();
      } catch (error) {
        writeFileSync(failed, '');
        throw error;
      }
      writeFileSync(`${file}.tmp`, JSON.stringify(value));
      renameSync(`${file}.tmp`, file);
      return value;
    }
    if (Date.now() > deadline) return produce();
    sleep(POLL_MS);
  }
}
