/**
 * Key layout of the single table. Only the repositories import this file; no
 * other code knows how items are keyed. Every key of merchant data starts with
 * `MERCHANT#<merchant_id>`, so one merchant's key can never address another's item.
 */

import { billingTimeOf } from '../domain/billing-period';
import { wholeNumberSetting } from '../settings/whole-number-setting';
import { stableHash } from './list-shards';

/** Sort key of an entity's own item. */
export const ENTITY_SK = {
  payment: 'PAYMENT',
  customer: 'CUSTOMER',
  refund: 'REFUND',
  apiKey: 'APIKEY',
  event: 'EVENT',
  webhookEndpoint: 'WEBHOOK_ENDPOINT',
} as const;

const m = (merchantId: string) => `MERCHANT#${merchantId}`;

/** `created_at#id`: the sort key of every list index, so lists come newest first by `created_at`. */
export const listSortKey = (createdAt: string, id: string) => `${createdAt}#${id}`;

/** Primary keys (`PK`, `SK`) of each entity. */
export const primaryKey = {
  payment: (merchantId: string, paymentId: string) => ({ PK: `${m(merchantId)}#PAYMENT#${paymentId}`, SK: ENTITY_SK.payment }),
  customer: (merchantId: string, customerId: string) => ({
    PK: `${m(merchantId)}#CUSTOMER#${customerId}`,
    SK: ENTITY_SK.customer,
  }),
  refund: (merchantId: string, refundId: string) => ({ PK: `${m(merchantId)}#REFUND#${refundId}`, SK: ENTITY_SK.refund }),
  apiKey: (keyHash: string) => ({ PK: `APIKEY#${keyHash}`, SK: ENTITY_SK.apiKey }),
  event: (merchantId: string, eventId: string) => ({ PK: `${m(merchantId)}#EVENT#${eventId}`, SK: ENTITY_SK.event }),
  webhookEndpoint: (merchantId: string, endpointId: string) => ({
    PK: `${m(merchantId)}#WEBHOOK_ENDPOINT#${endpointId}`,
    SK: ENTITY_SK.webhookEndpoint,
  }),
  health: () => ({ PK: 'HEALTH', SK: 'HEALTH' }),
  /**
   * The sandbox "processor's" own record of a payer's decision on its hosted page (or of a void that
   * came first): processor-side data, keyed by the payment id (unique across merchants), like a
   * real processor's ledger entry.
   */
  sandboxDecision: (paymentId: string) => ({ PK: `SANDBOX#${paymentId}`, SK: 'DECISION' }),
  /** Where the polling of one account's disputes got to: `<account key>` is an `mca_…` or `platform:<connector>`. */
  disputePollCursor: (accountKey: string) => ({ PK: `DISPUTE_POLL#${accountKey}`, SK: 'CURSOR' }),
  /** The sandbox processor's dispute of a payment: its own ledger, read by the sandbox's dispute calls. */
  sandboxDispute: (paymentId: string) => ({ PK: `SANDBOX#${paymentId}`, SK: 'DISPUTE' }),
  /** A saved payment method. */
  paymentMethod: (merchantId: string, paymentMethodId: string) => ({
    PK: `${m(merchantId)}#PAYMENT_METHOD#${paymentMethodId}`,
    SK: 'PAYMENT_METHOD',
  }),
  /**
   * The guard that keeps one saved method per card per customer per connector account: holds
   * the method's id under the card's fingerprint.
   */
  paymentMethodFingerprint: (merchantId: string, customerId: string, account: string, fingerprint: string) => ({
    PK: `${m(merchantId)}#CUSTOMER#${customerId}#PM_FINGERPRINT#${account}#${fingerprint}`,
    SK: 'PM_FINGERPRINT',
  }),
  /** A subscription (docs/api.md "Subscriptions and invoices"). */
  subscription: (merchantId: string, subscriptionId: string) => ({
    PK: `${m(merchantId)}#SUBSCRIPTION#${subscriptionId}`,
    SK: 'SUBSCRIPTION',
  }),
  /** A dispute; its id is derived from (account, processor dispute id), so it is recorded once. */
  dispute: (merchantId: string, disputeId: string) => ({ PK: `${m(merchantId)}#DISPUTE#${disputeId}`, SK: 'DISPUTE' }),
  /** An uploaded file (dispute evidence): its metadata; the bytes are in the file store. */
  file: (merchantId: string, fileId: string) => ({ PK: `${m(merchantId)}#FILE#${fileId}`, SK: 'FILE' }),
  /** A test clock (non-prod stages): its frozen time and state. */
  testClock: (merchantId: string, testClockId: string) => ({ PK: `${m(merchantId)}#TEST_CLOCK#${testClockId}`, SK: 'TEST_CLOCK' }),
  /** The merchant's entry in the billing directory: written once, when it first has billing work (see {@link billingDue}). */
  billingMerchant: (merchantId: string) => ({ PK: `${m(merchantId)}#BILLING`, SK: 'BILLING' }),
  /** An invoice of a subscription's period; its id is derived from (subscription, period start), so a period has one at most. */
  invoice: (merchantId: string, invoiceId: string) => ({ PK: `${m(merchantId)}#INVOICE#${invoiceId}`, SK: 'INVOICE' }),
  /** A payout. */
  payout: (merchantId: string, payoutId: string) => ({ PK: `${m(merchantId)}#PAYOUT#${payoutId}`, SK: 'PAYOUT' }),
  /** The guard that keeps a merchant's payout `reference` unique: holds the payout's id under the reference. */
  payoutReference: (merchantId: string, reference: string) => ({ PK: `${m(merchantId)}#PAYOUT_REF#${reference}`, SK: 'PAYOUT_REF' }),
  /**
   * What a merchant sent in payouts on one UTC day in one currency: `shard` undefined is the one counter payouts
   * reserved in before the counter was sharded (only released now); 0…7 one shard of the daily limit
   * (shared/storage/payout-daily-limit.ts), each its own partition.
   */
  payoutDailyTotal: (merchantId: string, day: string, currency: string, shard?: number) => ({
    PK: `${m(merchantId)}#PAYOUT_DAY#${day}#${currency}${shard === undefined ? '' : `#${shard}`}`,
    SK: 'PAYOUT_DAY',
  }),
  /** A merchant's profile: the display of its payment links' checkout pages (name, logo, colour, framing origins). */
  merchantProfile: (merchantId: string) => ({ PK: `${m(merchantId)}#PROFILE`, SK: 'PROFILE' }),
  /** A payment link. */
  paymentLink: (merchantId: string, paymentLinkId: string) => ({
    PK: `${m(merchantId)}#PAYMENT_LINK#${paymentLinkId}`,
    SK: 'PAYMENT_LINK',
  }),
  /**
   * The once-only mark of a place given back to a payment link by one of its payments that failed: in the link's
   * partition, so the give-back and its mark are one transaction and a second give-back for the payment is refused.
   */
  paymentLinkRelease: (merchantId: string, paymentLinkId: string, paymentId: string) => ({
    PK: `${m(merchantId)}#PAYMENT_LINK#${paymentLinkId}`,
    SK: `RELEASE#${paymentId}`,
  }),
};

