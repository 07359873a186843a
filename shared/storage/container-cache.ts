/**
 * A per-container cache of promised values by key, for reads that many requests of one Lambda container
 * share for a short period (a merchant's webhook endpoints for fan-out, a merchant's connector
 * configuration for routing): concurrent callers share one read, a failed read is not kept, and at most
 * `maxEntries` keys are held (the oldest inserted goes first).
 */
export interface ContainerCache<V> {
  /**
   * The value cached for `key` when read less than `periodMs` ago, else a fresh `load()` (cached unless
   * `periodMs` is 0, which turns caching off).
   * @param periodMs how long a value is reused, ms
   * @param nowMs the current time, epoch ms
   * @throws whatever `load` throws (nothing is cached then)
   */
  get(key: string, periodMs: number, load: () => Promise<V>, nowMs?: number): Promise<V>;
  /** Drops one key (after this container changed what it holds). */
  forget(key: string): void;
  /** Drops every key. */
  clear(): void;
}

/**
 * A new {@link ContainerCache}.
 * @param maxEntries most keys held at once
 */
export function containerCache<V>(maxEntries: number): ContainerCache<V> {
  const entries = new Map<string, { at: number; value: Promise<V> }>();
  return {
    get(key, periodMs, load, nowMs = Date.now()) {
      const hit = entries.get(key);
      if (hit && periodMs > 0 && nowMs - hit.at < periodMs) return hit.value;
      const value = load();
      if (periodMs > 0) {
        entries.delete(key);
        entries.set(key, { at: nowMs, value });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
        value.catch(() => {
          if (entries.get(key)?.value === value) entries.delete(key);
        });
      }
      return value;
    },
    forget: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  };
}
