import type * as z from 'zod';
import { type ApiError, invalidRequest } from '../domain/errors';

/** Where a validated value came from; decides the wording and the status of a failure. */
export type InputLocation = 'body' | 'query' | 'path';

const CARD_CODES: Record<string, string> = {
  card_number: 'invalid_number',
  card_exp_month: 'invalid_expiry_month',
  card_exp_year: 'invalid_expiry_year',
  card_cvc: 'invalid_cvc',
};

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describeType(expected: string): string {
  switch (expected) {
    case 'int':
    case 'number':
      return 'an integer';
    case 'object':
    case 'record':
      return 'an object';
    default:
      return `a ${expected}`;
  }
}

/**
 * A caller-supplied name (a body key, a metadata key, a query-parameter name) is repeated in an
 * error only when it is plainly a field name: 1–64 ASCII letters, digits, `_`, `-`, `[` or `]`,
 * starting with a letter or `_`, with fewer than 12 digits in all. The shortest card number has
 * 12 digits, so a name that passes cannot hold one however its digits are separated; any other
 * name is not repeated (the error names the nearest enclosing field instead). Array indices are
 * ours and always shown.
 */
const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_[\]-]{0,63}$/;

/** Whether a caller-supplied name may be repeated in an error message (see {@link SAFE_NAME}). */
export function isEchoableName(name: PropertyKey): boolean {
  if (typeof name === 'number') return true;
  if (typeof name !== 'string') return false;
  return SAFE_NAME.test(name) && (name.match(/[0-9]/g)?.length ?? 0) < 12;
}

/**
 * The dotted path of an issue as far as it can be shown: segments up to (not including) the
 * first one that is not {@link isEchoableName}. `complete` tells whether every segment was shown.
 */
function shownPath(path: readonly PropertyKey[]): { segments: string[]; complete: boolean } {
  const segments: string[] = [];
  for (const segment of path) {
    if (!isEchoableName(segment)) return { segments, complete: false };
    segments.push(String(segment));
  }
  return { segments, complete: true };
}

/**
 * Turns the first zod issue into a 400 `invalid_request_error` naming the field
 * in `param` (dotted path, e.g. `billing.address.country`). Messages never echo
 * the offending value, and repeat a caller-chosen name (an unknown parameter, a
 * metadata key) only when {@link isEchoableName} allows it; otherwise they name
 * the nearest enclosing field, so card numbers cannot leak through an error.
 * @param error the zod failure
 * @param input the value that was validated (to tell "missing" from "wrong type")
 */
export function apiErrorFromZod(error: z.ZodError, input: unknown, location: InputLocation): ApiError {
  const issue = error.issues[0];
  if (!issue) return invalidRequest('parameter_invalid', 'The request is invalid.');
  const shown = shownPath(issue.path);
  const path = shown.segments;
  const what = location === 'query' ? 'query parameter' : 'parameter';
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys.find((k) => isEchoableName(k));
    if (shown.complete && key !== undefined) {
      const param = [...path, key].join('.');
      return invalidRequest('parameter_unknown', `Received unknown ${what}: ${param}. Remove it and retry.`, param);
    }
    const parent = path.join('.') || undefined;
    const where = parent ? ` inside ${parent}` : '';
    return invalidRequest(
      'parameter_unknown',
      `Received an unknown ${what}${where} (its name is not repeated here: it is not a plain field name). Remove it and retry; docs/api.md lists the accepted parameters.`,
      parent,
    );
  }
  const param = path.join('.') || undefined;
  const name = param ?? (location === 'query' ? 'query string' : location === 'path' ? 'path' : 'request body');
  if (shown.complete && path.length > 0 && valueAt(input, issue.path) === undefined) {
    return invalidRequest('parameter_missing', `Missing required parameter: ${name}.`, param);
  }
  const last = shown.complete ? (path.at(-1) ?? '') : '';
  const code =
    (Object.hasOwn(CARD_CODES, last) ? CARD_CODES[last] : undefined) ??
    (issue.code === 'invalid_type' ? 'parameter_invalid_type' : 'parameter_invalid');
  let detail: string;
  if (issue.code === 'invalid_type') {
    detail = `must be ${describeType(String(issue.expected))}`;
  } else if (issue.code === 'invalid_value' && 'values' in issue) {
    detail = `must be one of ${issue.values.map(String).join(', ')}`;
  } else if (issue.code === 'invalid_key') {
    // A record key (e.g. of metadata) failed its own rule: that rule's message says what is wrong.
    detail = issue.issues[0]?.message ?? 'this key is not accepted';
  } else {
    detail = issue.message;
  }
  // The issue is about an entry whose caller-chosen name cannot be shown: say so, under the enclosing field.
  if (!shown.complete)
    detail = issue.code === 'invalid_key' ? `one of its keys is not accepted (${detail})` : `one of its entries is invalid (${detail})`;
  // A rule over the whole body (e.g. "exactly one of …") names its own API code through `params.apiCode`.
  const apiCode = issue.code === 'custom' ? (issue.params as { apiCode?: unknown } | undefined)?.apiCode : undefined;
  if (!param && location === 'body' && issue.code === 'custom' && shown.complete)
    return invalidRequest(typeof apiCode === 'string' ? apiCode : 'parameter_invalid', `Invalid request: ${detail}.`);
  if (!param && location === 'body' && shown.complete)
    return invalidRequest('parameter_invalid_type', 'The request body must be a JSON object.');
  return invalidRequest(typeof apiCode === 'string' ? apiCode : code, `Invalid ${name}: ${detail}.`, param);
}
