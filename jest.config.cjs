/**
 * Jest runs TypeScript through ts-jest in transpile-only mode (types are checked
 * by `tsc --noEmit` in `npm test`), compiled to CommonJS. middy 5+ ships ESM
 * only, so node_modules/@middy goes through the same transform.
 * HTTP tests share one in-memory DynamoDB Local started by test/setup/global-setup.ts.
 * `moduleNameMapper` strips the `.js` of a relative import (`./errors.js` → `./errors`), so ESM
 * sources that spell their imports as Node's loader needs (clients/typescript/src) resolve to the
 * `.ts` file; a real `.js` file still resolves, through moduleFileExtensions.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
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
  maxWorkers: 2,
  testTimeout: 30000,
};
