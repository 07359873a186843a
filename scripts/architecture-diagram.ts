/**
 * Writes the dependency diagrams of docs/architecture.md from the code, made by dependency-cruiser with the
 * project's rules (.dependency-cruiser.cjs):
 * - two Mermaid flowcharts inside the document: the layers (every folder of shared/ and functions/, one node each)
 *   and the capabilities (every folder of shared/operations/). Each goes between its `<!-- name:begin -->` /
 *   `<!-- name:end -->` markers; GitHub and most Markdown viewers render Mermaid themselves;
 * - the layers again as a picture, docs/architecture.svg: dependency-cruiser's Graphviz output (`--output-type dot`,
 *   which marks lazy `import()`s dashed and type-only imports with an open arrowhead) laid out by Graphviz compiled to
 *   WebAssembly (@viz-js/viz), so no Graphviz binary is needed on the machine that regenerates it. Graphviz lays out
 *   the same text the same way, so the file changes only when an arrow between folders does.
 *
 * `npm run docs:architecture` writes them; `npm run docs:architecture -- --check` exits 1 when a committed diagram
 * differs from a fresh generation (test/unit/architecture-diagram.test.ts runs the same check). The three
 * dependency-cruiser runs go in parallel.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One diagram: its marker name and the dependency-cruiser arguments that draw it. */
interface Diagram {
  name: string;
  args: string[];
}

/** The diagrams, in the order the document shows them. */
export const DIAGRAMS: readonly Diagram[] = [
  {
    name: 'layers',
    args: ['--collapse', '^(shared/[^/]+|functions)', '--include-only', '^(shared|functions)/', 'shared', 'functions'],
  },
  {
    name: 'capabilities',
    args: ['--collapse', '^shared/operations/[^/]+', '--include-only', '^shared/operations/', 'shared/operations'],
  },
];

/** The output of dependency-cruiser, run with the project's rules from the repository at `root`. */
async function depcruise(root: string, args: readonly string[]): Promise<string> {
  const bin = join(root, 'node_modules', '.bin', 'depcruise');
  const { stdout } = await run(bin, ['--config', '.dependency-cruiser.cjs', '--no-progress', ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The Mermaid text of one diagram, from the repository at `root`. */
export async function drawDiagram(root: string, diagram: Diagram): Promise<string> {
  return (await depcruise(root, ['--output-type', 'mermaid', ...diagram.args])).trimEnd();
}

/**
 * The picture of the layers ({@link DIAGRAMS}' `layers`) as SVG: dependency-cruiser's Graphviz text, its links
 * prefixed with `../` so that they lead from docs/ to the folders, laid out by Graphviz's `dot` engine.
 */
export async function drawLayersSvg(root: string): Promise<string> {
  const layers = DIAGRAMS.find((d) => d.name === 'layers');
  if (!layers) throw new Error('no layers diagram');
  const dot = await depcruise(root, ['--output-type', 'dot', '--prefix', '../', ...layers.args]);
  const { instance } = await import('@viz-js/viz');
  return (await instance()).renderString(dot, { format: 'svg', engine: 'dot' });
}

/**
 * The document with every diagram replaced by the given drawings.
 * @param drawings Mermaid text by diagram name
 * @throws Error when a diagram's markers are missing from the document
 */
export function withDiagrams(document: string, drawings: ReadonlyMap<string, string>): string {
  let next = document;
  for (const diagram of DIAGRAMS) {
    const begin = `<!-- ${diagram.name}:begin -->`;
    const end = `<!-- ${diagram.name}:end -->`;
    const from = next.indexOf(begin);
    const to = next.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/architecture.md: markers ${begin} … ${end} are missing`);
    const body = `${begin}\n\`\`\`mermaid\n${drawings.get(diagram.name) ?? ''}\n\`\`\`\n`;
    next = next.slice(0, from) + body + next.slice(to);
  }
  return next;
}

/**
 * Fresh drawings of everything: the document with its Mermaid diagrams redrawn, and the SVG.
 * @param document the document as it is now (its prose is kept)
 */
export async function freshDiagrams(root: string, document: string): Promise<{ document: string; svg: string }> {
  const [svg, ...mermaid] = await Promise.all([drawLayersSvg(root), ...DIAGRAMS.map((d) => drawDiagram(root, d))]);
  const drawings = new Map(DIAGRAMS.map((d, i) => [d.name, mermaid[i] ?? '']));
  return { document: withDiagrams(document, drawings), svg };
}

/** The architecture document's path under `root`. */
export const ARCHITECTURE_DOC = join('docs', 'architecture.md');

/** The layers' picture, under `root`. */
export const ARCHITECTURE_SVG = join('docs', 'architecture.svg');

async function main(): Promise<void> {
  const root = process.cwd();
  const docPath = join(root, ARCHITECTURE_DOC);
  const svgPath = join(root, ARCHITECTURE_SVG);
  const current = { document: readFileSync(docPath, 'utf8'), svg: existsSync(svgPath) ? readFileSync(svgPath, 'utf8') : '' };
  const fresh = await freshDiagrams(root, current.document);
  if (process.argv.includes('--check')) {
    const stale = [
      ...(fresh.document !== current.document ? [ARCHITECTURE_DOC] : []),
      ...(fresh.svg !== current.svg ? [ARCHITECTURE_SVG] : []),
    ];
    if (stale.length) {
      console.error(`${stale.join(' and ')} ${stale.length > 1 ? 'are' : 'is'} stale: run npm run docs:architecture`);
      process.exit(1);
    }
    console.log(`${ARCHITECTURE_DOC} and ${ARCHITECTURE_SVG} are up to date.`);
    return;
  }
  writeFileSync(docPath, fresh.document);
  writeFileSync(svgPath, fresh.svg);
  console.log(`wrote ${ARCHITECTURE_DOC} and ${ARCHITECTURE_SVG}`);
}

// Run only as the script (`tsx scripts/architecture-diagram.ts`, from the repository root), not when a test imports it.
if (/[\\/]scripts[\\/]architecture-diagram\.ts$/.test(process.argv[1] ?? '')) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
