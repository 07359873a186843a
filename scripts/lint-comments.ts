/**
 * `npm run lint:comments` (part of `npm run lint`): what comments and docstrings may not carry.
 *
 * - **Issue numbers** ("issue", "Issues" or "issue #" followed by a number, and in comments a bare "#" and a number): history belongs to git, so
 *   a comment says the reason or cites the document that holds it (docs/STANDARDS: "no issue numbers in code or
 *   docstrings"). Checked in the whole text of every code file (a test's title is a string). An outside project's
 *   issue is cited by its URL (`github.com/owner/repo/issues/123`), which this does not match.
 * - **Dead links**: an inline `@link`, `@linkcode` or `@linkplain` tag whose name the TypeScript checker
 *   resolves to nothing (the TypeScript compiler API: the same resolution an editor's go-to-definition uses);
 *   a tag whose target is an `https:` URL is not resolved.
 * - **Dead paths**: a repository path in a comment (`shared/…/x.ts`, `docs/x.md`, `./x.ts`, a folder ending in `/`)
 *   that does not exist.
 * - **Dead doc sections**: `docs/x.md "Heading"` (or `docs/x.md, "Heading"`) where no heading of that document starts
 *   with the quoted text.
 *
 * Files: every tracked code file (`.ts`, `.js`, `.cjs`, `.mjs`) under {@link CHECKED_ROOTS}, plus the tracked code and
 * config files at the top level. Prints one line per finding (`path:line: what`) and exits 1 when there is any.
 * `npx tsx scripts/lint-comments.ts shared/domain test` checks only those folders.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** The folders whose code files are checked. */
export const CHECKED_ROOTS = ['shared', 'functions', 'lib', 'scripts', 'clients', 'bin', 'test', 'examples', 'canaries'] as const;

/** Code files, by extension. */
const CODE_FILE = /\.(ts|tsx|js|cjs|mjs)$/;
/** Top-level files checked for issue numbers as well (configuration with comments). */
const TOP_LEVEL_FILE = /^[^/]+\.(ts|js|cjs|mjs|jsonc)$/;

/** One thing a comment must not carry. */
export interface Finding {
  /** Repository-relative path. */
  path: string;
  /** 1-based line. */
  line: number;
  /** What is wrong, naming the text found. */
  message: string;
}

/** "issue" (or "Issues") then a number, after a space, a hyphen or "#"; not "issues/" then a number (a URL). */
const ISSUE_WORD = /\b[Ii]ssues?[ -]?#?\d+/g;
/** "#34" after a space or an opening bracket: a bare issue number (comments only: CSS colours are strings). */
const HASH_NUMBER = /(?<=^|[\s([])#\d+\b/g;
/**
 * A repository path: one of the checked roots or docs/, then a TypeScript, Markdown, JSON, CommonJS, YAML or SVG file,
 * or a folder ending in `/`. Not `.js`/`.mjs`: those are other packages' files (`lib/security.js` of a processor's
 * SDK) or bundles; this repository's code is TypeScript. Another package's file is cited with the package's name in
 * front (`credit-card-type/lib/find-best-match.ts`), which this does not match.
 */
const REPO_PATH = /(?<![\w./@-])(?:shared|functions|lib|scripts|clients|bin|test|examples|canaries|docs)\/[\w@./-]*/g;
/** The files {@link REPO_PATH} checks, by how their path ends. */
const CHECKED_PATH_END = /(\.(ts|md|json|cjs|yaml|yml|svg)|\/)$/;
/** A path relative to the file: `./x.ts`, `../x/x.ts`. */
const RELATIVE_PATH = /(?<![\w./@-])(\.\.?\/[\w@./-]*\.(?:ts|md|json|cjs))\b/g;
/** An example name, not a file: `x.ts`, `shared/x.ts`. */
const PLACEHOLDER = /(^|\/)x\.\w+$/;
/** `docs/x.md "Heading"` or `docs/x.md, "Heading"` (straight or curly quotes). */
const DOC_SECTION = /\b(docs\/[\w/-]+\.md),? ["“]([^"”\n]+)["”]/g;

/** The 1-based line of `offset` in `text`. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * Issue-number references in a file's text: "issue NN" anywhere, "#NN" inside the given comment ranges.
 * @param comments `[start, end)` offsets of the file's comments
 */
export function issueReferences(path: string, text: string, comments: readonly (readonly [number, number])[]): Finding[] {
  const found: Finding[] = [];
  for (const m of text.matchAll(ISSUE_WORD)) {
    found.push({ path, line: lineOf(text, m.index), message: `issue number "${m[0]}": say the reason or cite the document instead` });
  }
  for (const [start, end] of comments) {
    for (const m of text.slice(start, end).matchAll(HASH_NUMBER)) {
      found.push({
        path,
        line: lineOf(text, start + m.index),
        message: `issue number "${m[0]}": say the reason or cite the document instead`,
      });
    }
  }
  return found;
}

/** The `[start, end)` offsets of every comment of a parsed file. */
export function commentRanges(sourceFile: ts.SourceFile): [number, number][] {
  const text = sourceFile.getFullText();
  const seen = new Map<number, number>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, r.end);
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(sourceFile)) visit(child);
  };
  visit(sourceFile);
  return [...seen.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * The paths and doc sections named in a file's comments that do not exist.
 * @param root the repository's root, absolute
 * @param headings a document's headings (text after the `#`s), by repository-relative path
 */
export function deadReferences(
  root: string,
  path: string,
  text: string,
  comments: readonly (readonly [number, number])[],
  headings: (docPath: string) => string[] | undefined,
): Finding[] {
  const found: Finding[] = [];
  for (const [start, end] of comments) {
    const comment = text.slice(start, end);
    const at = (index: number) => lineOf(text, start + index);
    for (const m of comment.matchAll(REPO_PATH)) {
      const target = m[0].replace(/\.+$/, '');
      if (!CHECKED_PATH_END.test(target) || PLACEHOLDER.test(target)) continue;
      if (!existsSync(join(root, target))) found.push({ path, line: at(m.index), message: `no such path: ${target}` });
    }
    for (const m of comment.matchAll(RELATIVE_PATH)) {
      if (PLACEHOLDER.test(m[1]!)) continue;
      const target = join(dirname(join(root, path)), m[1]!);
      if (!existsSync(target)) found.push({ path, line: at(m.index), message: `no such path: ${m[1]} (${relative(root, target)})` });
    }
    for (const m of comment.matchAll(DOC_SECTION)) {
      const docHeadings = headings(m[1]!);
      if (docHeadings === undefined) continue; // reported as a dead path
      const section = m[2]!;
      if (!docHeadings.some((h) => h.startsWith(section))) {
        found.push({ path, line: at(m.index), message: `${m[1]} has no section "${section}"` });
      }
    }
  }
  return found;
}

/**
 * Inline link tags (`@link`, `@linkcode`, `@linkplain`) whose name resolves to no symbol.
 * @param checker a type checker of a program that holds `sourceFile`
 */
export function deadLinks(path: string, sourceFile: ts.SourceFile, checker: ts.TypeChecker): Finding[] {
  const found: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isJSDocLink(node) || ts.isJSDocLinkCode(node) || ts.isJSDocLinkPlain(node)) {
      const name = node.name;
      const isUrl = name !== undefined && ts.isIdentifier(name) && /^https?$/.test(name.text) && node.text.startsWith('://');
      if (!isUrl && (name === undefined || !resolves(name, checker))) {
        const line = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
        found.push({ path, line, message: `dead link: ${node.getText(sourceFile)}` });
      }
    }
    ts.forEachChild(node, visit);
    for (const doc of (node as { jsDoc?: ts.Node[] }).jsDoc ?? []) visit(doc);
  };
  visit(sourceFile);
  return found;
}

