/**
 * The renewal worker's cost (docs/capacity.md "Renewals"): DynamoDB calls and capacity units per renewal,
 * counted from the code, and how long one merchant's renewals on the 1st of the month take to work through.
 * Pure arithmetic, no DynamoDB; `npm run capacity` prints it (scripts/capacity.ts).
 *
 * One renewal that is charged and succeeds (shared/operations/billing/renewal.ts `workDueSubscription`):
 * - step 1 (renew): GetItem subscription, GetItem its latest (paid) invoice, TransactWriteItems of 4 items
 *   (subscription, the new invoice, `invoice.created`, `subscription.updated`);
 * - step 2 (collect): GetItem subscription, GetItem the new (open) invoice, TransactWriteItems of 1 (the invoice
 *   marked with its try in flight, before the processor call: a cancel never voids under a charge), then `createPayment`
 *   (shared/operations/payments/create-payment.ts): GetItem saved method, TransactWriteItems of 3 items (payment,
 *   `payment.created`, ConditionCheck customer), the processor call, TransactWriteItems of 2 (payment update,
 *   `payment.succeeded`), `afterAuthorization`'s GetItem invoice + GetItem subscription (its invoice does not list
 *   the payment yet: nothing written), UpdateItem saved method `last_used_at`; then `applyPaymentToInvoice`:
 *   TransactWriteItems of 3 (subscription with its next due time, invoice paid, `invoice.paid`);
 * - step 3: GetItem subscription (due at the new period's end: stop);
 * - its share of the due Query (one per merchant partition per run, up to `perMerchant` entries each).
 * Every GetItem is strongly consistent. The merchant's connector configuration and the token's decryption are not
 * DynamoDB calls (cached per container; KMS).
 */

/** KB for write units (AWS "DynamoDB read and write operations"). */
const KB = 1024;
/** 4 KB for read units. */
const READ_KB = 4096;

/** The calls of one successful renewal (see the module comment), in order. */
export const RENEWAL_CALLS: readonly {
  step: string;
  call: 'GetItem' | 'TransactWriteItems' | 'UpdateItem';
  items: readonly RenewalItem[];
}[] = [
  { step: 'renew', call: 'GetItem', items: ['subscription'] },
  { step: 'renew', call: 'GetItem', items: ['invoice'] },
  { step: 'renew', call: 'TransactWriteItems', items: ['subscription', 'invoice', 'event', 'event'] },
  { step: 'collect', call: 'GetItem', items: ['subscription'] },
  { step: 'collect', call: 'GetItem', items: ['invoice'] },
  { step: 'collect', call: 'TransactWriteItems', items: ['invoice'] },
  { step: 'createPayment', call: 'GetItem', items: ['paymentMethod'] },
  { step: 'createPayment', call: 'TransactWriteItems', items: ['payment', 'event', 'customer'] },
  { step: 'createPayment', call: 'TransactWriteItems', items: ['payment', 'event'] },
  { step: 'createPayment', call: 'GetItem', items: ['invoice'] },
  { step: 'createPayment', call: 'GetItem', items: ['subscription'] },
  { step: 'createPayment', call: 'UpdateItem', items: ['paymentMethod'] },
  { step: 'outcome', call: 'TransactWriteItems', items: ['subscription', 'invoice', 'event'] },
  { step: 'look again', call: 'GetItem', items: ['subscription'] },
];

/** The items a renewal touches. */
export type RenewalItem = 'subscription' | 'invoice' | 'event' | 'payment' | 'paymentMethod' | 'customer';

/** Sizes in bytes of the items (DynamoDB's size rules). */
export type RenewalItemBytes = Record<RenewalItem, number>;

/**
 * Default sizes: subscription 1,328 B and invoice 750 B (items with real-length ids, keys and a one-entry
 * metadata, measured with scripts/capacity/item-size.ts); payment 1,419 B and event 1,840 B (the recorded run's,
 * docs/capacity.md); saved method 1,500 B (its encrypted token included; an estimate); customer 400 B (an estimate).
 */
export const DEFAULT_RENEWAL_ITEM_BYTES: RenewalItemBytes = {
  subscription: 1328,
  invoice: 750,
  event: 1840,
  payment: 1419,
  paymentMethod: 1500,
  customer: 400,
};

