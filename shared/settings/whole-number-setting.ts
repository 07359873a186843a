/**
 * Reads a whole-number setting from its environment text (`OPEN_INDEX_SHARDS`,
 * `WEBHOOK_ENDPOINT_CACHE_MS`, `CIRCUIT_FAILURE_THRESHOLD`, …): the number when the text is an
 * integer within `[min, max]`, else `fallback` — for an absent or empty value, a fraction, a value out
 * of range or text that is not a number. Never throws.
 * @param raw the variable's value (undefined when unset)
 * @param range inclusive bounds; `max` defaults to `Number.MAX_SAFE_INTEGER`
 * @param fallback the default, returned as is
 * @returns an integer in range, or `fallback`
 */
export function wholeNumberSetting(raw: string | undefined, range: { min: number; max?: number }, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= range.min && value <= (range.max ?? Number.MAX_SAFE_INTEGER) ? value : fallback;
}
