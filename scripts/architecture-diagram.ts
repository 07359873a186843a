/**
 * Writes the two dependency diagrams of docs/architecture.md from the code, as Mermaid flowcharts made by
 * dependency-cruiser with the project's rules (.dependency-cruiser.cjs): the layers (every folder of shared/ and
 * functions/, one node each) and the capabilities (every folder of shared/operations/). Each goes between its
 * `<!-- name:begin -->` / `<!-- name:end -->` markers. Mermaid, rendered by GitHub and most Markdown viewers, needs
 * no Graphviz on the machine that regenerates it.
 *
 * `npm run docs:architecture` writes them; `npm run docs:architecture -- --check` exits 1 when the committed
 * diagrams differ from a fresh generation (test/unit/architecture-diagram.test.ts runs the same check).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** The Mermaid text of one diagram, from the repository at `root`. */
export function drawDiagram(root: string, diagram: Diagram): string {
  const bin = join(root, 'node_modules', '.bin', 'depcruise');
  const out = execFileSync(bin, ['--config', '.dependency-cruiser.cjs', '--no-progress', '--output-type', 'mermaid', ...diagram.args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.trimEnd();
}

/**
 * The document with every diagram replaced by a fresh drawing.
 * @throws Error when a diagram's markers are missing from the document
 */
export function withFreshDiagrams(root: string, document: string): string {
  let next = document;
  for (const diagram of DIAGRAMS) {
    const begin = `<!-- ${diagram.name}:begin -->`;
    const end = `<!-- ${diagram.name}:end -->`;
    const from = next.indexOf(begin);
    const to = next.indexOf(end);
    if (from < 0 || to < from) throw new Error(`docs/architecture.md: markers ${begin} … ${end} are missing`);
    const body = `${begin}\n\`\`\`mermaid\n${drawDiagram(root, diagram)}\n\`\`\`\n`;
    next = next.slice(0, from) + body + next.slice(to);
  }
  return next;
}

/** The architecture document's path under `root`. */
export const ARCHITECTURE_DOC = join('docs', 'architecture.md');

function main(): void {
  const root = process.cwd();
  const path = join(root, ARCHITECTURE_DOC);
  const current = readFileSync(path, 'utf8');
  const fresh = withFreshDiagrams(root, current);
  if (process.argv.includes('--check')) {
    if (fresh !== current) {
      console.error(`${ARCHITECTURE_DOC} is stale: run npm run docs:architecture`);
      process.exit(1);
    }
    console.log(`${ARCHITECTURE_DOC} is up to date.`);
    return;
  }
  writeFileSync(path, fresh);
  console.log(`wrote ${ARCHITECTURE_DOC}`);
}

// Run only as the script (`tsx scripts/architecture-diagram.ts`, from the repository root), not when a test imports it.
if (/[\\/]scripts[\\/]architecture-diagram\.ts$/.test(process.argv[1] ?? '')) main();
