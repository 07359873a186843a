/**
 * A free-form string map (metadata) in the form the DynamoDB marshaller stores
 * safely. The SDK decides an object's type from its `constructor`; a client's
 * metadata key named "constructor" would make a plain object unmarshallable, so
 * free-form maps are written as `Map`s (stored as the same DynamoDB M type).
 */
export function storableMap(record: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(record));
}
