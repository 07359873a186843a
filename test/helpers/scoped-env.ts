/**
 * Environment variables a test file sets and later puts back as they were (unset ones unset again).
 * Handlers read most settings when they run, so a file sets them in `beforeAll` and restores them in
 * `afterAll`.
 */
export interface ScopedEnv {
  /** Sets each variable, remembering its value from before the first time this scope set it. */
  set(values: Record<string, string>): void;
  /** Puts every variable this scope set back as it was. */
  restore(): void;
}

/** A new {@link ScopedEnv}. */
export function scopedEnv(): ScopedEnv {
  const saved: Record<string, string | undefined> = {};
  return {
    set(values) {
      for (const [k, v] of Object.entries(values)) {
        if (!(k in saved)) saved[k] = process.env[k];
        process.env[k] = v;
      }
    },
    restore() {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
        delete saved[k];
      }
    },
  };
}
