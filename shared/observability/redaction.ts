import { CARD_MASK, maskCardNumbers } from '../domain/card-mask';
import { SECRET_FIELD_NAMES } from './secret-field-names';

/** What replaces a redacted value in logs. */
export const REDACTED = CARD_MASK;

/**
 * Header names whose values never reach a log line: our `api-key`, HTTP credentials and cookies, and
 * Flutterwave's `verif-hash` (the dashboard's secret hash, sent as it is with every webhook). Headers are
 * not fields of a request schema, so they are listed here.
 */
const SECRET_HEADER_NAMES = ['api-key', 'x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'verif-hash'];

/**
 * Other spellings of the marked fields a client may send (to be refused by validation, but logged first when
 * events are logged): `cvv`, `cvc`, `pan`, `password`, … A net, not the source: the source is the schemas' marks.
 */
const SECRET_NAME_SPELLINGS = ['cvc', 'cvc2', 'cvv', 'cvv2', 'cvn', 'card_cvv', 'pan', 'security_code', 'password'];

/**
 * Names whose values never reach a log line, compared after {@link normalizeKey} (so `card_number`,
 * `cardNumber`, `Card-Number` and `card[number]` are one name): the request fields marked secret in the
 * schemas (shared/schemas/secret-field.ts; the generated {@link SECRET_FIELD_NAMES}: card data, step
 * secrets, processor credentials, processors' tokens in webhook bodies), the secret headers and the
 * other spellings of the marked fields.
 */
const SECRET_NAMES = new Set([...SECRET_FIELD_NAMES, ...SECRET_HEADER_NAMES, ...SECRET_NAME_SPELLINGS].map((n) => normalizeKey(n)));

/**
 * A name as {@link SECRET_NAMES} compares it: Unicode compatibility-normalised (full-width
 * letters become ASCII), lower-cased, every character but letters and digits dropped.
 */
function normalizeKey(key: string): string {
  return key
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Whether the value under this name (a JSON key, a query parameter, a header, a form field) is never logged. */
export function isSecretName(key: string): boolean {
  return SECRET_NAMES.has(normalizeKey(key));
}

/**
 * Secrets recognisable by their shape, masked wherever they appear in text (an error message, a URL, a body
 * that was never parsed), the prefix kept: secret and restricted keys (`sk_test_…`, `rk_live_…`: ours,
 * Stripe's, Paystack's), webhook signing secrets (`whsec_…`: Stripe's and our endpoints'), Flutterwave keys
 * (`FLWSECK_TEST-…`, `FLWSECK-…`), Stripe PaymentMethod tokens (`pm_…`, but not our own saved payment method
 * ids, `pm_` + 32 lower-case hex digits), Paystack authorization codes (`AUTH_…`) and Flutterwave card tokens
 * (`flw-t1nf-…`).
 */
const SECRET_VALUES: ReadonlyArray<[RegExp, string]> = [
  [/\b([sr]k_(?:test|live)_)[A-Za-z0-9_-]{4,}/g, `$1${REDACTED}`],
  [/\b(whsec_)[A-Za-z0-9+/=_-]{4,}/g, `$1${REDACTED}`],
  [/\b(FLWSECK(?:_TEST)?-?)[A-Za-z0-9_-]{4,}/g, `$1${REDACTED}`],
  [/\b(pm_)(?![0-9a-f]{32}\b)[A-Za-z0-9]{8,}/g, `$1${REDACTED}`],
  [/\b(AUTH_)[A-Za-z0-9]{4,}/g, `$1${REDACTED}`],
  [/\b(flw-t[0-9a-z]{0,4}-)[A-Za-z0-9-]{4,}/g, `$1${REDACTED}`],
];
/** The secret names as they may be spelled in JSON or form text (`card_number`, `card-number`, `cardnumber`). */
const SECRET_FIELD_PATTERN = [...SECRET_FIELD_NAMES, ...SECRET_NAME_SPELLINGS, ...SECRET_HEADER_NAMES]
  .map((n) => n.replace(/[_-]/g, '[_-]?'))
  .join('|');
/** Secret fields in JSON text that was never parsed (a body inside an error message). */
const JSON_SECRET_FIELD = new RegExp(`("(?:${SECRET_FIELD_PATTERN})"\\s*:\\s*)"[^"]*"`, 'gi');
/** The same fields in `application/x-www-form-urlencoded` text. */
const FORM_SECRET_FIELD = new RegExp(`(^|[&?])(${SECRET_FIELD_PATTERN})=[^&\\s"]*`, 'gi');
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

/**
 * Masks card data and secrets inside free text (a log message, an error message, a path): card
 * numbers wherever the detector finds them — also behind percent-encoding (`%34%32…`), in which
 * case the decoded text is returned masked —, the JSON and form fields of every secret name
 * (`"card_number"`, `"key1"`, `merchant_secret=`…), and secrets of a known shape ({@link SECRET_VALUES}:
 * keys, signing secrets, processors' tokens). A best effort for text that is not structured:
 * structured data (a request event) is redacted after parsing by {@link redactEvent}.
 */
export function redactText(text: string): string {
  let source = text;
  if (PERCENT_ESCAPE.test(text)) {
    try {
      const decoded = decodeURIComponent(text);
      if (maskCardNumbers(decoded) !== decoded) source = decoded;
    } catch {
      /* not valid percent-encoding: the text is taken as it is */
    }
  }
  let masked = source.replace(JSON_SECRET_FIELD, `$1"${REDACTED}"`).replace(FORM_SECRET_FIELD, `$1$2=${REDACTED}`);
  for (const [shape, replacement] of SECRET_VALUES) masked = masked.replace(shape, replacement);
  return maskCardNumbers(masked);
}

/** Nesting deeper than this is replaced, not walked (no request body nests that deep). */
const MAX_DEPTH = 32;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A redacted deep copy of parsed data: the value under a secret name ({@link isSecretName}) is
 * replaced whatever it is, every name is itself masked (a card number used as a JSON key or a
 * query-parameter name), every string passes {@link redactText}, and an integer whose digits
 * form a card number is replaced. Objects are rebuilt as own data properties.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) >= 1e11 && maskCardNumbers(String(Math.abs(value))) !== String(Math.abs(value))
      ? REDACTED
      : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value instanceof Error) return value; // the logger formats errors; their strings pass the replacer
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k), isSecretName(k) ? REDACTED : redactValue(v, depth + 1)]));
}