/**
 * Partition values of the list indexes. `payments`, `paymentsByStatus`, `customers`, `subscriptions`,
 * `subscriptionsByStatus`, `events` and `eventsByType` are shard 0 of a sharded list: shard k ≥ 1 is `shardPartition(value, k)`
 * (shared/storage/list-shards.ts); the others are never sharded (docs/sharding.md).
 */
export const listPartition = {
  /** GSI1: all payments of a merchant. */
  payments: (merchantId: string) => `${m(merchantId)}#PAYMENTS`,
  /** GSI2: payments of a merchant in one status. */
  paymentsByStatus: (merchantId: string, status: string) => `${m(merchantId)}#PAYMENTS#STATUS#${status}`,
  /** GSI3: payments linked to one customer. */
  paymentsByCustomer: (merchantId: string, customerId: string) => `${m(merchantId)}#CUSTOMER#${customerId}#PAYMENTS`,
  /** GSI1: the saved payment methods of one customer. */
  paymentMethodsOfCustomer: (merchantId: string, customerId: string) => `${m(merchantId)}#CUSTOMER#${customerId}#PAYMENT_METHODS`,
  /** GSI1: all customers of a merchant. */
  customers: (merchantId: string) => `${m(merchantId)}#CUSTOMERS`,
  /** GSI2: customers of a merchant with one e-mail (lower-cased). */
  customersByEmail: (merchantId: string, email: string) => `${m(merchantId)}#CUSTOMERS#EMAIL#${email.toLowerCase()}`,
  /** GSI2: every refund of a merchant (sharded like payments: shard k ≥ 1 is `shardPartition(value, k)`). */
  refunds: (merchantId: string) => `${m(merchantId)}#REFUNDS`,
  /** GSI1: refunds of one payment. */
  refundsOfPayment: (merchantId: string, paymentId: string) => `${m(merchantId)}#PAYMENT#${paymentId}#REFUNDS`,
  /** GSI1: API keys of a merchant. */
  apiKeys: (merchantId: string) => `${m(merchantId)}#APIKEYS`,
  /** GSI1: events of a merchant. */
  events: (merchantId: string) => `${m(merchantId)}#EVENTS`,
  /** GSI2: events of a merchant of one type. */
  eventsByType: (merchantId: string, type: string) => `${m(merchantId)}#EVENTS#TYPE#${type}`,
  /** GSI1: all subscriptions of a merchant (sharded like customers). */
  subscriptions: (merchantId: string) => `${m(merchantId)}#SUBSCRIPTIONS`,
  /** GSI2: subscriptions of a merchant in one status (sharded; the entry moves when the status changes). */
  subscriptionsByStatus: (merchantId: string, status: string) => `${m(merchantId)}#SUBSCRIPTIONS#STATUS#${status}`,
  /** GSI3: subscriptions of one customer (not sharded, like a customer's payments). */
  subscriptionsOfCustomer: (merchantId: string, customerId: string) => `${m(merchantId)}#CUSTOMER#${customerId}#SUBSCRIPTIONS`,
  /** GSI1: invoices of one subscription (one per period; not sharded). */
  invoicesOfSubscription: (merchantId: string, subscriptionId: string) => `${m(merchantId)}#SUBSCRIPTION#${subscriptionId}#INVOICES`,
  /** GSI1: disputes of a merchant (few: not sharded). */
  disputes: (merchantId: string) => `${m(merchantId)}#DISPUTES`,
  /** GSI2: disputes of a merchant in one status (the entry moves with the status). */
  disputesByStatus: (merchantId: string, status: string) => `${m(merchantId)}#DISPUTES#STATUS#${status}`,
  /** GSI3: disputes of one payment. */
  disputesOfPayment: (merchantId: string, paymentId: string) => `${m(merchantId)}#PAYMENT#${paymentId}#DISPUTES`,
  /** GSI1: every payout of a merchant (sharded like payments). */
  payouts: (merchantId: string) => `${m(merchantId)}#PAYOUTS`,
  /** GSI2: payouts of a merchant in one status (sharded; the entry moves with the status). */
  payoutsByStatus: (merchantId: string, status: string) => `${m(merchantId)}#PAYOUTS#STATUS#${status}`,
  /** GSI3: payouts of one customer (not sharded). */
  payoutsOfCustomer: (merchantId: string, customerId: string) => `${m(merchantId)}#CUSTOMER#${customerId}#PAYOUTS`,
  /** GSI1: webhook endpoints of a merchant. */
  webhookEndpoints: (merchantId: string) => `${m(merchantId)}#WEBHOOK_ENDPOINTS`,
  /** GSI1: payment links of a merchant (not sharded: a merchant creates links by hand, not per payment). */
  paymentLinks: (merchantId: string) => `${m(merchantId)}#PAYMENT_LINKS`,
  /** GSI2: payment links of a merchant that are active (`true`) or deactivated (`false`); the entry moves on deactivation. */
  paymentLinksByActive: (merchantId: string, active: boolean) => `${m(merchantId)}#PAYMENT_LINKS#ACTIVE#${active}`,
  /**
   * GSI3: payments created on one payment link's page. Such a payment carries no customer, so its GSI3 entry (a
   * customer's payments otherwise) is free for the link; a payment with a customer stays in its customer's list.
   */
  paymentsOfLink: (merchantId: string, paymentLinkId: string) => `${m(merchantId)}#PAYMENT_LINK#${paymentLinkId}#PAYMENTS`,
};

