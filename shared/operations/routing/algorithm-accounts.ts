/**
 * Every `merchant_connector_id` a routing algorithm names, wherever it sits (`single`, `priority`,
 * `volume_split`, an `advanced` rule's selection or its default), once each, in order of appearance.
 * @param algorithm a stored algorithm (`{type, data}`; shared/domain/routing-algorithm.ts)
 */
export function algorithmAccountIds(algorithm: unknown): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (k === 'merchant_connector_id' && typeof v === 'string') found.add(v);
        else walk(v);
      }
    }
  };
  walk(algorithm);
  return [...found];
}
