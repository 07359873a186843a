/**
 * The capacity model's printed report (markdown): item sizes, units per operation, and per layout the
 * WCU/s and RCU/s on the hottest partition of each partition key pattern with its share of the
 * per-partition limits (1,000 WCU/s, 3,000 RCU/s), flagging shares above 50 %.
 */
import { markdownTable } from '../bench/stats';
import type { StoredItemSample } from './access-patterns';
import { KB, readUnits, writeUnits } from './item-size';
import {
  formatUnits,
  type Layout,
  type LoadSpec,
  minimumShards,
  operationRates,
  type PartitionRow,
  partitionLoad,
  TARGET_SHARE,
  totalUnits,
  type UnitRecord,
} from './model';

const pct = (share: number) => `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;

/** The item-size table: each stored item kind once (its largest version), bytes, WCU per write, RCU per read. */
export function itemSizeTable(samples: readonly StoredItemSample[]): string {
  const byLabel = new Map<string, StoredItemSample>();
  for (const s of samples) {
    const key = `${s.label}\u0000${s.pattern}\u0000${s.sk.replace(/[0-9a-f]{16,}/g, '…')}`;
    const seen = byLabel.get(key);
    if (!seen || seen.bytes < s.bytes) byLabel.set(key, s);
  }
  const rows = [...byLabel.values()]
    .sort((a, b) => b.bytes - a.bytes)
    .map((s) => [
      s.label,
      `\`${s.pattern}\``,
      `\`${s.sk.length > 40 ? `${s.sk.slice(0, 37)}…` : s.sk}\``,
      String(s.bytes),
      (s.bytes / KB).toFixed(2),
      String(writeUnits(s.bytes)),
      String(readUnits(s.bytes, 'strong')),
      String(readUnits(s.bytes, 'eventual')),
    ]);
  return markdownTable(['item', 'PK pattern', 'SK', 'bytes', 'KB', 'WCU/write', 'RCU strong', 'RCU eventual'], rows, [
    'l',
    'l',
    'l',
    'r',
    'r',
    'r',
    'r',
    'r',
  ]);
}

/** `['GetItem', 'Query', 'Query']` → `GetItem, Query ×2` (first-seen order). */
export function compactCalls(calls: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts.entries()].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c)).join(', ') || '—';
}

/** Units per occurrence of each operation (ALL and KEYS_ONLY), its DynamoDB calls, the units DynamoDB Local reported, and its rate at the load. */
export function operationTable(
  records: readonly UnitRecord[],
  calls: ReadonlyMap<string, readonly string[]>,
  reported: ReadonlyMap<string, number>,
  load: LoadSpec,
): string {
  const rates = operationRates(load);
  const rows = Object.entries(rates).map(([op, rate]) => {
    const mine = records.filter((r) => r.operation === op);
    const sum = (kind: 'write' | 'read', keysOnly: boolean) =>
      mine.filter((r) => r.kind === kind).reduce((n, r) => n + (keysOnly ? r.unitsKeysOnly : r.units), 0);
    return [
      op,
      rate >= 1 ? formatUnits(rate) : rate.toFixed(3),
      compactCalls(calls.get(op) ?? []),
      formatUnits(sum('write', false)),
      formatUnits(sum('write', true)),
      formatUnits(sum('read', false)),
      formatUnits(sum('read', true)),
      reported.has(op) ? formatUnits(reported.get(op) ?? 0) : '—',
    ];
  });
  return markdownTable(
    ['operation', 'per s', 'DynamoDB calls', 'WCU (ALL)', 'WCU (KEYS_ONLY)', 'RCU (ALL)', 'RCU (KEYS_ONLY)', 'Local reported'],
    rows,
    ['l', 'r', 'l', 'r', 'r', 'r', 'r', 'r'],
  );
}

/**
 * Where the units go: per index (the base table and each GSI), WCU and RCU per created payment at the
 * load (Σ units × rate ÷ payments/s, every operation a payment brings on average included), with
 * projection ALL and with KEYS_ONLY on the list indexes.
 */