/** GSI4: a payment, refund or connector account found by its id alone (connector webhooks carry no merchant). */
export const idLookup = {
  payment: (paymentId: string) => ({ GSI4PK: `PAYMENT#${paymentId}`, GSI4SK: ENTITY_SK.payment }),
  refund: (refundId: string) => ({ GSI4PK: `REFUND#${refundId}`, GSI4SK: ENTITY_SK.refund }),
  payout: (payoutId: string) => ({ GSI4PK: `PAYOUT#${payoutId}`, GSI4SK: 'PAYOUT' }),
  connectorAccount: (merchantConnectorId: string) => ({ GSI4PK: `MCA#${merchantConnectorId}`, GSI4SK: 'MCA' }),
  /** The public checkout page names a link by its id alone. */
  paymentLink: (paymentLinkId: string) => ({ GSI4PK: `PAYMENT_LINK#${paymentLinkId}`, GSI4SK: 'PAYMENT_LINK' }),
};

/**
 * A merchant's connector configuration partition: its connector accounts (`MCA#<id>`), their label
 * claims (`LABEL#<label>`, uniqueness per merchant), its routing profile (`PROFILE`: the active
 * algorithm's copy and the default fallback list) and the count of its live accounts (`COUNT#MCA`,
 * changed in the transaction of every create and delete: shared/storage/limit-counters.ts). Small and
 * bounded (docs/api.md "Connector accounts": at most 50 accounts), written only when a merchant changes
 * its setup, read whole by one Query and cached per container, so routing a payment costs no read of its own.
 */
