/**
 * Jest runs TypeScript through ts-jest in transpile-only mode (types are checked
 * by `tsc --noEmit` in `npm test`), compiled to CommonJS. middy 5+ ships ESM
 * only, so node_modules/@middy goes through the same transform.
 * HTTP tests share one in-memory DynamoDB Local started by test/setup/global-setup.ts.
 * Four workers on the 2-core CI machine: files wait on I/O part of the time, so extra workers fill the idle share
 * (README, "Tests": 9 min 0 s with 2 workers; 8 min 22 s with 3 and 7 min 38 s with 4 on a later, larger tree, on a
 * quiet machine). The run is CPU-bound, so what
 * keeps it under 8 minutes is CPU-seconds (README, "Tests", measured per file): cdk-cli-synth 144 → 38 (the CLI no
 * longer esbuilds the 90 functions one by one), the infra suites' shared CLI-shaped syntheses (capacity, stacks and
 * alarm destinations 134 → 124 in one run), DynamoDB Local's JVM on the client compiler (about 10 per run).
 * A fresh clone's empty transform cache is filled once, on a thread per core, while DynamoDB Local starts
 * (test/setup/transform-cache-warmup.ts), instead of by four workers transpiling the same modules at once.
 * ts-jest stays: @swc/jest cuts a cold cache's transpiling (test/unit: 82 → 64 CPU-seconds cold, equal warm) but its
 * CommonJS exports cannot be redefined, which `jest.spyOn` on a module namespace needs.
 * `moduleNameMapper` strips the `.js` of a relative import (`./errors.js` → `./errors`), so ESM
 * sources that spell their imports as Node's loader needs (clients/typescript/src) resolve to the
 * `.ts` file; a real `.js` file still resolves, through moduleFileExtensions.
 * @type {import('jest').Config}
 */
module.exports = {
  // jest's node environment that gives each file one fast-check seed and reports it when a test of a file that ran a
  // property fails (FC_SEED=<seed> replays it): test/setup/seeded-node-environment.cjs.
  testEnvironment: '<rootDir>/test/setup/seeded-node-environment.cjs',
  setupFilesAfterEnv: ['<rootDir>/test/setup/fast-check-seed.ts'],
  roots: ['<rootDir>/test', '<rootDir>/clients/typescript/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.[tj]s$': [
      'ts-jest',
      {
        tsconfig: { allowJs: true, module: 'commonjs', moduleResolution: 'node10', isolatedModules: true, verbatimModuleSyntax: false },
        diagnostics: false,
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testSequencer: '<rootDir>/test/setup/test-sequencer.cjs',
  maxWorkers: 4,
  // A test's timeout only catches a hang; it never decides a verdict. On the loaded CI machine (3 workers on 2 shared
  // cores) suites that take seconds on a quiet machine have been seen at 60-120 s, so the default is 120 s and the
  // suites that set their own give at least twice what they had. Polls inside tests keep ceilings of their own
  // (10-20 s) and fail with a message that says what was not reached.
  testTimeout: 120_000,
};
