/** The API's error body, read by both the errors (to type them) and the retry policy (to judge a 409/503 by its code). */

/** The `error` object of the API's error body (`shared/domain/errors.ts`): `{"error": {type, code, message, param?}}`. */
export interface ErrorEnvelope {
  type: string;
  code: string;
  message: string;
  /** The request field the error is about, when the API names one. */
  param?: string;
}

/**
 * The API's error object when `body` is `{"error": {type, code, message, param?}}`, else undefined
 * (a proxy's or gateway's answer, an empty body, text).
 * @param body a parsed response body, of any shape
 */
export function errorEnvelope(body: unknown): ErrorEnvelope | undefined {
  const e = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  if (typeof e !== 'object' || e === null) return undefined;
  if (typeof e.type !== 'string' || typeof e.code !== 'string' || typeof e.message !== 'string') return undefined;
  return { type: e.type, code: e.code, message: e.message, ...(typeof e.param === 'string' ? { param: e.param } : {}) };
}
