import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { payoutStatusEvent } from '../domain/events';
import type { ListPage, ListQuery } from '../domain/list-query';
import {
  OPEN_PAYOUT_STATUSES,
  PAYOUT_FIELDS,
  type Payout,
  type PayoutMethodData,
  type PayoutNextAction,
  type PayoutStatus,
  viewPayoutMethod,
} from '../domain/payout';
import { type PendingOperation, viewPendingOperation } from '../domain/pending-operation';
import { nextCheckAt } from '../settings/reconcile-settings';
import { documentClient } from './client';
import { eventWrite } from './events-repository';
import { idLookup, listPartition, listSortKey, openIndexKeys, primaryKey } from './item-keys';
import { type ListLocation, pickFields, queryListPage } from './list-items';
import { shardCount, shardOf, shardPartition } from './list-shards';
import {
  homeShard,
  type LimitParts,
  MAX_SPREAD_ATTEMPTS,
  planSpread,
  readShardTotals,
  releaseWrites,
  reservationWrites,
  shardAllowances,
} from './payout-daily-limit';
import { ConditionFailedError, ItemExistsError } from './storage-errors';
import { tableName } from './table-definition';

/**
 * A payout as stored: the API object, the whole destination (kept to send it; the API shows its last 4 digits
 * only) and the bookkeeping of its sends and its reconciliation.
 */
export interface StoredPayout {
  payout: Payout;
  /** The destination as given. */
  method: PayoutMethodData;
  /** The send (or OTP) in flight whose answer is not recorded yet. */
  pendingOperation: PendingOperation | null;
  merchantId: string;
  /** Bumped by every write: every status change is conditional on the version read. */
  version: number;
  /** Wrong OTPs so far. */
  otpAttempts: number;
  /** ISO 8601 UTC: when the payout was first sent to its processor; null before. */
  sentAt: string | null;
  /** The UTC day (`YYYY-MM-DD`) whose daily payout total holds this payout's amount; null when none does. */
  limitDay: string | null;
  /**
   * How its amount is spread over that day's limit shards (./payout-daily-limit.ts), minor units per shard; null when
   * none holds it, or when it was reserved in the one counter of before the sharding.
   */
  limitParts: LimitParts | null;
  /** ISO 8601 UTC: a later look the processor announced (a sandbox reversal); null when none. */
  recheckAt: string | null;
  /** The keyed hash of the keyed request that sent it, when it had an `Idempotency-Key`; null otherwise. */
  confirmRequest: string | null;
  /** How many list shards its events go to. */
  listShards: number;
  reconcileChecks: number;
}

/** A payout's reference is taken by another payout of the merchant. */
export class PayoutReferenceTakenError extends Error {
  constructor(readonly payoutId: string | undefined) {
    super('This reference is already used by another payout.');
    this.name = 'PayoutReferenceTakenError';
  }
}

/** The merchant's payouts of the day in this currency would exceed its daily limit. */
export class PayoutDailyLimitError extends Error {
  constructor(readonly sentToday: number | undefined) {
    super("The day's payout limit would be exceeded.");
    this.name = 'PayoutDailyLimitError';
  }
}

const ENTITY = 'payout';

/** `limit_parts` as stored (a map of shard index → minor units), or null. */
function partsOf(value: unknown): LimitParts | null {
  if (!value || typeof value !== 'object') return null;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [Number(k), Number(v)]));
}

/** The day's limit refused a reservation (a shard's condition failed). */
class LimitRefused extends Error {}

function toStoredPayout(item: Record<string, unknown>): StoredPayout {
  const pendingOperation = (item.pending_operation as PendingOperation | undefined) ?? null;
  const method = item.payout_method_data as PayoutMethodData;
  const payout = pickFields<Payout>({ ...item, payout_method: viewPayoutMethod(method) }, PAYOUT_FIELDS);
  payout.pending_operation = viewPendingOperation(pendingOperation);
  payout.metadata = (item.metadata as Record<string, string> | undefined) ?? {};
  return {
    payout,
    method,
    pendingOperation,
    merchantId: String(item.merchant_id),
    version: Number(item.version ?? 0),
    otpAttempts: Number(item.otp_attempts ?? 0),
    sentAt: (item.sent_at as string | undefined) ?? null,
    limitDay: (item.limit_day as string | undefined) ?? null,
    limitParts: partsOf(item.limit_parts),
    recheckAt: (item.recheck_at as string | undefined) ?? null,
    confirmRequest: (item.confirm_request as string | undefined) ?? null,
    listShards: shardCount(item.list_shards),
    reconcileChecks: Number(item.reconcile_checks ?? 0),
  };
}