export const connectorConfig = {
  partition: (merchantId: string) => `${m(merchantId)}#CONNECTOR_CONFIG`,
  account: (merchantId: string, merchantConnectorId: string) => ({
    PK: `${m(merchantId)}#CONNECTOR_CONFIG`,
    SK: `MCA#${merchantConnectorId}`,
  }),
  label: (merchantId: string, label: string) => ({ PK: `${m(merchantId)}#CONNECTOR_CONFIG`, SK: `LABEL#${label}` }),
  profile: (merchantId: string) => ({ PK: `${m(merchantId)}#CONNECTOR_CONFIG`, SK: 'PROFILE' }),
  /** The count of the merchant's live (not deleted) connector accounts. */
  accountCount: (merchantId: string) => ({ PK: `${m(merchantId)}#CONNECTOR_CONFIG`, SK: 'COUNT#MCA' }),
};

/**
 * A merchant's routing algorithms: one partition, one item each (`ALGORITHM#<id>`), bounded (at most 100), and
 * their count (`COUNT`, changed in the transaction of every create: shared/storage/limit-counters.ts).
 */
export const routingAlgorithmKeys = {
  partition: (merchantId: string) => `${m(merchantId)}#ROUTING_ALGORITHMS`,
  /** Sort key prefix of the algorithms themselves (the partition's other item is the count). */
  algorithmPrefix: 'ALGORITHM#',
  algorithm: (merchantId: string, algorithmId: string) => ({ PK: `${m(merchantId)}#ROUTING_ALGORITHMS`, SK: `ALGORITHM#${algorithmId}` }),
  count: (merchantId: string) => ({ PK: `${m(merchantId)}#ROUTING_ALGORITHMS`, SK: 'COUNT' }),
};

/** The record of one applied connector webhook event (idempotent application). */
export const webhookEventKey = (connector: string, eventId: string) => ({ PK: `WEBHOOK#${connector}#${eventId}`, SK: 'WEBHOOK' });

/**
 * The delivery counter of one connector webhook event that names a payment or refund found
 * nowhere (docs/connectors.md "Webhooks": acknowledged as unmatched after a bound).
 */
export const unmatchedWebhookKey = (connector: string, eventId: string) => ({
  PK: `UNMATCHED_WEBHOOK#${connector}#${eventId}`,
  SK: 'UNMATCHED_WEBHOOK',
});

/** Open-operations index partitions when `OPEN_INDEX_SHARDS` is not set (local runs, tests, dev). */
export const DEFAULT_OPEN_INDEX_SHARDS = 16;

