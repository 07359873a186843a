/**
 * Small numeric and formatting helpers shared by the benchmark phases.
 */

/**
 * The `p`-th percentile of a sample (nearest-rank on the sorted values).
 * @param values latencies or timings; not modified
 * @param p a percentile from 0 to 100
 * @returns the percentile, or NaN for an empty sample
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/**
 * The median of a sample.
 * @returns the median, or NaN for an empty sample
 */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * Formats a number with a fixed number of decimals; NaN and infinities become `n/a`.
 */
export function fmt(value: number, decimals = 1): string {
  return Number.isFinite(value) ? value.toFixed(decimals) : 'n/a';
}

/**
 * Renders a GitHub-flavoured markdown table.
 * @param header column titles
 * @param rows cells, already formatted
 * @param align per column: `l` (default) or `r`
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly ('l' | 'r')[] = []): string {
  const widths = header.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (align[i] === 'r' ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Writes a progress line to stderr, so stdout stays the pasteable report. */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
