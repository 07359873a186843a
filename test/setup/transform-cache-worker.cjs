/**
 * A worker thread of the transform cache warm-up (test/setup/transform-cache-warmup.ts): transforms the files it is
 * given through jest's own ScriptTransformer, built from the run's project config, so each result lands in jest's
 * transform cache under the key a test worker will look up (the key is the project config's id, the transformer's
 * config, the file's path and content: @jest/transform ScriptTransformer `_getCacheKey`, ts-jest `getCacheKey`).
 * workerData: `{ config: ProjectConfig, files: string[] }` (absolute paths). Posts `{ transformed, failed }`, counts
 * of files; a file that fails to transform is left to the test worker, which reports the error where it is required.
 */
const { parentPort, workerData } = require('node:worker_threads');
const { createScriptTransformer } = require('@jest/transform');

/**
 * The options jest-runtime passes when a test file `require`s a module (jest-runtime `defaultTransformOptions`, with
 * coverage off): ts-jest keys its cache on `instrument` and `supportsStaticESM`, so these must match.
 */
const REQUIRE_OPTIONS = {
  isInternalModule: false,
  supportsDynamicImport: true,
  supportsExportNamespaceFrom: false,
  supportsStaticESM: false,
  supportsTopLevelAwait: false,
  collectCoverage: false,
  collectCoverageFrom: [],
  coverageProvider: 'babel',
};

(async () => {
  const transformer = await createScriptTransformer(workerData.config);
  let transformed = 0;
  let failed = 0;
  for (const file of workerData.files) {
    try {
      transformer.transform(file, REQUIRE_OPTIONS);
      transformed += 1;
    } catch {
      failed += 1;
    }
  }
  parentPort.postMessage({ transformed, failed });
})();