/**
 * Number of partitions the open-operations index (GSI5) is spread over, from `OPEN_INDEX_SHARDS`
 * (the stage config's `openIndexShards`; default {@link DEFAULT_OPEN_INDEX_SHARDS}). Writes divide
 * over the shards, so the count is sized by `npm run capacity` (docs/capacity.md: 16 take about
 * 2,000 payments/s at 80 % of a partition, prod needs ≥ 129 at 10,000/s). **Only ever raise it**:
 * the reconciler reads shards `0..n-1`, so items written under a smaller count stay in reach, while
 * lowering it would strand those above the new count until they next change. A value that is not a
 * whole number from 1 to 1,000 is ignored (the default applies).
 */
export const OPEN_INDEX_SHARDS = openIndexShardCount(process.env.OPEN_INDEX_SHARDS);

/**
 * Parses an `OPEN_INDEX_SHARDS` value.
 * @param raw the environment value (may be absent)
 * @returns a whole number 1–1,000, or {@link DEFAULT_OPEN_INDEX_SHARDS}
 */
export function openIndexShardCount(raw: string | undefined): number {
  return wholeNumberSetting(raw, { min: 1, max: 1000 }, DEFAULT_OPEN_INDEX_SHARDS);
}

/** The GSI5 partition of an item: `OPEN#<0..n-1>` ({@link OPEN_INDEX_SHARDS}), from a hash of its id, so no single partition takes every open item. */
export function openShard(id: string): string {
  let h = 0;
  for (let i = 0; i < id.length; i += 1) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return `OPEN#${h % OPEN_INDEX_SHARDS}`;
}

/** Every GSI5 partition, for the reconciler's Queries. */
export const openShards = (): string[] => Array.from({ length: OPEN_INDEX_SHARDS }, (_, i) => `OPEN#${i}`);

/**
 * GSI5 keys of an open item (sparse index: only open items carry them).
 * @param dueAt ISO 8601 UTC: when the item is next due for reconciliation (the sort key starts with it)
 */
export const openIndexKeys = (id: string, dueAt: string) => ({ GSI5PK: openShard(id), GSI5SK: `${dueAt}#${id}` });

/**
 * GSI5 keys of a webhook delivery awaiting a retry: the same index, but partitions of their
 * own (`OPENWH#<0..n-1>`), so a merchant whose endpoint is down (many deliveries due) never
 * fills the partitions the reconciler reads for payments and refunds.
 * @param dueAt ISO 8601 UTC: when the next attempt is due
 */
export const openDeliveryIndexKeys = (id: string, dueAt: string) => ({
  GSI5PK: openShard(id).replace('OPEN#', 'OPENWH#'),
  GSI5SK: `${dueAt}#${id}`,
});

/** Every GSI5 partition of webhook deliveries. */
export const openDeliveryShards = (): string[] => openShards().map((s) => s.replace('OPEN#', 'OPENWH#'));

/**
 * An idempotency record's key: one partition per record (Powertools' layout for tables without a
 * sort key), so keyed requests spread over the table instead of one partition per function.
 * @param idempotencyKey Powertools' hashed key, `<function prefix>#<hash>`
 */
export const idempotencyRecordKey = (idempotencyKey: string) => ({ PK: `idempotency#${idempotencyKey}`, SK: 'IDEMPOTENCY' });

/** Partitions of a merchant's billing-due entries when `BILLING_DUE_SHARDS` is not set. */
export const DEFAULT_BILLING_DUE_SHARDS = 4;
/** Partitions of the billing directory (merchants with billing work). */
export const BILLING_DIRECTORY_SHARDS = 4;

/** When an item's billing work is due, from its GSI5 sort key (`<due>#<id>`), or null when it has no entry. */
export const billingDueAtOf = (item: Record<string, unknown>): string | null =>
  typeof item.GSI5SK === 'string' ? (item.GSI5SK.split('#')[0] ?? null) : null;

/** ISO 8601 UTC with milliseconds, 24 characters: the only form whose text order is time order. */
const FIXED_WIDTH_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A due time as a sort key: fixed width, so the index's text order is time order. A time already in that form is
 * kept as it is (so a key read back names the time written); any other is rewritten in it, within billing
 * time (shared/domain/billing-period.ts `billingTimeOf`: a year past 9999 would be written `+010000-…`, which sorts
 * before `9999-…`).
 * @throws RangeError when `dueAt` is not a timestamp
 */
