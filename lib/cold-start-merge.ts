/**
 * The second step of bundling a function: everything a cold start loads, in **one file**.
 *
 * esbuild's code splitting puts each module in a chunk named by the set of entry points that reach it (the handler
 * and every `await import()` target), so a handler with a dozen lazy targets imports 20–30 small chunks statically
 * (CreatePayment: 28, some of 200 bytes). Node loads each ES module file on its own (resolve, read, compile, link):
 * measured on this machine, importing 30 one-line modules takes ~6–9 ms more than one module holding the same 30
 * lines, and CreatePayment's import fell from 1.52× to 1.29× the fixed-choice floor with its static chunks in one
 * file (docs/benchmarks.md "Speed per invocation"). esbuild has no option to merge chunks (its "manual
 * chunks" request is open: https://github.com/evanw/esbuild/issues/207), so this step does it with esbuild itself:
 *
 * 1. The entry and every chunk it imports statically (transitively) are bundled again into `index.mjs`, from a
 *    virtual entry that re-exports the handler and every export of each of those chunks under a name of its own
 *    (`__cold<i>_<name>`); the lazy chunks stay external, their import paths unchanged (all files sit in one
 *    directory, so a path is valid from any of them). The chunks' own source maps are read, so `index.mjs.map`
 *    still maps to the TypeScript sources.
 * 2. Each of those chunks is replaced by a stub re-exporting its names from `./index.mjs`. A lazy chunk that
 *    imports one gets the bindings of the already evaluated entry: the same module instances, never a second copy.
 *
 * What a cold start evaluates is unchanged (the same modules, in the same order); only the number of files is.
 * The lazy chunks are not touched. No module here uses top-level await, so a lazy chunk importing the entry back
 * cannot wait on it (test/infra/stacks.test.ts runs a merged bundle, lazy chunks included).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { buildSync, type Metafile } from 'esbuild';
import { BUNDLE_SOURCES_CONTENT } from './function-runtime';

/** The files of a merged bundle, absolute paths. */
export interface BundleFiles {
  /** What a cold start loads: `index.mjs` alone. */
  coldStart: string[];
  /** The lazy chunks (and the stubs they import), loaded on first use. */
  onFirstUse: string[];
}

/** The entry's file name, as the stack's handler setting (`index.handler`) names it. */
export const ENTRY_FILE = 'index.mjs';

/**
 * The code a cold start loads: the split build's entry and every chunk it imports statically, transitively, as keys
 * of `metafile.outputs` (paths from the bundling's working directory), the entry first; their inputs are the source
 * modules evaluated at import. After {@link mergeColdStartChunks} all of it is in the one file `index.mjs`. The
 * other `.mjs` outputs are the chunks reached only through `await import()`.
 */
export function staticOutputs(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((key) => basename(key) === ENTRY_FILE);
  if (!entry) return [];
  const loaded = new Set([entry]);
  for (const key of loaded)
    for (const imported of outputs[key]?.imports ?? [])
      if (imported.kind === 'import-statement' && outputs[imported.path]) loaded.add(imported.path);
  return [...loaded];
}

/**
 * Merges what a cold start loads into `index.mjs` (see the module comment), in place.
 * @param root the working directory of the split build (its metafile's paths are relative to it)
 * @param outputDir the split build's output directory (entry and chunks side by side, no subdirectory)
 * @param metafile the split build's metafile
 * @param target esbuild's `target` of the split build (the merge keeps it)
 * @returns the files a cold start loads and those loaded on first use
 * @throws esbuild's build failure, which would mean the split output does not bundle again (a bug here)
 */
export function mergeColdStartChunks(root: string, outputDir: string, metafile: Metafile, target: string): BundleFiles {
  const outputs = metafile.outputs;
  const [entry, ...chunks] = staticOutputs(metafile);
  const code = Object.keys(outputs).filter((key) => key.endsWith('.mjs'));
  const lazy = code.filter((key) => key !== entry && !chunks.includes(key)).map((key) => resolve(root, key));
  const entryFile = join(outputDir, ENTRY_FILE);
  if (!entry || chunks.length === 0) return { coldStart: [entryFile], onFirstUse: lazy };

  const alias = (i: number, name: string) => `__cold${i}_${name}`;
  const contents = [
    `export * from "./${ENTRY_FILE}";`,
    ...chunks.map((key, i) => {
      const names = outputs[key]?.exports ?? [];
      const file = `./${basename(key)}`;
      return names.length ? `export { ${names.map((n) => `${n} as ${alias(i, n)}`).join(', ')} } from "${file}";` : `import "${file}";`;
    }),
  ].join('\n');
  const merged = join(outputDir, 'index.cold-start.mjs');
  buildSync({
    stdin: { contents, resolveDir: outputDir, sourcefile: 'cold-start-entry.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target,
    minify: true,
    sourcemap: true,
    sourcesContent: BUNDLE_SOURCES_CONTENT,
    outfile: merged,
    external: lazy,
    logLevel: 'silent',
  });

  // The merged file becomes the entry (its map renamed with it, and the comment naming the map).
  const mapComment = /\/\/# sourceMappingURL=index\.cold-start\.mjs\.map\s*$/;
  const text = readFileSync(merged, 'utf8');
  writeFileSync(entryFile, text.replace(mapComment, `//# sourceMappingURL=${ENTRY_FILE}.map\n`));
  renameSync(`${merged}.map`, `${entryFile}.map`);
  rmSync(merged);

  // Each merged chunk becomes a stub for the lazy chunks that import it.
  const stubs = chunks.map((key, i) => {
    const file = resolve(root, key);
    const names = outputs[key]?.exports ?? [];
    writeFileSync(
      file,
      names.length
        ? `export { ${names.map((n) => `${alias(i, n)} as ${n}`).join(', ')} } from "./${ENTRY_FILE}";\n`
        : `import "./${ENTRY_FILE}";\n`,
    );
    rmSync(`${file}.map`, { force: true });
    return file;
  });
  return { coldStart: [entryFile], onFirstUse: [...lazy, ...stubs] };
}
