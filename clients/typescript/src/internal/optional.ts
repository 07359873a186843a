/**
 * `{ [key]: value }`, or `{}` when `value` is undefined: spreads an optional field without writing
 * `key: undefined` (which `exactOptionalPropertyTypes` and `toMatchObject` tell apart from absent).
 */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