/** Case-insensitive header lookup (API Gateway lower-cases header names; a test event may not). */
function header(headers: unknown, name: string): string | undefined {
  if (!isPlainObject(headers)) return undefined;
  const found = Object.entries(headers).find(([k]) => k.toLowerCase() === name);
  return typeof found?.[1] === 'string' ? found[1] : undefined;
}

/** Pairs of a query string or a urlencoded form as an object (a repeated name keeps all its values, in order). */
function formToObject(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/**
 * The body of an HTTP event as it is logged: decoded from base64 when API Gateway encoded it,
 * then parsed — a urlencoded form by its content type, anything else as JSON — and redacted
 * after parsing, so a key spelled with JSON escapes (`"card_\u006eumber"`) or percent-encoding
 * is seen by its real name. A body that parses as neither is not logged (its size is): unparsed
 * text could hide a secret under a spelling no text pattern knows.
 */
function redactBody(body: unknown, isBase64Encoded: unknown, contentType: string | undefined): unknown {
  if (typeof body !== 'string') return redactValue(body);
  if (body === '') return body;
  const text = isBase64Encoded === true ? Buffer.from(body, 'base64').toString('utf8') : body;
  if (/^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType ?? '')) return redactValue(formToObject(text));
  try {
    return redactValue(JSON.parse(text));
  } catch {
    return `${REDACTED} (a body of ${text.length} characters that is neither JSON nor a form; not logged)`;
  }
}

/**
 * An invocation event as it may be logged (`POWERTOOLS_LOGGER_LOG_EVENT=true`), redacted after
 * parsing. For an API Gateway HTTP API event (payload 2.0): the body is parsed and redacted (see
 * {@link redactBody}); query parameters, headers and path parameters are redacted by name and
 * value, names included; `rawQueryString` is parsed and rebuilt from redacted pairs (decoded);
 * cookie values are dropped; `rawPath` and every other string pass {@link redactText}. Any other
 * event (a DynamoDB stream batch, a schedule) is redacted as data by {@link redactValue}.
 * @returns a redacted copy; the event itself is not changed
 */
export function redactEvent(event: unknown): unknown {
  if (!isPlainObject(event) || !('requestContext' in event)) return redactValue(event);
  const { body, rawQueryString, cookies, ...rest } = event;
  const out = redactValue(rest) as Record<string, unknown>;
  if (body !== undefined) out.body = redactBody(body, event.isBase64Encoded, header(event.headers, 'content-type'));
  if (typeof rawQueryString === 'string') {
    const pairs = Object.entries(redactValue(formToObject(rawQueryString)) as Record<string, unknown>);
    out.rawQueryString = pairs.flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}=${String(x)}`)).join('&');
  }
  if (Array.isArray(cookies)) {
    out.cookies = cookies.map((c) => `${redactText(String(c).split('=')[0] ?? '')}=${REDACTED}`);
  }
  return out;
}

/**
 * The JSON replacer Powertools Logger runs on every log record (`jsonReplacerFn`): drops the
 * values of secret names ({@link isSecretName}) at any depth, masks card numbers and keys in
 * every string, and renames an object key that holds a card number. Events are redacted before
 * they reach it (see {@link redactEvent}); this is the net under every other record.
 */
export function redactingReplacer(key: string, value: unknown): unknown {
  if (key && isSecretName(key)) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (isPlainObject(value) && Object.keys(value).some((k) => redactText(k) !== k)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactText(k), v]));
  }
  return value;
}