function dueKeyTime(dueAt: string): string {
  if (FIXED_WIDTH_TIME.test(dueAt)) return dueAt;
  const ms = Date.parse(dueAt);
  if (Number.isNaN(ms)) throw new RangeError('a due time is not a timestamp');
  return billingTimeOf(ms);
}

/**
 * GSI5 keys of billing work that falls due (sparse: only items with work due carry them): a live
 * subscription's next renewal or retry, a saved payment method's expiry notice. Each merchant has partitions of
 * its own (`<merchant>#BILLING_DUE#<0..n-1>`, n = `BILLING_DUE_SHARDS`, default 4), never the reconciler's
 * `OPEN#` ones and never another merchant's, so one merchant's million renewals on the 1st are read, written and
 * worked through in partitions no other merchant shares; the renewal worker finds merchants through the billing
 * directory ({@link billingDirectoryKeys}). Items of a test clock's customers sit in that clock's own partition,
 * due by the clock's time, and only its advance works them.
 */
export const billingDue = {
  shards: (): number => wholeNumberSetting(process.env.BILLING_DUE_SHARDS, { min: 1, max: 100 }, DEFAULT_BILLING_DUE_SHARDS),
  /**
   * @param dueAt ISO 8601 UTC (real time, or the test clock's); written fixed-width ({@link dueKeyTime})
   * @param testClockId the test clock the item lives on, if any
   */
  keys: (merchantId: string, id: string, dueAt: string, testClockId?: string | null) => ({
    GSI5PK: testClockId
      ? billingDue.clockPartition(merchantId, testClockId)
      : `${m(merchantId)}#BILLING_DUE#${stableHash(id) % billingDue.shards()}`,
    GSI5SK: `${dueKeyTime(dueAt)}#${id}`,
  }),
  /** Every real-time due partition of a merchant, for the renewal worker's Queries. */
  partitions: (merchantId: string): string[] => Array.from({ length: billingDue.shards() }, (_, i) => `${m(merchantId)}#BILLING_DUE#${i}`),
  /** The due partition of a test clock. */
  clockPartition: (merchantId: string, testClockId: string) => `${m(merchantId)}#TEST_CLOCK#${testClockId}#DUE`,
};

/** GSI5 keys of a merchant's billing directory entry: `BILLING_MERCHANTS#<0..3>`, sorted by merchant id. */
export const billingDirectoryKeys = (merchantId: string) => ({
  GSI5PK: `BILLING_MERCHANTS#${stableHash(merchantId) % BILLING_DIRECTORY_SHARDS}`,
  GSI5SK: merchantId,
});

/** Every billing directory partition. */
export const billingDirectoryPartitions = (): string[] =>
  Array.from({ length: BILLING_DIRECTORY_SHARDS }, (_, i) => `BILLING_MERCHANTS#${i}`);

/**
 * Success-rate routing's outcome counters of a merchant (shared/storage/routing-outcomes-repository.ts): one item
 * per (account, segment, minute bucket, write shard), in {@link ROUTING_OUTCOME_SHARDS} partitions per merchant so
 * one busy merchant's outcome writes never all land on one partition. The sort key starts with the bucket's start
 * (epoch ms, 15 digits, zero-padded), so "every counter since" is one Query per shard.
 */
export const ROUTING_OUTCOME_SHARDS = 8;

/** Keys of {@link ROUTING_OUTCOME_SHARDS} outcome counter partitions. */
export const routingOutcomeKeys = {
  partition: (merchantId: string, shard: number) => `${m(merchantId)}#ROUTING_OUTCOMES#${shard}`,
  /** The sort key of "buckets starting at or after" (a Query's lower bound). */
  since: (bucketStartMs: number) => String(bucketStartMs).padStart(15, '0'),
  counter: (merchantId: string, shard: number, bucketStartMs: number, merchantConnectorId: string, segment: string) => ({
    PK: `${m(merchantId)}#ROUTING_OUTCOMES#${shard}`,
    SK: `${String(bucketStartMs).padStart(15, '0')}#${merchantConnectorId}#${segment}`,
  }),
};