/** Whether a link's name names a symbol: `X`, `X.y`, or `X#y` (a member of X's instances). */
function resolves(name: ts.EntityName | ts.JSDocMemberName, checker: ts.TypeChecker): boolean {
  if (checker.getSymbolAtLocation(name)) return true;
  if (ts.isJSDocMemberName(name)) {
    const owner = checker.getSymbolAtLocation(name.left);
    if (!owner) return false;
    const member = name.right.text;
    const target = owner.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(owner) : owner;
    return Boolean(target.members?.has(member as ts.__String) || target.exports?.has(member as ts.__String));
  }
  return false;
}

/** The headings of a Markdown document (the text after the `#`s), or undefined when it does not exist. */
function markdownHeadings(root: string): (docPath: string) => string[] | undefined {
  const cache = new Map<string, string[] | undefined>();
  return (docPath) => {
    if (!cache.has(docPath)) {
      const file = join(root, docPath);
      cache.set(
        docPath,
        existsSync(file)
          ? readFileSync(file, 'utf8')
              .split('\n')
              .filter((l) => /^#{1,6} /.test(l))
              .map((l) => l.replace(/^#+ /, '').trim())
          : undefined,
      );
    }
    return cache.get(docPath);
  };
}

/** Tracked files to check: code files under `roots`, and the top-level ones when all roots are checked. */
export function filesToCheck(root: string, roots: readonly string[], topLevel: boolean): string[] {
  const tracked = execFileSync('git', ['ls-files', '-z', '--', ...roots, ...(topLevel ? ['.'] : [])], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  return tracked.filter((f) => (CODE_FILE.test(f) && roots.some((r) => f.startsWith(`${r}/`))) || (topLevel && TOP_LEVEL_FILE.test(f)));
}

/** Every finding in `files` (repository-relative), links resolved by one program over the TypeScript ones. */
export function checkFiles(root: string, files: readonly string[]): Finding[] {
  const program = ts.createProgram(
    files.filter((f) => /\.tsx?$/.test(f)).map((f) => join(root, f)),
    {
      noEmit: true,
      allowJs: false,
      skipLibCheck: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      resolveJsonModule: true,
      types: ['node', 'jest'],
    },
  );
  const checker = program.getTypeChecker();
  const headings = markdownHeadings(root);
  const findings: Finding[] = [];
  for (const path of files) {
    const absolute = join(root, path);
    const text = readFileSync(absolute, 'utf8');
    const sourceFile =
      program.getSourceFile(absolute) ??
      ts.createSourceFile(absolute, text, ts.ScriptTarget.Latest, true, path.endsWith('.jsonc') ? ts.ScriptKind.JSON : ts.ScriptKind.JS);
    const comments = path.endsWith('.jsonc') ? [] : commentRanges(sourceFile);
    findings.push(...issueReferences(path, text, comments));
    findings.push(...deadReferences(root, path, text, comments, headings));
    if (program.getSourceFile(absolute)) findings.push(...deadLinks(path, sourceFile, checker));
  }
  return findings;
}

function main(): void {
  const root = process.cwd();
  const args = process.argv.slice(2);
  const roots = args.length ? args.map((a) => a.replace(/\/+$/, '')) : [...CHECKED_ROOTS];
  const findings = checkFiles(root, filesToCheck(root, roots, args.length === 0));
  for (const f of findings) console.error(`${f.path}:${f.line}: ${f.message}`);
  if (findings.length) {
    console.error(`${findings.length} comment finding(s).`);
    process.exit(1);
  }
}

// Run only as the script, not when a test imports it.
if (/[\\/]scripts[\\/]lint-comments\.ts$/.test(process.argv[1] ?? '')) main();
