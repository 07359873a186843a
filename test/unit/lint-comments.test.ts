import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { commentRanges, deadLinks, deadReferences, issueReferences } from '../../scripts/lint-comments';

const parse = (text: string) => ts.createSourceFile('a.ts', text, ts.ScriptTarget.Latest, true);
const issues = (text: string) => issueReferences('a.ts', text, commentRanges(parse(text))).map((f) => f.message);

/** The words the check looks for, kept apart so that this file does not carry an issue number itself. */
const ISSUE = 'issue';
const ISSUES = 'Issues';

describe('scripts/lint-comments.ts (npm run lint:comments)', () => {
  test('issue numbers: "issue NN" in comments and strings, "#NN" in comments; an outside issue cited by URL passes', () => {
    expect(issues(`// Loaded on first use (${ISSUE} 27).\nconst a = 1;`)).toEqual([expect.stringContaining(`"${ISSUE} 27"`)]);
    expect(issues(`test('lists (${ISSUES} 24 and 25)', () => {});`)).toEqual([expect.stringContaining(`"${ISSUES} 24"`)]);
    expect(issues('/** Fixed in #34. */\nexport const b = 2;')).toEqual([expect.stringContaining('"#34"')]);
    expect(issues("const css = 'color: #888';\n// see github.com/stripe/stripe-react-native/issues/1170\n")).toEqual([]);
    expect(issues('/** The convergence bound (docs/money-safety.md, "Convergence"). */\nexport const c = 3;')).toEqual([]);
  });

  test('dead paths and doc sections in comments; placeholders, other packages and .js files are not checked', () => {
    const text =
      '/** shared/domain/money.ts, shared/gone.ts, shared/domain/, ./lint-comments.ts, ./gone.ts, shared/x.ts,\n' +
      ' * credit-card-type/lib/find-best-match.ts, lib/security.js, docs/api.md "Errors", docs/api.md, "Nope" */';
    const found = deadReferences(process.cwd(), 'scripts/a.ts', text, [[0, text.length]], (doc) =>
      doc === 'docs/api.md' ? ['Errors', 'Payments'] : undefined,
    );
    expect(found.map((f) => [f.line, f.message])).toEqual([
      [1, 'no such path: shared/gone.ts'],
      [1, 'no such path: ./gone.ts (scripts/gone.ts)'],
      [2, 'docs/api.md has no section "Nope"'],
    ]);
  });

  test('dead {@link}s: names the checker cannot resolve; URLs are not links to resolve', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lint-comments-'));
    try {
      const file = join(dir, 'a.ts');
      writeFileSync(
        file,
        '/** {@link Foo}, {@link Foo.bar}, {@link Foo#bar}, {@link https://example.com/x}, {@link Gone}, {@link Foo.gone}. */\n' +
          'export class Foo {\n  bar = 1;\n}\n',
      );
      const program = ts.createProgram([file], { noEmit: true, noLib: true, types: [] });
      const found = deadLinks('a.ts', program.getSourceFile(file)!, program.getTypeChecker());
      expect(found.map((f) => f.message)).toEqual(['dead link: {@link Gone}', 'dead link: {@link Foo.gone}']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
