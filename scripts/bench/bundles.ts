/**
 * Bundle size and cold import time of every Lambda handler, bundled the way the
 * CDK stack bundles it (lib/function-bundling.ts `bundleFunction`, code splitting included), next to a
 * baseline bundle that holds only the DynamoDB document client.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { staticOutputs } from '../../lib/cold-start-merge';
import { bundleFunction } from '../../lib/function-bundling';
import { median } from './stats';

/** What is bundled: a name and an entry file relative to the repository root. */
export interface BundleEntry {
  name: string;
  entry: string;
}

/** Measurements of one bundle. */
export interface BundleResult extends BundleEntry {
  /** What a cold start loads: `index.mjs` and the chunks it imports statically (minified, without `.map`), in bytes. */
  bytes: number;
  /** Their `.map` files, in bytes. */
  mapBytes: number;
  /** The chunks loaded only on first use (`await import()`: a connector's adapter, the AWS Encryption SDK), in bytes. */
  lazyBytes: number;
  /** Median time of `await import(bundle)` in a fresh `node` without NODE_OPTIONS, in ms. */
  importMs: number;
  /**
   * The same under the stack's `NODE_OPTIONS` (lib/function-runtime.ts `FUNCTION_NODE_OPTIONS`), in ms:
   * what a cold start of the function pays. Equal to {@link importMs} when the stack sets none.
   */
  importStackMs: number;
  /**
   * CPU time (user + system, all threads) of the importing process during {@link importStackMs}'s
   * import, median, in ms: steadier than wall time on a machine shared with other work.
   */
  importStackCpuMs: number;
  /** The same with `NODE_OPTIONS=--enable-source-maps` (the stack's earlier setting), in ms; NaN when not measured. */
  importWithSourceMapsMs: number;
  warnings: number;
  /** The biggest contributors to the bundle: npm package (or `(own code)`) and bytes in the output, largest first. */
  largest: { name: string; bytes: number }[];
}

/**
 * Bundles `entry` into `outDir` exactly as the stack does (lib/function-bundling.ts `bundleFunction`: esbuild with
 * code splitting, then what a cold start loads merged into `index.mjs`; the lazy chunks beside it).
 * @returns the entry's path, the number of esbuild warnings, the files a cold start loads (`index.mjs`) and the
 *   bytes loaded only on first use (`await import()` chunks), and the biggest contributors to what a cold start
 *   loads (from the split build's record of which source went where)
 * @throws on a build error
 */
export async function bundle(
  entry: string,
  outDir: string,
): Promise<{ file: string; warnings: number; staticFiles: string[]; lazyBytes: number; largest: { name: string; bytes: number }[] }> {
  const built = bundleFunction(process.cwd(), entry, outDir);
  const outputs = built.metafile.outputs;
  const staticKeys = new Set(staticOutputs(built.metafile));
  const byPackage = new Map<string, number>();
  for (const [key, output] of Object.entries(outputs)) {
    if (key.endsWith('.map') || !staticKeys.has(key)) continue;
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? '(own code)';
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  const largest = [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  const lazySizes = await Promise.all(built.files.onFirstUse.map((f) => stat(f)));
  const lazyBytes = lazySizes.reduce((total, s) => total + s.size, 0);
  return {
    file: built.entryFile,
    warnings: built.warnings,
    staticFiles: built.files.coldStart,
    lazyBytes,
    largest,
  };
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    child.once('error', fail);
    child.once('close', (code) => (code === 0 ? ok(out) : fail(new Error(`node exited with ${code}: ${err.trim()}`))));
  });
}

/** One cold import: wall time and the importing process's CPU time, in ms. */
export interface ImportSample {
  wallMs: number;
  cpuMs: number;
}

/**
 * One cold import of an ES module bundle in a fresh `node` process: `performance.now()` and
 * `process.cpuUsage()` around `await import(<file URL>)` (process start-up not included).
 * @param nodeOptions the child's NODE_OPTIONS (e.g. `--enable-source-maps`); undefined: none
 * @param env the child's environment (its own NODE_OPTIONS is replaced)
 */
