/**
 * The per-file fast-check seed (test/setup/seeded-node-environment.cjs, test/setup/fast-check-seed.ts): every property
 * of a file draws from the seed the environment chose (FC_SEED when set), and running one marks the file, so that a
 * failing test of it reports the seed to replay.
 */
import fc from 'fast-check';

const run = (globalThis as { __FAST_CHECK_RUN__?: { seed: number; used: boolean } }).__FAST_CHECK_RUN__;

test('the environment chose a 32-bit seed for this file, FC_SEED when set', () => {
  expect(run).toBeDefined();
  expect(Number.isInteger(run!.seed)).toBe(true);
  expect(run!.seed | 0).toBe(run!.seed);
  if (process.env.FC_SEED) expect(run!.seed).toBe(Number(process.env.FC_SEED));
});

test("it is fast-check's global seed, and running a property marks the file as using it", () => {
  const values = fc.sample(fc.integer(), 5);
  expect(run!.used).toBe(true);
  expect(fc.readConfigureGlobal().seed).toBe(run!.seed);
  // The same seed draws the same values: what FC_SEED=<seed> relies on to replay a run.
  expect(fc.sample(fc.integer(), { numRuns: 5, seed: run!.seed })).toEqual(values);
});
