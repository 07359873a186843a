import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces mapped back to the TypeScript sources, on demand. The Lambda functions run without
 * `--enable-source-maps` (lib/function-runtime.ts): with it, Node reads and decodes the whole
 * `index.mjs.map` before the handler module runs, on every cold start. Here the map next to the
 * bundle is read the first time the logger formats an error ({@link sourceMappedError}), once per
 * execution environment, and only frames in files under `LAMBDA_TASK_ROOT` (the function's code)
 * are rewritten. Outside Lambda (tests, local gateway, scripts) nothing is changed.
 */

/** Decoded maps by generated file path; `null` when the file has no readable map. */
const maps = new Map<string, SourceMap | null>();

function sourceMapOf(file: string): SourceMap | undefined {
  let map = maps.get(file);
  if (map === undefined) {
    map = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      // No map deployed (or unreadable): the frame stays as it is.
    }
    maps.set(file, map);
  }
  return map ?? undefined;
}

/** `../../asset-input/shared/x.ts` → `shared/x.ts`; `…/node_modules/zod/…` → `node_modules/zod/…`. */
function displaySource(source: string): string {
  const path = source.startsWith('file://') ? fileURLToPath(source) : source;
  const known = /(?:^|\/)((?:node_modules|shared|functions|lib)\/.*)$/.exec(path);
  return known?.[1] ?? path.replace(/^(?:\.\.?\/)+/, '');
}

/** A frame location `file:///var/task/index.mjs:1:2345` (or a plain path) inside `root`, mapped; undefined when it cannot be. */
function mapLocation(location: string, line: string, column: string, root: string): string | undefined {
  let file: string;
  try {
    file = location.startsWith('file://') ? fileURLToPath(location) : location;
  } catch {
    return undefined;
  }
  const inside = relative(root, file);
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  const entry = sourceMapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1) as
    | { originalSource?: string; originalLine?: number; originalColumn?: number }
    | undefined;
  if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
  return `${displaySource(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

/**
 * A V8 stack trace with every frame in the function's own code (`LAMBDA_TASK_ROOT`) pointing at
 * its original source, line and column (`at Kx (shared/operations/refunds/refund-operations.ts:88:11)`),
 * as `--enable-source-maps` would print it; frames elsewhere, and every frame when
 * `LAMBDA_TASK_ROOT` is unset or no map is found, are left as they are.
 * @param stack `error.stack`
 * @param root the directory whose files are mapped; default `LAMBDA_TASK_ROOT`
 */
export function sourceMappedStack(stack: string, root: string | undefined = process.env.LAMBDA_TASK_ROOT): string {
  if (!root) return stack;
  return stack.replace(
    /((?:file:\/\/)?\/[^\s():]+):(\d+):(\d+)/g,
    (whole, location: string, line: string, column: string) => mapLocation(location, line, column, root) ?? whole,
  );
}

/**
 * The error as the logger should format it: when its stack (or its `cause`'s) maps to the sources
 * ({@link sourceMappedStack}), a copy with the same prototype, own properties and cause chain and
 * the mapped `stack`; otherwise the error itself. The original error is never modified.
 * @param depth cause levels still followed (guards against cycles)
 */
export function sourceMappedError(error: Error, depth = 5): Error {
  if (!process.env.LAMBDA_TASK_ROOT || depth <= 0) return error;
  const stack = typeof error.stack === 'string' ? sourceMappedStack(error.stack) : error.stack;
  const cause = error.cause instanceof Error ? sourceMappedError(error.cause, depth - 1) : error.cause;
  if (stack === error.stack && cause === error.cause) return error;
  const copy = Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error)) as Error;
  Object.defineProperty(copy, 'stack', { value: stack, writable: true, configurable: true, enumerable: false });
  if (cause !== error.cause) Object.defineProperty(copy, 'cause', { value: cause, writable: true, configurable: true, enumerable: false });
  return copy;
}
