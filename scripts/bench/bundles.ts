/**
 * Bundle size and cold import time of every Lambda handler, bundled the way the
 * CDK stack bundles it (lib/api-stack.ts, NodejsFunction `bundling`), next to a
 * baseline bundle that holds only the DynamoDB document client.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median } from './stats';

/** What is bundled: a name and an entry file relative to the repository root. */
export interface BundleEntry {
  name: string;
  entry: string;
}

/** Measurements of one bundle. */
export interface BundleResult extends BundleEntry {
  /** Size of `index.mjs` (minified, without its `.map`), in bytes. */
  bytes: number;
  /** Size of `index.mjs.map`, in bytes. */
  mapBytes: number;
  /** Median time of `await import(bundle)` in a fresh `node`, in ms. */
  importMs: number;
  /** The same with `--enable-source-maps` (the stack sets it in NODE_OPTIONS), in ms; NaN when not measured. */
  importWithSourceMapsMs: number;
  warnings: number;
  /** The biggest contributors to the bundle: npm package (or `(own code)`) and bytes in the output, largest first. */
  largest: { name: string; bytes: number }[];
}

/**
 * The esbuild options NodejsFunction derives from lib/api-stack.ts's `bundling`
 * (`--bundle --target=node22 --platform=node --format=esm --minify --sourcemap
 * --main-fields=module,main --banner:js=…`, nothing external because
 * `bundleAwsSDK: true`).
 */
export const STACK_BUNDLING = {
  bundle: true,
  target: 'node22',
  platform: 'node',
  format: 'esm',
  minify: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'silent',
} as const;

/**
 * Bundles `entry` to `<outDir>/index.mjs` with {@link STACK_BUNDLING}.
 * @returns the bundle's path and the number of esbuild warnings
 * @throws on a build error
 */
export async function bundle(
  entry: string,
  outDir: string,
): Promise<{ file: string; warnings: number; largest: { name: string; bytes: number }[] }> {
  const file = join(outDir, 'index.mjs');
  const out = await build({
    ...STACK_BUNDLING,
    mainFields: [...STACK_BUNDLING.mainFields],
    entryPoints: [resolve(process.cwd(), entry)],
    outfile: file,
    metafile: true,
  });
  const byPackage = new Map<string, number>();
  for (const output of Object.values(out.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? '(own code)';
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  const largest = [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { file, warnings: out.warnings.length, largest };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? ok(out) : fail(new Error(`node exited with ${code}: ${err.trim()}`))));
  });
}

/**
 * Cold import time of an ES module bundle: in a fresh `node` process each run,
 * `performance.now()` around `await import(<file URL>)` (process start-up not
 * included), median of `runs`.
 * @param extraNodeArgs e.g. `['--enable-source-maps']`
 * @param env the child's environment (NODE_OPTIONS is removed from it)
 */
export async function coldImportMs(file: string, runs: number, extraNodeArgs: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const url = pathToFileURL(file).href;
  const code = `const t = performance.now(); await import(${JSON.stringify(url)}); console.log(performance.now() - t);`;
  const childEnv = { ...env };
  delete childEnv.NODE_OPTIONS;
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const out = await run([...extraNodeArgs, '--input-type=module', '-e', code], childEnv);
    samples.push(Number(out.trim().split('\n').at(-1)));
  }
  return median(samples);
}

/**
 * Cold import times of several bundles, measured in rounds (each round imports
 * every bundle once, in order), so that a burst of load on the machine spreads
 * over all bundles instead of skewing one.
 * @returns per file, the median over `runs` rounds (empty samples give NaN)
 */
export async function coldImportRounds(
  files: readonly string[],
  runs: number,
  extraNodeArgs: string[],
  env: NodeJS.ProcessEnv,
): Promise<number[]> {
  const samples = files.map((): number[] => []);
  for (let round = 0; round < runs; round += 1) {
    for (const [i, file] of files.entries()) samples[i]?.push(await coldImportMs(file, 1, extraNodeArgs, env));
  }
  return samples.map((s) => median(s));
}

/**
 * Bundles every entry into its own folder of a temporary directory (all builds
 * in parallel), then measures the cold import time of every bundle, plain and
 * with `--enable-source-maps`, one process at a time; removes the directory.
 * @param runs import rounds without and with source maps (median taken)
 * @param onProgress called with each phase's description
 */
export async function measureBundles(
  entries: readonly BundleEntry[],
  runs: { plain: number; withSourceMaps: number },
  env: NodeJS.ProcessEnv,
  onProgress: (message: string) => void = () => undefined,
): Promise<BundleResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'switchyard-bench-bundles-'));
  try {
    const built = await Promise.all(
      entries.map(async (e, i) => {
        const b = await bundle(e.entry, join(root, String(i)));
        const [size, mapSize] = await Promise.all([stat(b.file), stat(`${b.file}.map`)]);
        return { ...e, ...b, bytes: size.size, mapBytes: mapSize.size };
      }),
    );
    const files = built.map((b) => b.file);
    onProgress(`${built.length} bundles built; ${runs.plain} import rounds`);
    const plain = await coldImportRounds(files, runs.plain, [], env);
    onProgress(`${runs.withSourceMaps} import rounds with --enable-source-maps`);
    const withMaps =
      runs.withSourceMaps > 0
        ? await coldImportRounds(files, runs.withSourceMaps, ['--enable-source-maps'], env)
        : files.map(() => Number.NaN);
    return built.map(({ file: _file, ...b }, i) => ({ ...b, importMs: plain[i] as number, importWithSourceMapsMs: withMaps[i] as number }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