/** What the backlog estimate assumes. */
export interface RenewalLoad {
  /** Active subscriptions of one merchant falling due at once (e.g. all on the 1st of the month). */
  subscriptions: number;
  /** The merchant's due partitions (`BILLING_DUE_SHARDS`, default 4). */
  dueShards: number;
  /** Entries read per partition per run (`perMerchant`, 100). */
  perMerchant: number;
  /** Items worked at once in a run (`concurrency`, 8). */
  concurrency: number;
  /** Seconds between runs (EventBridge Scheduler: 60). */
  runIntervalSeconds: number;
  /** Seconds a run may start items for (the Lambda's 300 s timeout less its 15 s margin: 285). */
  runBudgetSeconds: number;
  /** The processor call of a renewal's charge, ms (e.g. 300). */
  processorMs: number;
  /** One DynamoDB call, ms (e.g. 8). */
  dynamoCallMs: number;
  /** Item sizes (default {@link DEFAULT_RENEWAL_ITEM_BYTES}). */
  itemBytes?: RenewalItemBytes;
}

/** The renewal worker's defaults (shared/operations/billing/renewal-worker.ts, lib/background/background-work.ts), 1,000,000 due. */
export const DEFAULT_RENEWAL_LOAD: RenewalLoad = {
  subscriptions: 1_000_000,
  dueShards: 4,
  perMerchant: 100,
  concurrency: 8,
  runIntervalSeconds: 60,
  runBudgetSeconds: 285,
  processorMs: 300,
  dynamoCallMs: 8,
};

/** Per-partition write limit of the base table and of each GSI partition: 1,000 WCU/s. */
const PARTITION_WCU = 1000;

/** The result of {@link renewalCapacity}. */
export interface RenewalCapacity {
  /** DynamoDB calls per renewal, by call (the due Query as its share). */
  calls: { getItem: number; transactWrite: number; transactWriteItems: number; updateItem: number; queryShare: number };
  /** RCU per renewal: the GetItems (strong) and the share of the due Query (GSI5, eventually consistent). */
  rcu: { getItems: number; queryShare: number; total: number };
  /** Base-table WCU per renewal (transactional items 2 per KB, others 1). */
  baseWcu: number;
  /** Writes per renewal to the merchant's GSI5 due partition (the subscription's entry moved twice: delete + put each). */
  dueIndexWrites: number;
  /** WCU per renewal on that GSI5 partition (projection ALL: the subscription's size). */
  dueIndexWcu: number;
  /** Entries per due partition when every subscription is due at once. */
  entriesPerPartition: number;
  /** One renewal's time in a worker slot, ms: the processor call + its sequential DynamoDB calls. */
  itemMs: number;
  /** Renewals one run does for this merchant: min(what it reads, what its slots finish in the run's budget). */
  perRun: number;
  /** Seconds the run takes for them. */
  runSeconds: number;
  /** Renewals per second, averaged over run intervals. */
  perSecond: number;
  /** Runs, and hours, to work through the backlog. */
  runs: number;
  hours: number;
  /** WCU/s on the hottest GSI5 due partition while the backlog is worked, and its share of 1,000. */
  duePartitionWcuPerSecond: number;
  duePartitionShare: number;
  /** Renewals/s the due partitions could take before one reaches 1,000 WCU/s. */
  duePartitionsLimitPerSecond: number;
}

const readUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / READ_KB));
const writeUnits = (bytes: number, transactional: boolean) => Math.max(1, Math.ceil(bytes / KB)) * (transactional ? 2 : 1);

