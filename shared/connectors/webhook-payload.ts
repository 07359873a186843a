import { WebhookPayloadError } from './connector';

/**
 * Readers for the fields of a signed webhook body, shared by the adapters' `parseWebhook`.
 * Each either returns the field with the type the adapter relies on, or throws a
 * {@link WebhookPayloadError} naming the field (dotted path, e.g. `data.payment_id`) and what
 * is wrong — never the value, which may be anything a sender put there. Only called after the
 * signature verified, so the error (400) is about a genuine but malformed event.
 */

/** A JSON object as read from a webhook body. */
export type WebhookObject = Record<string, unknown>;

/**
 * Longest string accepted where a field becomes part of a key or an id (event id, reference,
 * status): 255 characters. Processors' ids are far shorter (Stripe `evt_…` ids, Paystack
 * references, Flutterwave `tx_ref`); a DynamoDB partition key holds at most 2048 bytes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html), so a longer
 * value would otherwise fail the write of the event's record with a 500.
 */
export const MAX_WEBHOOK_ID_LENGTH = 255;

/** Longest free text kept from an event (a decline message): 1,000 characters. */
export const MAX_WEBHOOK_TEXT_LENGTH = 1000;

function isObject(value: unknown): value is WebhookObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a signed webhook body as a JSON object (RFC 8259).
 * @throws WebhookPayloadError `invalid_json` when the body is not JSON or not an object
 */
export function readWebhookJson(connector: string, rawBody: string): WebhookObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    throw new WebhookPayloadError(connector, 'invalid_json', 'The signed webhook body is not valid JSON.');
  }
  if (!isObject(parsed)) throw new WebhookPayloadError(connector, 'invalid_json', 'The signed webhook body is JSON but not an object.');
  return parsed;
}

/** `parent.key` as a dotted path (`data` + `payment_id` → `data.payment_id`). */
function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function missing(connector: string, param: string): WebhookPayloadError {
  return new WebhookPayloadError(connector, 'parameter_missing', `The signed webhook body has no '${param}'.`, param);
}

function wrongType(connector: string, param: string, expected: string): WebhookPayloadError {
  return new WebhookPayloadError(connector, 'parameter_invalid_type', `The signed webhook body's '${param}' is not ${expected}.`, param);
}

/**
 * A field that must be an object.
 * @param path the dotted path of `parent` (empty for the root)
 */
export function requiredObject(connector: string, parent: WebhookObject, key: string, path = ''): WebhookObject {
  const value = parent[key];
  if (value === undefined || value === null) throw missing(connector, at(path, key));
  if (!isObject(value)) throw wrongType(connector, at(path, key), 'an object');
  return value;
}

/** A field that may be absent or null, else must be an object. */
export function optionalObject(connector: string, parent: WebhookObject, key: string, path = ''): WebhookObject | undefined {
  const value = parent[key];
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw wrongType(connector, at(path, key), 'an object');
  return value;
}

/**
 * A field that must be a non-empty string of at most `max` characters
 * (default {@link MAX_WEBHOOK_ID_LENGTH}: it becomes part of an id or key).
 */
export function requiredString(connector: string, parent: WebhookObject, key: string, path = '', max = MAX_WEBHOOK_ID_LENGTH): string {
  const value = parent[key];
  if (value === undefined || value === null || value === '') throw missing(connector, at(path, key));
  if (typeof value !== 'string') throw wrongType(connector, at(path, key), 'a string');
  if (value.length > max)
    throw new WebhookPayloadError(
      connector,
      'parameter_invalid',
      `The signed webhook body's '${at(path, key)}' is longer than ${max} characters.`,
      at(path, key),
    );
  return value;
}

/**
 * A field that may be absent or null, else must be a string of at most `max` characters
 * (default {@link MAX_WEBHOOK_TEXT_LENGTH}).
 */
export function optionalString(
  connector: string,
  parent: WebhookObject,
  key: string,
  path = '',
  max = MAX_WEBHOOK_TEXT_LENGTH,
): string | undefined {
  const value = parent[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrongType(connector, at(path, key), 'a string');
  if (value.length > max)
    throw new WebhookPayloadError(
      connector,
      'parameter_invalid',
      `The signed webhook body's '${at(path, key)}' is longer than ${max} characters.`,
      at(path, key),
    );
  return value;
}

/** A field that must be one of `allowed` (a string the processor documents). */
export function requiredEnum<T extends string>(connector: string, parent: WebhookObject, key: string, allowed: readonly T[], path = ''): T {
  const value = requiredString(connector, parent, key, path);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new WebhookPayloadError(
      connector,
      'parameter_invalid',
      `The signed webhook body's '${at(path, key)}' is not one of ${allowed.join(', ')}.`,
      at(path, key),
    );
  }
  return value as T;
}

/** A field that must be a non-negative safe integer (an amount in minor units, a numeric id). */
export function requiredInteger(connector: string, parent: WebhookObject, key: string, path = ''): number {
  const value = parent[key];
  if (value === undefined || value === null) throw missing(connector, at(path, key));
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw wrongType(connector, at(path, key), 'a non-negative integer');
  return value;
}

/** A field that may be absent or null, else must be a non-negative safe integer. */
export function optionalInteger(connector: string, parent: WebhookObject, key: string, path = ''): number | undefined {
  const value = parent[key];
  if (value === undefined || value === null) return undefined;
  return requiredInteger(connector, parent, key, path);
}

/**
 * A field that must be a non-negative integer written as a JSON number or as a string of digits
 * (Paystack sends amounts both ways).
 */
export function requiredIntegerOrDigits(connector: string, parent: WebhookObject, key: string, path = ''): number {
  const value = parent[key];
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  if (typeof value === 'string') throw wrongType(connector, at(path, key), 'a non-negative integer');
  return requiredInteger(connector, parent, key, path);
}

/**
 * A field that may be absent or null, else must be an id written as a string (at most
 * {@link MAX_WEBHOOK_ID_LENGTH} characters) or a non-negative integer; returned as a string.
 */
export function optionalId(connector: string, parent: WebhookObject, key: string, path = ''): string | undefined {
  const value = parent[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return String(requiredInteger(connector, parent, key, path));
  return requiredString(connector, parent, key, path);
}
