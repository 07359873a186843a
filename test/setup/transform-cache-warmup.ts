/**
 * Fills jest's transform cache before the test workers start, once per file, on as many threads as the machine has
 * cores. On a fresh clone the cache is empty, and jest's four workers, starting together, each transpile the same
 * shared modules (storage, schemas, http) before any of them has written the result: measured on the whole run, a cold
 * cache cost about 2 minutes more than a warm one (README, "Tests"). Warming runs while DynamoDB Local starts
 * (test/setup/global-setup.ts), and a file already in the cache costs only its key.
 */
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Config } from '@jest/types';

/** What the warm-up did: counts of files, and its wall time in ms. */
export interface TransformCacheWarmup {
  transformed: number;
  failed: number;
  ms: number;
}

/** The folders whose TypeScript the suites require, relative to the repository root. */
const SOURCE_ROOTS = ['shared', 'functions', 'lib', 'bin', 'scripts', 'test', 'clients/typescript/src', 'clients/typescript/test'];

/** ESM-only packages jest transforms too (jest.config.js `transformIgnorePatterns`). */
const TRANSFORMED_PACKAGES = ['node_modules/@middy'];

/**
 * Transforms every `.ts` file under the source roots and every `.js` file of the transformed packages into jest's
 * cache (test/setup/transform-cache-worker.cjs), split across worker threads. Never throws for a file: one that fails
 * is counted and left to the test that requires it.
 * @param config the project config jest passes to its global setup (the cache key includes its id)
 */
export async function warmTransformCache(config: Config.ProjectConfig): Promise<TransformCacheWarmup> {
  const started = Date.now();
  const files = [
    ...SOURCE_ROOTS.flatMap((root) => filesUnder(resolve(config.rootDir, root), '.ts')),
    ...TRANSFORMED_PACKAGES.flatMap((root) => filesUnder(resolve(config.rootDir, root), '.js')),
  ];
  const threads = Math.max(1, Math.min(availableParallelism(), 4));
  const chunks = Array.from({ length: threads }, (_, i) => files.filter((_, index) => index % threads === i));
  const results = await Promise.all(
    chunks.map(
      (chunk) =>
        new Promise<{ transformed: number; failed: number }>((done, fail) => {
          const worker = new Worker(join(__dirname, 'transform-cache-worker.cjs'), { workerData: { config, files: chunk } });
          worker.once('message', done);
          worker.once('error', fail);
          // A thread that ends without answering (out of memory) leaves its files to the test workers.
          worker.once('exit', () => done({ transformed: 0, failed: chunk.length }));
        }),
    ),
  );
  return {
    transformed: results.reduce((sum, r) => sum + r.transformed, 0),
    failed: results.reduce((sum, r) => sum + r.failed, 0),
    ms: Date.now() - started,
  };
}

/** Files under `dir` (recursively) whose names end with `extension`, skipping nested node_modules and build output. */
function filesUnder(dir: string, extension: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.endsWith(extension) && !entry.endsWith('.d.ts'))
    .filter((entry) => !/(^|\/)(node_modules|dist|cdk\.out)\//.test(entry))
    .map((entry) => join(dir, entry));
}