/** Whether a payout in this state stays in the open-operations index (GSI5), and when it is next due. */
function openDue(status: PayoutStatus, claim: PendingOperation | null, recheckAt: string | null, nowMs: number): string | null {
  if (claim) return claim.lease_expires_at;
  if (OPEN_PAYOUT_STATUSES.includes(status)) return nextCheckAt(0, nowMs);
  return recheckAt;
}

/**
 * Writes a new payout with its `payout.created` event, and the guard of its `reference` when it has one: one
 * `TransactWriteItems`, so a payout never exists without its event, and two payouts never share a reference.
 * @param writeShards the merchant's list shard `write` count
 * @throws ItemExistsError when the payout id exists (an `Idempotency-Key` already used)
 * @throws PayoutReferenceTakenError when another payout of the merchant holds the reference (its id when read)
 */
export async function createPayout(merchantId: string, payout: Payout, method: PayoutMethodData, writeShards = 1): Promise<StoredPayout> {
  const { pending_operation: _pending, payout_method: _view, ...fields } = payout;
  const k = shardOf(payout.payout_id, writeShards);
  const sk = listSortKey(payout.created_at, payout.payout_id);
  const item: Record<string, unknown> = {
    ...primaryKey.payout(merchantId, payout.payout_id),
    GSI1PK: shardPartition(listPartition.payouts(merchantId), k),
    GSI1SK: sk,
    GSI2PK: shardPartition(listPartition.payoutsByStatus(merchantId, payout.status), k),
    GSI2SK: sk,
    ...(payout.customer_id ? { GSI3PK: listPartition.payoutsOfCustomer(merchantId, payout.customer_id), GSI3SK: sk } : {}),
    ...idLookup.payout(payout.payout_id),
    entity: ENTITY,
    merchant_id: merchantId,
    version: 1,
    otp_attempts: 0,
    ...(writeShards > 1 ? { list_shards: writeShards } : {}),
    ...fields,
    payout_method_data: method,
  };
  const transact = [
    { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
    ...(payout.reference
      ? [
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...primaryKey.payoutReference(merchantId, payout.reference),
                entity: 'payout_reference',
                merchant_id: merchantId,
                payout_id: payout.payout_id,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
            },
          },
        ]
      : []),
    eventWrite(merchantId, 'payout.created', payout, payout.created_at, writeShards).put,
  ];
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: transact }));
  } catch (err) {
    if (err instanceof TransactionCanceledException) {
      const reasons = err.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') throw new ItemExistsError(payout.payout_id);
      if (payout.reference && reasons[1]?.Code === 'ConditionalCheckFailed') {
        const old = reasons[1].Item ? unmarshall(reasons[1].Item as never) : undefined;
        throw new PayoutReferenceTakenError(old?.payout_id as string | undefined);
      }
    }
    throw err;
  }
  return toStoredPayout(item);
}

/** One strongly consistent read of a payout; undefined when it does not exist for this merchant. */
export async function getStoredPayout(merchantId: string, payoutId: string): Promise<StoredPayout | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.payout(merchantId, payoutId), ConsistentRead: true }),
  );
  return out.Item ? toStoredPayout(out.Item) : undefined;
}

/** A change of a payout: only the fields given change (`undefined` keeps; `null` clears). */
export interface PayoutChange {
  status?: PayoutStatus;
  connector_payout_id?: string | null;
  fee?: number | null;
  error_code?: string | null;
  error_message?: string | null;
  next_action?: PayoutNextAction | null;
  /** The send's claim: written before the processor call, cleared (`null`) with its answer. */
  pending_operation?: PendingOperation | null;
  otp_attempts?: number;
  sent_at?: string;
  /** The keyed hash naming the keyed request that sent it (`PendingOperation.request`), so that request's retry recognises its send. */
  confirm_request?: string;
  recheck_at?: string | null;
  /**
   * Reserve the payout's amount in the merchant's total of `day` for its currency, within `max` minor units (the
   * claim of a send): the total and the claim are one transaction.
   */
  reserveLimit?: { day: string; max: number };
}

/**
 * Applies a change to a payout: one `TransactWriteItems` conditional on the version read (so a lost race changes
 * nothing), with the payout's event when its status changes to one that has one ({@link payoutStatusEvent}: the
 * outbox), the daily total's reservation when asked, and its release when the payout fails (nothing was sent). Keeps
 * the status list (GSI2) and the open-operations index (GSI5: due when a claim's lease ends, or at the next check
 * while `Processing`/`RequiresAction`, or at `recheck_at`) in step. The transaction carries a `ClientRequestToken` of its
 * own, so the SDK retrying a write whose answer was lost applies it once.
 * @returns the payout after the write
 * @throws ConditionFailedError (with the payout as stored now) when the version changed since the read
 * @throws PayoutDailyLimitError when the reservation does not fit the day's limit
 */