export function indexBreakdown(records: readonly UnitRecord[], load: LoadSpec): string {
  const rates = operationRates(load);
  const per = new Map<string, { w: number; wk: number; r: number; rk: number }>();
  for (const r of records) {
    const v = per.get(r.target) ?? { w: 0, wk: 0, r: 0, rk: 0 };
    const rate = (rates[r.operation] ?? 0) / Math.max(1e-9, load.paymentsPerSecond);
    if (r.kind === 'write') {
      v.w += r.units * rate;
      v.wk += r.unitsKeysOnly * rate;
    } else {
      v.r += r.units * rate;
      v.rk += r.unitsKeysOnly * rate;
    }
    per.set(r.target, v);
  }
  const order = (t: string) => (t === 'table' ? '' : t);
  return markdownTable(
    ['index', 'WCU/payment (ALL)', 'WCU/payment (KEYS_ONLY on GSI1/GSI2)', 'RCU/payment (ALL)', 'RCU/payment (KEYS_ONLY)'],
    [...per.entries()]
      .sort((a, b) => order(a[0]).localeCompare(order(b[0])))
      .map(([t, v]) => [t, v.w.toFixed(2), v.wk.toFixed(2), v.r.toFixed(3), v.rk.toFixed(3)]),
    ['l', 'r', 'r', 'r', 'r'],
  );
}

/** The partition table of one layout: every non-item pattern, and the hottest item patterns. */
export function partitionTable(rows: readonly PartitionRow[], itemRows = 4): string {
  const shown = [...rows.filter((r) => r.scope !== 'item'), ...rows.filter((r) => r.scope === 'item').slice(0, itemRows)].sort(
    (a, b) => b.share - a.share,
  );
  return markdownTable(
    ['index', 'partition key pattern', 'scope', 'WCU/s', '% of 1,000', 'RCU/s', '% of 3,000', 'share', '', 'largest contributors'],
    shown.map((r) => [
      r.target,
      `\`${r.pattern}\``,
      r.scope,
      formatUnits(r.wcu),
      pct(r.wcu / 1000),
      formatUnits(r.rcu),
      pct(r.rcu / 3000),
      pct(r.share),
      r.share > TARGET_SHARE ? '**> 50 %**' : '',
      r.contributors.slice(0, 3).join('; '),
    ]),
    ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l'],
  );
}

/** One evaluated layout. */
export interface LayoutResult {
  layout: Layout;
  rows: PartitionRow[];
  worst: PartitionRow | undefined;
  totals: { wcu: number; rcu: number };
}

/** Evaluates a layout. */
export function evaluate(records: readonly UnitRecord[], load: LoadSpec, layout: Layout): LayoutResult {
  const rows = partitionLoad(records, load, layout);
  return { layout, rows, worst: rows[0], totals: totalUnits(records, load, layout) };
}

/**
 * The least list shard count for a projection: {@link minimumShards} on the rows evaluated with one
 * shard (the idempotency layout does not change merchant lists).
 */
export function requiredShards(records: readonly UnitRecord[], load: LoadSpec, projection: Layout['projection']): number {
  return minimumShards(partitionLoad(records, load, { name: 'n=1', shards: 1, projection, idempotency: 'per-record' }));
}

/** A layout's section: title, verdict and partition table. */
export function layoutSection(result: LayoutResult): string {
  const { layout, worst, totals } = result;
  const over = result.rows.filter((r) => r.share > TARGET_SHARE);
  const verdict =
    over.length === 0
      ? `no partition above 50 % (hottest: \`${worst?.pattern}\` on ${worst?.target} at ${pct(worst?.share ?? 0)})`
      : `${over.length} partition pattern(s) above 50 %: ${over.map((r) => `\`${r.pattern}\` on ${r.target} (${pct(r.share)})`).join(', ')}`;
  return [
    `### ${layout.name}`,
    '',
    `List shards N = ${layout.shards}, GSI projection ${layout.projection}, idempotency records ${layout.idempotency === 'per-function' ? 'in one partition per function' : 'in a partition per record hash'}.`,
    `Whole table: ${formatUnits(totals.wcu)} WCU/s, ${formatUnits(totals.rcu)} RCU/s. Verdict: ${verdict}.`,
    '',
    partitionTable(result.rows),
    '',
  ].join('\n');
}
