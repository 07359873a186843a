/**
 * DynamoDB's item size rules and capacity-unit rounding, as pure functions (no DynamoDB).
 *
 * Sources (AWS, Amazon DynamoDB Developer Guide):
 * - "DynamoDB item sizes and formats"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
 *   an item's size is the sum of its attribute names' and values' lengths; strings are UTF-8 bytes;
 *   a number is about 1 byte per two significant digits + 1 byte (leading and trailing zeroes trimmed);
 *   binary values count their raw bytes; null and Boolean take 1 byte; a List or Map takes 3 bytes of
 *   overhead plus its elements, and every element 1 more byte.
 * - "DynamoDB read and write operations"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html):
 *   one write unit per 1 KB written (rounded up), one read unit per 4 KB read strongly consistently
 *   (half for eventually consistent, two for transactional), transactional writes 2 units per 1 KB.
 * - "Constraints in Amazon DynamoDB": 1 KB = 1,024 bytes.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** 1 KB as DynamoDB counts it: 1,024 bytes. */
export const KB = 1024;

/** A low-level item: attribute name → `AttributeValue` (the wire format, as read raw). */
export type RawItem = Record<string, AttributeValue>;

/** Bytes of a string in UTF-8. */
export const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Size in bytes of a number value as DynamoDB stores it: 1 byte per two significant digits
 * (rounded up) + 1 byte, leading and trailing zeroes trimmed (AWS "DynamoDB item sizes and formats";
 * the page says "approximately": this is the documented approximation).
 * @param text the number as sent on the wire (`"1500"`, `"-0.25"`, `"1e3"`)
 */
export function numberSize(text: string): number {
  const mantissa = text.trim().replace(/^[+-]/, '').split(/[eE]/)[0] ?? '';
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  const significant = Math.max(1, digits.length);
  return Math.ceil(significant / 2) + 1;
}

/**
 * Size in bytes of one attribute value, without its name (AWS "DynamoDB item sizes and formats").
 * Strings: UTF-8 bytes; numbers: {@link numberSize}; binary: raw bytes; Boolean/null: 1 byte;
 * List/Map: 3 bytes + per element (1 byte + the element's size; a Map element's size includes its
 * name's UTF-8 bytes); sets: the sum of their members.
 */
export function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8Bytes(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((n, s) => n + utf8Bytes(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((n, s) => n + numberSize(s), 0);
  if (value.BS !== undefined) return value.BS.reduce((n, b) => n + b.byteLength, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((n, v) => n + 1 + valueSize(v), 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((n, [k, v]) => n + 1 + utf8Bytes(k) + valueSize(v), 0);
  throw new Error(`valueSize: unknown attribute value ${JSON.stringify(value)}`);
}

/** Size in bytes of an item: the sum over its attributes of name (UTF-8 bytes) + value ({@link valueSize}). */
export function itemSize(item: RawItem): number {
  return Object.entries(item).reduce((n, [name, value]) => n + utf8Bytes(name) + valueSize(value), 0);
}

/** Size in bytes of the named attributes of an item only (for a KEYS_ONLY or INCLUDE projection). */
export function projectedSize(item: RawItem, attributes: readonly string[]): number {
  return attributes.reduce((n, a) => {
    const v = item[a];
    return v === undefined ? n : n + utf8Bytes(a) + valueSize(v);
  }, 0);
}

/**
 * Write units (WCU) of writing `bytes`: one per started 1 KB, at least 1; a transactional write
 * costs 2 per 1 KB (AWS "DynamoDB read and write operations").
 */
export function writeUnits(bytes: number, transactional = false): number {
  const units = Math.max(1, Math.ceil(bytes / KB));
  return transactional ? 2 * units : units;
}

/** How a read is made: strongly or eventually consistent, or within a transaction. */
export type ReadMode = 'strong' | 'eventual' | 'transactional';

/**
 * Read units (RCU) of reading `bytes`: one per started 4 KB for a strongly consistent read, half
 * for an eventually consistent one, two for a transactional one; at least one 4 KB step even for an
 * empty result (AWS "DynamoDB read and write operations"). A Query sums the sizes of all the items it
 * returns before rounding; GetItem and each item of BatchGetItem round per item.
 */
export function readUnits(bytes: number, mode: ReadMode = 'strong'): number {
  const steps = Math.max(1, Math.ceil(bytes / (4 * KB)));
  return mode === 'eventual' ? steps / 2 : mode === 'transactional' ? steps * 2 : steps;
}