export async function coldImport(file: string, nodeOptions: string | undefined, env: NodeJS.ProcessEnv): Promise<ImportSample> {
  const url = pathToFileURL(file).href;
  const code =
    `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(url)}); ` +
    'const w = performance.now() - t; const u = process.cpuUsage(c); console.log(w, (u.user + u.system) / 1000);';
  const childEnv = { ...env };
  delete childEnv.NODE_OPTIONS;
  if (nodeOptions) childEnv.NODE_OPTIONS = nodeOptions;
  const out = await run(['--input-type=module', '-e', code], childEnv);
  const [wallMs, cpuMs] = (out.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { wallMs: wallMs ?? Number.NaN, cpuMs: cpuMs ?? Number.NaN };
}

/**
 * Cold import times of several bundles, measured in rounds (each round imports
 * every bundle once, in an order shuffled per round, once per NODE_OPTIONS variant), so that a burst of
 * load on the machine spreads over all bundles and variants instead of skewing one.
 * @param variants NODE_OPTIONS per variant (undefined: none) and its number of rounds
 * @returns per variant, per file, the medians of wall and CPU time over its rounds (no rounds give NaN)
 */
export async function coldImportRounds(
  files: readonly string[],
  variants: readonly { nodeOptions: string | undefined; runs: number }[],
  env: NodeJS.ProcessEnv,
): Promise<ImportSample[][]> {
  const samples = variants.map(() => files.map((): ImportSample[] => []));
  const rounds = Math.max(0, ...variants.map((v) => v.runs));
  for (let round = 0; round < rounds; round += 1) {
    // Each round in its own order (Fisher–Yates), so no bundle always follows the same one: with a fixed order,
    // CancelPayment and CapturePayment (the same code but for their schema) measured 1.43× and 1.20× in one run.
    const order = [...files.keys()];
    for (let k = order.length - 1; k > 0; k -= 1) {
      const j = Math.floor(Math.random() * (k + 1));
      [order[k], order[j]] = [order[j] as number, order[k] as number];
    }
    for (const i of order) {
      const file = files[i] as string;
      for (const [v, variant] of variants.entries()) {
        if (round < variant.runs) samples[v]?.[i]?.push(await coldImport(file, variant.nodeOptions, env));
      }
    }
  }
  return samples.map((perFile) => perFile.map((s) => ({ wallMs: median(s.map((x) => x.wallMs)), cpuMs: median(s.map((x) => x.cpuMs)) })));
}

/**
 * Bundles every entry into its own folder of a temporary directory (all builds
 * in parallel), then measures the cold import time of every bundle, one process
 * at a time, interleaved: without NODE_OPTIONS, under the stack's NODE_OPTIONS
 * (when it sets any) and with `--enable-source-maps`; removes the directory.
 * @param runs import rounds per variant (median taken); `withSourceMaps` 0 skips that variant
 * @param stackNodeOptions the functions' NODE_OPTIONS (lib/function-runtime.ts), undefined when none
 * @param onProgress called with each phase's description
 */
export async function measureBundles(
  entries: readonly BundleEntry[],
  runs: { plain: number; withSourceMaps: number },
  stackNodeOptions: string | undefined,
  env: NodeJS.ProcessEnv,
  onProgress: (message: string) => void = () => undefined,
): Promise<BundleResult[]> {
  const root = await mkdtemp(join(tmpdir(), 'switchyard-bench-bundles-'));
  try {
    const built = await Promise.all(
      entries.map(async (e, i) => {
        const { staticFiles, ...b } = await bundle(e.entry, join(root, String(i)));
        const sizes = await Promise.all(staticFiles.map((f) => stat(f)));
        const mapSizes = await Promise.all(staticFiles.map((f) => stat(`${f}.map`)));
        const sum = (list: { size: number }[]) => list.reduce((total, x) => total + x.size, 0);
        return { ...e, ...b, bytes: sum(sizes), mapBytes: sum(mapSizes) };
      }),
    );
    const files = built.map((b) => b.file);
    const variants = [
      { nodeOptions: undefined, runs: runs.plain },
      ...(stackNodeOptions ? [{ nodeOptions: stackNodeOptions, runs: runs.plain }] : []),
      { nodeOptions: '--enable-source-maps', runs: runs.withSourceMaps },
    ];
    onProgress(
      `${built.length} bundles built; ${runs.plain} import rounds without NODE_OPTIONS${stackNodeOptions ? `, ${runs.plain} with the stack's (${stackNodeOptions})` : ''}, ` +
        `${runs.withSourceMaps} with --enable-source-maps, interleaved`,
    );
    const [plain = [], ...rest] = await coldImportRounds(files, variants, env);
    const stack = stackNodeOptions ? (rest[0] ?? []) : plain;
    const withMaps = rest.at(-1) ?? [];
    return built.map(({ file: _file, ...b }, i) => ({
      ...b,
      importMs: plain[i]?.wallMs ?? Number.NaN,
      importStackMs: stack[i]?.wallMs ?? Number.NaN,
      importStackCpuMs: stack[i]?.cpuMs ?? Number.NaN,
      importWithSourceMapsMs: withMaps[i]?.wallMs ?? Number.NaN,
    }));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