/** The renewal worker's cost and backlog for a load (see the module comment and docs/capacity.md "Renewals"). */
export function renewalCapacity(load: RenewalLoad): RenewalCapacity {
  const bytes = load.itemBytes ?? DEFAULT_RENEWAL_ITEM_BYTES;
  const count = (c: string) => RENEWAL_CALLS.filter((x) => x.call === c).length;
  const transactions = RENEWAL_CALLS.filter((x) => x.call === 'TransactWriteItems');
  const queryShare = 1 / load.perMerchant;
  const getItems = RENEWAL_CALLS.filter((x) => x.call === 'GetItem').reduce((n, x) => n + readUnits(bytes[x.items[0] as RenewalItem]), 0);
  // A full page of the due Query reads `perMerchant` subscription entries (projection ALL), eventually consistent.
  const queryRcu = (Math.ceil((load.perMerchant * bytes.subscription) / READ_KB) * 0.5) / load.perMerchant;
  const baseWcu = RENEWAL_CALLS.filter((x) => x.call !== 'GetItem').reduce(
    (n, x) => n + x.items.reduce((m, item) => m + writeUnits(bytes[item], x.call === 'TransactWriteItems'), 0),
    0,
  );
  // The renew write moves the due entry to now, the outcome write to the next period's end: delete + put each.
  const dueIndexWrites = 4;
  const dueIndexWcu = dueIndexWrites * writeUnits(bytes.subscription, false);
  const dynamoCalls = RENEWAL_CALLS.length;
  const itemMs = load.processorMs + dynamoCalls * load.dynamoCallMs;
  const read = load.perMerchant * load.dueShards;
  const finishable = Math.floor((load.concurrency * load.runBudgetSeconds * 1000) / itemMs);
  const perRun = Math.min(read, finishable, load.subscriptions);
  const runSeconds = (Math.ceil(perRun / load.concurrency) * itemMs) / 1000;
  const interval = Math.max(load.runIntervalSeconds, runSeconds);
  const perSecond = perRun / interval;
  const runs = Math.ceil(load.subscriptions / perRun);
  const duePartitionWcuPerSecond = (perSecond / load.dueShards) * dueIndexWcu;
  return {
    calls: {
      getItem: count('GetItem'),
      transactWrite: transactions.length,
      transactWriteItems: transactions.reduce((n, x) => n + x.items.length, 0),
      updateItem: count('UpdateItem'),
      queryShare,
    },
    rcu: { getItems, queryShare: queryRcu, total: getItems + queryRcu },
    baseWcu,
    dueIndexWrites,
    dueIndexWcu,
    entriesPerPartition: Math.ceil(load.subscriptions / load.dueShards),
    itemMs,
    perRun,
    runSeconds,
    perSecond,
    runs,
    hours: (runs * interval) / 3600,
    duePartitionWcuPerSecond,
    duePartitionShare: duePartitionWcuPerSecond / PARTITION_WCU,
    duePartitionsLimitPerSecond: (PARTITION_WCU / dueIndexWcu) * load.dueShards,
  };
}

/** The report section printed by `npm run capacity` (markdown). */
export function renewalSection(load: RenewalLoad = DEFAULT_RENEWAL_LOAD): string {
  const c = renewalCapacity(load);
  const raised = renewalCapacity({ ...load, dueShards: 12, concurrency: 24 });
  const f = (v: number, d = 1) => v.toLocaleString('en-US', { maximumFractionDigits: d });
  return [
    '### Renewals (one merchant, every subscription due at once)',
    '',
    `Per renewal (charged, succeeds): ${c.calls.getItem} GetItem (strong), ${c.calls.transactWrite} TransactWriteItems ` +
      `(${c.calls.transactWriteItems} items), ${c.calls.updateItem} UpdateItem, 1/${load.perMerchant} of a due Query; ` +
      `${f(c.rcu.total, 3)} RCU (${c.rcu.getItems} + ${f(c.rcu.queryShare, 3)}), ${c.baseWcu} WCU on the base table, ` +
      `${c.dueIndexWrites} writes (${c.dueIndexWcu} WCU) on its GSI5 due partition.`,
    '',
    `${f(load.subscriptions, 0)} subscriptions over ${load.dueShards} due partitions (\`BILLING_DUE_SHARDS\`): ` +
      `${f(c.entriesPerPartition, 0)} entries each. A run reads ${load.perMerchant} per partition and works ${load.concurrency} at once ` +
      `at ${c.itemMs} ms an item (processor ${load.processorMs} ms + ${RENEWAL_CALLS.length} DynamoDB calls × ${load.dynamoCallMs} ms): ` +
      `${f(c.perRun, 0)} renewals in ${f(c.runSeconds)} s per ${load.runIntervalSeconds} s run, ${f(c.perSecond, 2)}/s; ` +
      `the backlog takes ${f(c.runs, 0)} runs, **${f(c.hours)} h**. Hottest due partition: ${f(c.duePartitionWcuPerSecond)} WCU/s ` +
      `(${f(c.duePartitionShare * 100, 2)} % of 1,000); the ${load.dueShards} partitions take ${f(c.duePartitionsLimitPerSecond, 0)} renewals/s before one is full.`,
    '',
    `With \`BILLING_DUE_SHARDS=12\` and concurrency 24: ${f(raised.perRun, 0)} renewals in ${f(raised.runSeconds)} s per run, ` +
      `${f(raised.perSecond, 1)}/s, the backlog in ${f(raised.hours)} h; hottest due partition ${f(raised.duePartitionWcuPerSecond)} WCU/s.`,
    '',
  ].join('\n');
}
