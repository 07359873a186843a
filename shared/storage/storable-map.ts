/**
 * A free-form string map (metadata) in the form the DynamoDB marshaller stores
 * safely. The SDK decides an object's type from its `constructor`; a client's
 * metadata key named "constructor" would make a plain object unmarshallable, so
 * free-form maps are written as `Map`s (stored as the same DynamoDB M type).
 */
export function storableMap(record: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(record));
}

/**
 * A free-form string map in one fixed order (keys sorted by UTF-16 code unit), so the
 * same map reads the same in every answer and event: DynamoDB keeps no key order for M
 * attributes, and an answer built in memory (a create, an update's event) must equal the
 * next GET. Values are kept as they are; a missing map is `{}`.
 */
export function orderedMap(record: Record<string, string> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record ?? {}).sort())
    Object.defineProperty(out, key, {
      value: (record as Record<string, string>)[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/**
 * A JSON-like value with every object's keys in one fixed order (sorted), arrays kept in
 * order: for nested API objects read back from DynamoDB maps (billing address, next action),
 * whose key order DynamoDB does not keep, so that an answer or event built in memory equals
 * the next GET to the byte.
 */
export function orderedValue<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => orderedValue(v)) as unknown as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value as Record<string, unknown>).sort()) {
    Object.defineProperty(out, key, {
      value: orderedValue((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}