export async function updatePayout(stored: StoredPayout, change: PayoutChange, nowMs = Date.now()): Promise<StoredPayout> {
  const reserve = change.reserveLimit;
  if (!reserve) return writePayout(stored, change, nowMs, null);
  const { amount, currency, payout_id } = stored.payout;
  const allowances = shardAllowances(reserve.max);
  const home = homeShard(payout_id);
  // The home shard alone first, with no read; then spread over the shards with room, read first.
  let parts: LimitParts | null = amount <= (allowances[home] ?? 0) ? { [home]: amount } : null;
  for (let spreads = 0; ; ) {
    if (!parts) {
      const totals = await readShardTotals(stored.merchantId, reserve.day, currency);
      parts = planSpread(amount, allowances, totals, home);
      spreads += 1;
      if (!parts) throw new PayoutDailyLimitError(totals.reduce((a, b) => a + Math.min(b, reserve.max), 0));
    }
    try {
      return await writePayout(stored, change, nowMs, parts);
    } catch (err) {
      if (!(err instanceof LimitRefused)) throw err;
      if (spreads >= MAX_SPREAD_ATTEMPTS) throw new PayoutDailyLimitError(undefined);
      parts = null;
    }
  }
}

/** {@link updatePayout}'s one transaction, with the reservation's parts when it reserves. @throws LimitRefused */
async function writePayout(stored: StoredPayout, change: PayoutChange, nowMs: number, parts: LimitParts | null): Promise<StoredPayout> {
  const { merchantId } = stored;
  const before = stored.payout;
  const now = new Date(nowMs).toISOString();
  const status = change.status ?? before.status;
  const claim = change.pending_operation === undefined ? stored.pendingOperation : change.pending_operation;
  const recheckAt = change.recheck_at === undefined ? stored.recheckAt : change.recheck_at;
  const releases = status === 'Failed' && before.status !== 'Failed' && stored.limitDay !== null;
  const set: Record<string, unknown> = { status, updated_at: now, version: stored.version + 1 };
  for (const field of [
    'connector_payout_id',
    'fee',
    'error_code',
    'error_message',
    'next_action',
    'otp_attempts',
    'sent_at',
    'confirm_request',
  ] as const) {
    if (change[field] !== undefined) set[field] = change[field];
  }
  if (change.reserveLimit && parts) {
    set.limit_day = change.reserveLimit.day;
    set.limit_parts = parts;
  }
  const remove: string[] = [];
  if (claim) set.pending_operation = claim;
  else remove.push('pending_operation');
  if (recheckAt) set.recheck_at = recheckAt;
  else remove.push('recheck_at');
  if (releases) remove.push('limit_day', 'limit_parts');
  if (status !== before.status) {
    set.GSI2PK = shardPartition(listPartition.payoutsByStatus(merchantId, status), shardOf(before.payout_id, stored.listShards));
  }
  const due = openDue(status, claim, recheckAt, nowMs);
  if (due) Object.assign(set, openIndexKeys(before.payout_id, due));
  else remove.push('GSI5PK', 'GSI5SK', 'open_since', 'reconcile_checks');
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':read': stored.version };
  const assignments = Object.entries(set).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  if (due) {
    names['#openSince'] = 'open_since';
    values[':openSince'] = stored.payout.updated_at > now ? stored.payout.updated_at : now;
    assignments.push('#openSince = if_not_exists(#openSince, :openSince)');
  }
  const removals = remove.map((field, i) => {
    names[`#r${i}`] = field;
    return `#r${i}`;
  });
  const afterRecord: StoredPayout = {
    ...stored,
    payout: {
      ...before,
      status,
      ...(change.connector_payout_id !== undefined ? { connector_payout_id: change.connector_payout_id } : {}),
      ...(change.fee !== undefined ? { fee: change.fee } : {}),
      ...(change.error_code !== undefined ? { error_code: change.error_code } : {}),
      ...(change.error_message !== undefined ? { error_message: change.error_message } : {}),
      ...(change.next_action !== undefined ? { next_action: change.next_action } : {}),
      pending_operation: viewPendingOperation(claim, nowMs),
      updated_at: now,
    },
    pendingOperation: claim,
    version: stored.version + 1,
    otpAttempts: change.otp_attempts ?? stored.otpAttempts,
    sentAt: change.sent_at ?? stored.sentAt,
    confirmRequest: change.confirm_request ?? stored.confirmRequest,
    limitDay: releases ? null : (change.reserveLimit?.day ?? stored.limitDay),
    limitParts: releases ? null : (parts ?? stored.limitParts),
    recheckAt,
  };
  const eventType = payoutStatusEvent(before.status, status);
  const transact: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
    {
      Update: {
        TableName: tableName(),
        Key: primaryKey.payout(merchantId, before.payout_id),
        UpdateExpression: `SET ${assignments.join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
        ConditionExpression: '#version = :read',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    ...(eventType ? [eventWrite(merchantId, eventType, afterRecord.payout, now, stored.listShards).put] : []),
  ];
  const firstLimitItem = transact.length;
  if (change.reserveLimit && parts) {
    transact.push(
      ...reservationWrites(merchantId, change.reserveLimit.day, before.currency, parts, shardAllowances(change.reserveLimit.max)),
    );
  } else if (releases && stored.limitDay) {
    transact.push(...releaseWrites(merchantId, stored.limitDay, before.currency, stored.limitParts, before.amount));
  }
  // One token per call: the SDK's own retries of this transaction (an answer lost on the way) apply it once.
  const token = randomUUID();
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: transact, ClientRequestToken: token }));
  } catch (err) {
    if (err instanceof TransactionCanceledException) {
      const reasons = err.CancellationReasons ?? [];
      if (reasons[0]?.Code === 'ConditionalCheckFailed') {
        throw new ConditionFailedError<StoredPayout>(reasons[0].Item ? toStoredPayout(unmarshall(reasons[0].Item as never)) : undefined);
      }
      if (change.reserveLimit && reasons.slice(firstLimitItem).some((r) => r?.Code === 'ConditionalCheckFailed')) throw new LimitRefused();
    }
    throw err;
  }
  return afterRecord;
}

/**
 * Cuts a payout's claim short (its request is ending without having recorded the processor's answer): the lease
 * ends at `leaseEndsAt` and the payout is due in the open-operations index then (as `handOverRefundClaim`). One
 * conditional write on the version read.
 * @returns `handedOver: true`, or the payout as stored now when the version changed (the write the request thought
 *   failed was applied, or a webhook settled it)
 */
export async function handOverPayoutClaim(
  stored: StoredPayout,
  leaseEndsAt: string,
): Promise<{ handedOver: true } | { handedOver: false; current: StoredPayout | undefined }> {
  if (!stored.pendingOperation) return { handedOver: false, current: stored };
  try {
    await updatePayout(stored, { pending_operation: { ...stored.pendingOperation, lease_expires_at: leaseEndsAt } });
    return { handedOver: true };
  } catch (err) {
    if (err instanceof ConditionFailedError) return { handedOver: false, current: err.current as StoredPayout | undefined };
    throw err;
  }
}

/** Filters of {@link listPayouts}: one status, or one customer. */
export interface PayoutListFilters {
  status?: PayoutStatus;
  customer_id?: string;
}

/**
 * Lists a merchant's payouts newest first: all (GSI1), in one status (GSI2), or of one customer (GSI3): a Query on
 * an index per read shard, never a Scan.
 * @param startingAfter the payout named by `starting_after`, already read by the caller
 */
export async function listPayouts(
  merchantId: string,
  query: ListQuery,
  filters: PayoutListFilters,
  startingAfter: Payout | undefined,
  readShards = 1,
): Promise<ListPage<Payout>> {
  const location: ListLocation = filters.customer_id
    ? { indexName: 'GSI3', partitionValue: listPartition.payoutsOfCustomer(merchantId, filters.customer_id) }
    : filters.status
      ? { indexName: 'GSI2', partitionValue: listPartition.payoutsByStatus(merchantId, filters.status), readShards }
      : { indexName: 'GSI1', partitionValue: listPartition.payouts(merchantId), readShards };
  if (startingAfter) {
    location.startAfter = {
      key: primaryKey.payout(merchantId, startingAfter.payout_id),
      createdAt: startingAfter.created_at,
      id: startingAfter.payout_id,
    };
  }
  const page = await queryListPage(location, query);
  return { data: page.items.map((item) => toStoredPayout(item).payout), has_more: page.hasMore };
}

/**
 * Finds which merchant owns a payout, from its id alone (Query on GSI4): for processors' webhooks, which name our
 * reference (the payout id) but no merchant.
 * @returns the merchant id, or undefined when no payout has this id
 */
export async function findPayoutOwner(payoutId: string): Promise<string | undefined> {
  const key = idLookup.payout(payoutId);
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI4',
      KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK = :sk',
      ExpressionAttributeValues: { ':pk': key.GSI4PK, ':sk': key.GSI4SK },
      ProjectionExpression: 'merchant_id',
      Limit: 1,
    }),
  );
  return out.Items?.[0]?.merchant_id as string | undefined;
}
