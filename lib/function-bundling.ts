/**
 * How every Lambda function of the stack is bundled: esbuild, run in this process, with code splitting
 * so that a cold start loads only what its handler imports statically. Kept free of CDK imports so that the benchmark (scripts/bench/bundles.ts) and the tests bundle a
 * handler exactly as the stack does; lib/functions/function-code.ts wraps {@link bundleFunction} in a CDK asset.
 *
 * Why not NodejsFunction's own bundling: it passes esbuild `--outfile`, and esbuild's code splitting needs
 * `--outdir` ("Must use "outdir" when code splitting is enabled", esbuild 0.25; https://esbuild.github.io/api/#splitting).
 * Without splitting every `await import()` is inlined into `index.mjs`, so each payment handler carried all four
 * connectors and the AWS Encryption SDK (≈ 1.1 MB), which Node compiles at every cold start whether the request
 * uses them or not (docs/benchmarks.md, "Speed per invocation").
 */
import { copyFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import { type BundleFiles, ENTRY_FILE, mergeColdStartChunks } from './cold-start-merge';
import { BUNDLE_ALIASES, BUNDLE_SOURCES_CONTENT } from './function-runtime';

/**
 * The esbuild options of every function: one minified ESM entry `index.mjs` for Node.js 22 with a source map
 * (mappings only, {@link BUNDLE_SOURCES_CONTENT}), the AWS SDK inside (nothing external), its default credential
 * chain aliased to the environment-only provider ({@link BUNDLE_ALIASES}), and **code splitting**: what a handler
 * reaches only through `await import()` (a connector's adapter, the AWS Encryption SDK) goes to chunks (`*.mjs`)
 * beside it, loaded on first use, once per container; code shared by the entry and such a chunk goes to a shared
 * chunk the entry imports. ESM bundles still meet CommonJS dependencies that call `require()`: the banner gives
 * them one (in the entry and every chunk).
 */
export const FUNCTION_ESBUILD_OPTIONS = {
  bundle: true,
  target: 'node22',
  platform: 'node',
  format: 'esm',
  minify: true,
  sourcemap: true,
  sourcesContent: BUNDLE_SOURCES_CONTENT,
  alias: BUNDLE_ALIASES,
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  splitting: true,
  entryNames: 'index',
  // Beside the entry, not in a subdirectory: the cold-start merge (lib/cold-start-merge.ts) keeps the lazy chunks'
  // import paths as written, valid from any file of the one directory.
  chunkNames: '[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  logLevel: 'silent',
} as const satisfies BuildOptions;

/** What {@link bundleFunction} wrote. */
export interface FunctionBundle {
  /** Absolute path of the entry, `<outputDir>/index.mjs`. */
  entryFile: string;
  /** esbuild's metafile: every output file (entry, chunks, maps) with the inputs it holds, in bytes. */
  metafile: Metafile;
  /** esbuild's warnings (count). */
  warnings: number;
  /** The files written: what a cold start loads (`index.mjs` alone) and what loads on first use. */
  files: BundleFiles;
}

/**
 * Bundles one handler into `outputDir` with {@link FUNCTION_ESBUILD_OPTIONS}: `index.mjs` (exports `handler`),
 * `index.mjs.map` and the chunks beside them (`*-<hash>.mjs(.map)`); merges what a cold start loads into
 * `index.mjs` (lib/cold-start-merge.ts); then copies each of `assets` next to `index.mjs` under its base name,
 * where the handler reads it (functions/docs/static-asset.ts): a file served as it is stays out of the code.
 * @param root the repository root (esbuild's working directory; alias targets and `entry` are relative to it)
 * @param entry the handler module, from `root` (`functions/payments/create-payment.ts`)
 * @param outputDir an empty directory (CDK's asset output directory, or a temporary one)
 * @param assets files to copy, as paths from `root` (none by default)
 * @throws esbuild's build failure (its message lists each error) when the handler does not bundle; a missing asset
 *   (ENOENT from the copy)
 */
export function bundleFunction(root: string, entry: string, outputDir: string, assets: readonly string[] = []): FunctionBundle {
  const result = buildSync({
    ...FUNCTION_ESBUILD_OPTIONS,
    alias: { ...FUNCTION_ESBUILD_OPTIONS.alias },
    mainFields: [...FUNCTION_ESBUILD_OPTIONS.mainFields],
    absWorkingDir: root,
    entryPoints: [resolve(root, entry)],
    outdir: outputDir,
    metafile: true,
  });
  const files = mergeColdStartChunks(root, outputDir, result.metafile, FUNCTION_ESBUILD_OPTIONS.target);
  for (const file of assets) copyFileSync(resolve(root, file), join(outputDir, basename(file)));
  return { entryFile: join(outputDir, ENTRY_FILE), metafile: result.metafile, warnings: result.warnings.length, files };
}
