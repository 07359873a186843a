import { MIMEType } from 'node:util';
import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ApiError, invalidRequest } from '../domain/errors';
import { isWellFormedText, WELL_FORMED_TEXT_MESSAGE } from '../domain/well-formed-text';
import { isEchoableName } from '../schemas/zod-errors';

/** Largest accepted request body: 64 KiB (decoded). */
export const MAX_BODY_BYTES = 64 * 1024;

function bodyBytes(event: APIGatewayProxyEventV2): number {
  if (!event.body) return 0;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body, 'utf8');
}

/**
 * Rejects bodies over {@link MAX_BODY_BYTES} with 413 `body_too_large`.
 * Runs before authentication so an oversized request costs no read.
 */
export function bodySizeLimit(): MiddlewareObj<APIGatewayProxyEventV2> {
  return {
    before: async (request) => {
      if (bodyBytes(request.event) > MAX_BODY_BYTES) {
        throw new ApiError(
          413,
          'invalid_request_error',
          'body_too_large',
          `The request body is larger than ${MAX_BODY_BYTES} bytes (64 KiB). Send a smaller body.`,
        );
      }
    },
  };
}

/** A `content-type` header value read as a media type (RFC 9110 §8.3.1). */
export interface MediaType {
  /** `type/subtype`, lower-cased (type and subtype are case-insensitive). */
  essence: string;
  /** The `charset` parameter, lower-cased, when one is given. */
  charset?: string;
}

/**
 * Parses a `content-type` value with Node's WHATWG MIME type parser (`util.MIMEType`), which accepts what
 * RFC 9110 §8.3.1 allows: `type "/" subtype *( OWS ";" OWS [ parameter ] )`, type, subtype and parameter
 * names case-insensitive, quoted parameter values. `Application/JSON`, `application/json ; charset=utf-8`
 * and `application/json;` all read as `application/json`.
 * @returns undefined when the header is absent or not one media type (e.g. two joined by a comma)
 */
export function parseMediaType(header: string | undefined): MediaType | undefined {
  if (header === undefined) return undefined;
  let parsed: MIMEType;
  try {
    parsed = new MIMEType(header);
  } catch {
    return undefined;
  }
  const charset = parsed.params.get('charset');
  return { essence: parsed.essence, ...(charset !== null ? { charset: charset.toLowerCase() } : {}) };
}

/**
 * Whether a `charset` label names UTF-8, resolved as browsers resolve labels (WHATWG Encoding Standard,
 * through `TextDecoder`): `utf-8`, `UTF8`, `unicode-1-1-utf-8`… An absent charset means UTF-8 for JSON
 * (RFC 8259 §8.1) and for forms (HTML's urlencoded serializer).
 */
export function isUtf8Charset(charset: string | undefined): boolean {
  if (charset === undefined) return true;
  try {
    return new TextDecoder(charset).encoding === 'utf-8';
  } catch {
    return false; // not an encoding label at all
  }
}

/** JSON media types: `application/json` and any `+json` structured syntax suffix (RFC 6839 §3.1). */
export function isJsonMediaType(type: MediaType | undefined): boolean {
  if (!type) return false;
  const [kind, subtype = ''] = type.essence.split('/');
  return kind === 'application' && (subtype === 'json' || subtype.endsWith('+json'));
}

const unsupportedMediaType = () =>
  new ApiError(
    415,
    'invalid_request_error',
    'unsupported_media_type',
    'Send the body as JSON with the header content-type: application/json (UTF-8).',
  );

const invalidJson = () =>
  new ApiError(
    400,
    'invalid_request_error',
    'invalid_json',
    'The request body is not valid UTF-8 JSON. Check for trailing commas, unquoted keys or truncated content.',
  );

