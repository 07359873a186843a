import type { z } from 'zod';
import { ApiError, invalidRequest } from '../domain/errors';

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
 * Turns the first zod issue into a 400 `invalid_request_error` naming the field
 * in `param` (dotted path, e.g. `billing.address.country`). Messages never echo
 * the offending value, so card numbers cannot leak through an error.
 * @param error the zod failure
 * @param input the value that was validated (to tell "missing" from "wrong type")
 */
export function apiErrorFromZod(error: z.ZodError, input: unknown, location: InputLocation): ApiError {
  const issue = error.issues[0];
  if (!issue) return invalidRequest('parameter_invalid', 'The request is invalid.');
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const param = [...path, issue.keys[0] ?? ''].join('.');
    const what = location === 'query' ? 'query parameter' : 'parameter';
    return invalidRequest('parameter_unknown', `Received unknown ${what}: ${param}. Remove it and retry.`, param);
  }
  const param = path.join('.') || undefined;
  const name = param ?? location;
  if (path.length > 0 && valueAt(input, issue.path) === undefined) {
    return invalidRequest('parameter_missing', `Missing required parameter: ${name}.`, param);
  }
  const last = path.at(-1) ?? '';
  const code = (Object.hasOwn(CARD_CODES, last) ? CARD_CODES[last] : undefined) ?? (issue.code === 'invalid_type' ? 'parameter_invalid_type' : 'parameter_invalid');
  let detail: string;
  if (issue.code === 'invalid_type') {
    detail = `must be ${describeType(String(issue.expected))}`;
  } else if (issue.code === 'invalid_value' && 'values' in issue) {
    detail = `must be one of ${issue.values.map(String).join(', ')}`;
  } else {
    detail = issue.message;
  }
  // A rule over the whole body (e.g. "exactly one of …") names its own API code through `params.apiCode`.
  const apiCode = issue.code === 'custom' ? (issue.params as { apiCode?: unknown } | undefined)?.apiCode : undefined;
  if (!param && location === 'body' && issue.code === 'custom') return invalidRequest(typeof apiCode === 'string' ? apiCode : 'parameter_invalid', `Invalid request: ${detail}.`);
  if (!param && location === 'body') return invalidRequest('parameter_invalid_type', 'The request body must be a JSON object.');
  return invalidRequest(typeof apiCode === 'string' ? apiCode : code, `Invalid ${name}: ${detail}.`, param);
}