/** Strict UTF-8 (a malformed byte is an error, not U+FFFD); a leading byte order mark is dropped (RFC 8259 §8.1 allows ignoring it). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a JSON body. The media type is read per RFC 9110 ({@link parseMediaType}): any JSON type
 * ({@link isJsonMediaType}) in any letter case, with or without parameters, is accepted; another type,
 * a missing one, or a charset other than UTF-8 answers 415 `unsupported_media_type`. A base64 body
 * (`isBase64Encoded`, as API Gateway HTTP APIs deliver any body they do not take for text) is decoded
 * first, and must be UTF-8. The text is then parsed by middy's official parser; malformed JSON is
 * mapped to 400 `invalid_json` by the error mapper. An absent or empty body is taken as `{}` (so
 * `POST /payments/{id}/cancel` needs none). No error repeats the body or the header.
 */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEventV2> {
  // The media type is checked here (middy's own check is a case-sensitive pattern). The option exists in
  // the parser (index.js defaults) but not in its type declarations.
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]);
  return {
    before: async (request) => {
      const event = request.event;
      const { body } = event;
      if (body === undefined || body === null || body === '') {
        (event as { body: unknown }).body = {};
        return;
      }
      const type = parseMediaType(event.headers?.['content-type']);
      if (!isJsonMediaType(type) || !isUtf8Charset(type?.charset)) throw unsupportedMediaType();
      if (event.isBase64Encoded) {
        let text: string;
        try {
          text = utf8.decode(Buffer.from(String(body), 'base64'));
        } catch {
          throw invalidJson();
        }
        // The body is text from here on; say so, so nothing decodes it a second time.
        event.body = text;
        event.isBase64Encoded = false;
      }
      await parser.before?.(request as never);
      const bad = illFormedStringIn(event.body);
      if (bad) throw illFormedTextError(bad);
    },
  };
}

/** Where {@link illFormedStringIn} found a string holding NUL or a lone surrogate. */
export interface IllFormedString {
  /** The path to the value (keys and array indices); for a key, the path to the object holding it. */
  path: PropertyKey[];
  /** Whether the string is a key (a property name) rather than a value. */
  isKey: boolean;
}

/**
 * Finds the first string, value or property name, anywhere in a parsed JSON body that holds NUL
 * (U+0000) or a UTF-16 surrogate not in a pair (shared/schemas/common.ts `WELL_FORMED_TEXT`; JSON's
 * `\u0000` and `\ud800` escapes make them). This one walk covers every field of every body, those
 * an endpoint's schema reads and those it would refuse as unknown, before validation, so none is
 * ever stored or sent out in an event or a webhook. Iterative: a deeply nested body (64 KiB of `[`)
 * cannot exhaust the stack.
 * @returns undefined when every string is well formed
 */
export function illFormedStringIn(body: unknown): IllFormedString | undefined {
  // Each entry keeps its parent instead of a copy of its path: a path is built only for the string
  // found, so the walk stays linear in the size of the body however deep it nests.
  interface Node {
    value: unknown;
    key?: PropertyKey;
    parent?: Node;
  }
  const pathOf = (node: Node): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let n: Node | undefined = node; n?.parent; n = n.parent) path.push(n.key as PropertyKey);
    return path.reverse();
  };
  const stack: Node[] = [{ value: body }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const { value } = node;
    if (typeof value === 'string') {
      if (!isWellFormedText(value)) return { path: pathOf(node), isKey: false };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], key: i, parent: node });
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (const key of keys) if (!isWellFormedText(key)) return { path: pathOf(node), isKey: true };
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i] as string;
        stack.push({ value: (value as Record<string, unknown>)[key], key, parent: node });
      }
    }
  }
  return undefined;
}

/**
 * 400 `parameter_invalid` for {@link IllFormedString}: `param` is the dotted path of the field, as a
 * validation error names it (shared/schemas/zod-errors.ts), up to the first caller-chosen name that is
 * not plainly a field name ({@link isEchoableName}: it is not repeated, the enclosing field is named).
 * The message says what to fix and never repeats the value.
 */
export function illFormedTextError(bad: IllFormedString): ApiError {
  const segments: string[] = [];
  let complete = true;
  for (const segment of bad.path) {
    if (!isEchoableName(segment)) {
      complete = false;
      break;
    }
    segments.push(String(segment));
  }
  const param = segments.join('.') || undefined;
  const name = param ?? 'request body';
  const detail = bad.isKey
    ? `one of its keys is not accepted (keys ${WELL_FORMED_TEXT_MESSAGE})`
    : complete
      ? WELL_FORMED_TEXT_MESSAGE
      : `one of its entries is invalid (${WELL_FORMED_TEXT_MESSAGE})`;
  return invalidRequest('parameter_invalid', `Invalid ${name}: ${detail}.`, param);
}
