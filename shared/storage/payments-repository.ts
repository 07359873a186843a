import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { CARD_SUMMARY_FIELDS, type CardSummary } from '../domain/card';
import { PAYMENT_DISPUTE_FIELDS, type PaymentDispute } from '../domain/dispute';
import { paymentStatusEvent } from '../domain/events';
import type { ListPage, ListQuery } from '../domain/list-query';
import { ATTEMPT_FIELDS, type Attempt, PAYMENT_FIELDS, type Payment } from '../domain/payment';
import { ALLOWED_FROM, type PaymentStatus } from '../domain/payment-status';
import { type PendingOperation, viewPendingOperation } from '../domain/pending-operation';
import { nextCheckAt } from '../settings/reconcile-settings';
import { documentClient } from './client';
import { conditionalTransaction, conditionalUpdate, type TransactItems } from './conditional-write';
import { eventWrite } from './events-repository';
import { webhookEventPut } from './inbound-webhooks-repository';
import { idLookup, listPartition, listSortKey, openIndexKeys, primaryKey } from './item-keys';
import { cursorOf, type ListLocation, listPage, pickFields } from './list-items';
import { type ListShards, SINGLE_LIST_SHARD, shardCount, shardOf, shardPartition } from './list-shards';
import { queryPage } from './query-pages';
import { orderedMap, orderedValue, storableMap } from './storable-map';
import { ConditionFailedError, ItemExistsError, LinkedCustomerMissingError } from './storage-errors';
import { tableName } from './table-definition';

/**
 * A payment as stored: the API object plus the optimistic-lock `version` and the
 * processor call in flight or with an unknown outcome, if any (`pending_operation`).
 */
export interface StoredPayment {
  payment: Payment;
  version: number;
  pendingOperation: PendingOperation | null;
  /** How many times the reconciler checked this payment while it stayed open. */
  reconcileChecks: number;
  /**
   * Whether the payment's connector account was pinned by an explicit `merchant_connector_id` at create
   * (`routing_pinned`): its confirm then goes to that account only, as the create asked.
   */
  routingPinned: boolean;
  /**
   * The merchant's list shard `write` count when the payment was created (`list_shards`, absent = 1):
   * its list entries stay in shard `shardOf(payment_id, listShards)` for good, and the events its
   * later changes write are spread over as many shards (shared/storage/list-shards.ts).
   */
  listShards: number;
  /**
   * Answers sent to the processor for the payment's current authentication step and not accepted
   * (`auth_answers`: the step and the count; absent = none): counted in the claim write of each
   * answer, cleared when the processor moves on (shared/operations/payments/payment-authentication.ts).
   * The step values themselves are never stored.
   */
  authAnswers?: AuthAnswers | null;
  /**
   * When the payer return route last asked the processor about this payment (`last_synced_at`,
   * ISO time; absent = never): its cooldown ({@link claimReturnSync}).
   */
  lastSyncedAt?: string | null;
  /**
   * The keyed-request hash of the last claim made by a request with an `Idempotency-Key` (`last_request`;
   * absent = none): kept after the claim is released, so a retry of that request recognises what its first
   * attempt did (`PendingOperation.request`; shared/operations/payments/payment-state.ts `requestToken`).
   */
  lastRequest?: string | null;
}

/** The answers counted against one authentication step (`auth_answers`). */
export interface AuthAnswers {
  /** The step they answered (`submit_pin`, `submit_otp`, …). */
  step: string;
  /** How many were sent to the processor and not accepted (including the one in flight). */
  count: number;
}

/** Reads `auth_answers` (absent or malformed: none). */
function storedAuthAnswers(raw: unknown): AuthAnswers | null {
  if (!raw || typeof raw !== 'object') return null;
  const { step, count } = raw as Record<string, unknown>;
  return typeof step === 'string' && Number.isInteger(Number(count)) ? { step, count: Number(count) } : null;
}

/**
 * Statuses in which a payment waits on its processor or payer — those a processor's answer
 * settles (`connector_update`): such payments are open operations (GSI5).
 */
export const OPEN_PAYMENT_STATUSES: readonly PaymentStatus[] = ALLOWED_FROM.connector_update;

/** Reads the stored claim; items written before claims carried details held only the operation name. */
function storedPendingOperation(item: Record<string, unknown>): PendingOperation | null {
  const raw = item.pending_operation;
  if (!raw) return null;
  if (typeof raw === 'object') return raw as PendingOperation;
  const started = String(item.updated_at ?? new Date(0).toISOString());
  const operation = raw === 'confirm' ? 'authorize' : raw === 'cancel' ? 'void' : 'capture';
  return {
    operation,
    connector: String(item.connector),
    reference: String(item.payment_id),
    amount: Number(item.amount),
    started_at: started,
    lease_expires_at: new Date(Date.parse(started) + 60_000).toISOString(),
  };
}

/**
 * The payment of a stored item (its API fields in order, its bookkeeping read): for repositories whose writes
 * return a payment item (a refund reservation refused with the payment as it is).
 */
export function toStoredPayment(item: Record<string, unknown>): StoredPayment {
  const payment = pickFields<Payment>(item, PAYMENT_FIELDS);
  const pendingOperation = storedPendingOperation(item);
  payment.pending_operation = viewPendingOperation(pendingOperation);
  payment.metadata = orderedMap(payment.metadata);
  payment.billing = orderedValue(payment.billing);
  payment.next_action = orderedValue(payment.next_action);
  // Items written before disputes were recorded have neither field.
  payment.amount_disputed = Number(item.amount_disputed ?? 0);
  payment.disputes = Object.values((item.disputes as Record<string, PaymentDispute> | undefined) ?? {})
    .map((d) => pickFields<PaymentDispute>(d, PAYMENT_DISPUTE_FIELDS))
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  payment.attempts = ((item.attempts as Record<string, unknown>[] | undefined) ?? []).map((a) => pickFields<Attempt>(a, ATTEMPT_FIELDS));
  const methodData = payment.payment_method_data as Record<string, Record<string, unknown> | undefined> | null;
  if (methodData?.card) {
    payment.payment_method_data = { card: pickFields<CardSummary>(methodData.card, CARD_SUMMARY_FIELDS) };
  } else if (methodData?.ussd) {
    payment.payment_method_data = { ussd: { bank_code: String(methodData.ussd.bank_code), bank_name: String(methodData.ussd.bank_name) } };
  }
  return {
    payment,
    version: Number(item.version),
    pendingOperation,
    reconcileChecks: Number(item.reconcile_checks ?? 0),
    routingPinned: item.routing_pinned === true,
    listShards: shardCount(item.list_shards),
    authAnswers: storedAuthAnswers(item.auth_answers),
    lastSyncedAt: typeof item.last_synced_at === 'string' ? item.last_synced_at : null,
    lastRequest: typeof item.last_request === 'string' ? item.last_request : null,
  };
}

/**
 * The list index keys of a payment: GSI1 and GSI2 in its shard, GSI3 (unsharded) for its customer when linked to
 * one, else for its payment link when created on one's page.
 */
function indexKeys(merchantId: string, p: Payment, writeShards: number): Record<string, string> {
  const sk = listSortKey(p.created_at, p.payment_id);
  const k = shardOf(p.payment_id, writeShards);
  return {
    GSI1PK: shardPartition(listPartition.payments(merchantId), k),
    GSI1SK: sk,
    GSI2PK: shardPartition(listPartition.paymentsByStatus(merchantId, p.status), k),
    GSI2SK: sk,
    ...(p.customer_id
      ? { GSI3PK: listPartition.paymentsByCustomer(merchantId, p.customer_id), GSI3SK: sk }
      : p.payment_link_id
        ? { GSI3PK: listPartition.paymentsOfLink(merchantId, p.payment_link_id), GSI3SK: sk }
        : {}),
  };
}

/** One item of a `TransactWriteItems` request (document client shapes). */
export type TransactionItem = TransactItems[number];

/** Conditions an {@link updatePayment} write requires. */
export interface UpdateGuard {
  /** The version the caller read; the write fails if it moved. */
  expectedVersion: number;
  /** The write fails unless the status is one of these. */
  expectedStatuses?: readonly PaymentStatus[];
  /** The write fails while another connector operation is in flight. */
  requireNoPendingOperation?: boolean;
  /**
   * ISO 8601 UTC: the write fails unless the payment's single-use link (`payment_link.expires_at`) expires after this
   * instant (a payment without one fails it too). The checkout page's confirm judges expiry in its claim with it.
   */
  linkOpenAt?: string;
}

/**
 * What creating a payment writes: the payment item (its keys in its list shard) and its
 * `payment.created` event (the outbox), as {@link createPayment} puts them in one transaction.
 * Exported for tests that load many payments with BatchWriteItem.
 * @param shards the merchant's list shard counts; the payment keeps `shards.write` (when above 1)
 * @returns the payment as its GET answers it, its item, the event write and the kept shard count
 */
export function paymentCreationWrites(
  merchantId: string,
  payment: Payment,
  pendingOperation?: PendingOperation,
  shards: ListShards = SINGLE_LIST_SHARD,
  options: { routingPinned?: boolean } = {},
): { payment: Payment; item: Record<string, unknown>; event: ReturnType<typeof eventWrite>; listShards: number } {
  const { pending_operation: _view, ...fields } = payment;
  const writeShards = shardCount(shards.write);
  const item = {
    ...primaryKey.payment(merchantId, payment.payment_id),
    ...indexKeys(merchantId, payment, writeShards),
    ...(writeShards > 1 ? { list_shards: writeShards } : {}),
    ...idLookup.payment(payment.payment_id),
    ...(pendingOperation
      ? { ...openIndexKeys(payment.payment_id, pendingOperation.lease_expires_at), open_since: payment.created_at }
      : {}),
    entity: 'payment',
    merchant_id: merchantId,
    version: 1,
    ...(options.routingPinned ? { routing_pinned: true } : {}),
    ...fields,
    ...(pendingOperation ? { pending_operation: pendingOperation } : {}),
    ...(pendingOperation?.request ? { last_request: pendingOperation.request } : {}),
    metadata: storableMap(payment.metadata),
  };
  const created = {
    ...payment,
    metadata: orderedMap(payment.metadata),
    billing: orderedValue(payment.billing),
    next_action: orderedValue(payment.next_action),
    pending_operation: viewPendingOperation(pendingOperation ?? null),
  };
  const event = eventWrite(merchantId, 'payment.created', created, payment.created_at, writeShards);
  return { payment: created, item, event, listShards: writeShards };
}

/**
 * Creates a payment item with its `payment.created` event, in one `TransactWriteItems`
 * (the outbox); with a `customer_id` the same transaction also checks the customer
 * exists and is not being deleted, so a payment can never be linked to a missing customer.
 * A payment created already claimed (create with confirm) is an open operation (GSI5) from its first write.
 * The payment's list entries (GSI1, GSI2) go to shard `shardOf(payment_id, shards.write)` and it keeps
 * `shards.write` as `list_shards` (only when above 1), so every later status change rewrites its GSI2
 * key in the same shard; `payment.created` is spread over `shards.write` shards too.
 * @param pendingOperation set when the payment is created already claimed for a connector call (create with confirm)
 * @param shards the merchant's list shard counts (the request's, from its API key); default one shard
 * @param options `routingPinned`: the create named its connector account (`merchant_connector_id`), kept as
 *   `routing_pinned` so the confirm goes there only
 *   `alsoWrite`: one more conditional write of the same transaction (a payment link's place taken for the payment),
 *   so the payment exists exactly when it succeeds
 * @throws LinkedCustomerMissingError when `payment.customer_id` does not exist (or is being deleted) for the merchant
 * @throws ItemExistsError when a payment with this id already exists (an idempotent retry)
 * @throws ConditionFailedError when the condition of `options.alsoWrite` failed (nothing was written)
 */
export async function createPayment(
  merchantId: string,
  payment: Payment,
  pendingOperation?: PendingOperation,
  shards: ListShards = SINGLE_LIST_SHARD,
  options: { routingPinned?: boolean; alsoWrite?: TransactionItem } = {},
): Promise<StoredPayment> {
  const writes = paymentCreationWrites(merchantId, payment, pendingOperation, shards, options);
  const created = writes.payment;
  const put = { TableName: tableName(), Item: writes.item, ConditionExpression: 'attribute_not_exists(PK)' };
  // The outbox: `payment.created` is written with the payment, in the same transaction.
  const event = writes.event.put;
  const customerCheck = payment.customer_id
    ? [
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: primaryKey.customer(merchantId, payment.customer_id),
            ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting_since)',
          },
        },
      ]
    : [];
  const alsoWrite = options.alsoWrite ? [options.alsoWrite] : [];
  const out = await conditionalTransaction([{ Put: put }, event, ...customerCheck, ...alsoWrite]);
  if (!out.written) {
    if (out.conditionFailed[0]) throw new ItemExistsError(payment.payment_id);
    if (payment.customer_id && out.conditionFailed[2]) throw new LinkedCustomerMissingError(payment.customer_id);
    if (options.alsoWrite && out.conditionFailed[2 + customerCheck.length])
      throw new ConditionFailedError(out.current[2 + customerCheck.length]);
    throw out.error;
  }
  return {
    payment: created,
    version: 1,
    pendingOperation: pendingOperation ?? null,
    reconcileChecks: 0,
    routingPinned: Boolean(options.routingPinned),
    listShards: writes.listShards,
    lastRequest: pendingOperation?.request ?? null,
  };
}

/** One strongly consistent read of a payment; undefined when it does not exist for this merchant. */
export async function getPayment(merchantId: string, paymentId: string): Promise<StoredPayment | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.payment(merchantId, paymentId), ConsistentRead: true }),
  );
  return out.Item ? toStoredPayment(out.Item) : undefined;
}

/** The UpdateItem parameters of a guarded payment change (shared by the single update and the webhook transaction). */
function paymentUpdate(
  merchantId: string,
  paymentId: string,
  guard: UpdateGuard,
  set: Partial<Payment>,
  pendingOperation: PendingOperation | null | undefined,
  listShards: number,
  authAnswers?: AuthAnswers | null,
) {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':expected': guard.expectedVersion, ':next': guard.expectedVersion + 1 };
  const sets = ['#version = :next'];
  const removes: string[] = [];
  const now = new Date().toISOString();
  const fields: Record<string, unknown> = { ...set, updated_at: set.updated_at ?? now };
  delete fields.pending_operation; // the API view; the stored record is the pendingOperation argument
  // The status index entry stays in the shard the payment was created in.
  if (set.status) fields.GSI2PK = shardPartition(listPartition.paymentsByStatus(merchantId, set.status), shardOf(paymentId, listShards));
  // The open-operations index (GSI5): a claim is due when its lease ends; an open status after the minimum age.
  let open: { dueAt: string } | false | undefined;
  if (pendingOperation) open = { dueAt: pendingOperation.lease_expires_at };
  else if (set.status) open = OPEN_PAYMENT_STATUSES.includes(set.status) ? { dueAt: nextCheckAt(0) } : false;
  else if (pendingOperation === null) throw new Error('Releasing a claim needs the resulting status (set.status).');
  if (open && pendingOperation) {
    // A new processor call: its own open period and back-off start with it.
    Object.assign(fields, openIndexKeys(paymentId, open.dueAt), { open_since: pendingOperation.started_at, reconcile_checks: 0 });
  } else if (open) {
    Object.assign(fields, openIndexKeys(paymentId, open.dueAt));
    names['#openSince'] = 'open_since';
    values[':openSince'] = now;
    sets.push('#openSince = if_not_exists(#openSince, :openSince)');
  } else if (open === false) {
    removes.push('GSI5PK', 'GSI5SK', 'open_since', 'reconcile_checks');
  }
  if (set.customer_id === null) removes.push('GSI3PK', 'GSI3SK');
  Object.entries(fields).forEach(([k, v], i) => {
    if (v === undefined) return;
    names[`#f${i}`] = k;
    values[`:f${i}`] = v;
    sets.push(`#f${i} = :f${i}`);
  });
  if (pendingOperation) {
    names['#pending'] = 'pending_operation';
    values[':pending'] = pendingOperation;
    sets.push('#pending = :pending');
    if (pendingOperation.request) {
      // Kept after the claim is released: the keyed request's retry recognises its own call by it.
      names['#lastRequest'] = 'last_request';
      values[':lastRequest'] = pendingOperation.request;
      sets.push('#lastRequest = :lastRequest');
    }
  } else if (pendingOperation === null) {
    removes.push('pending_operation');
  }
  if (authAnswers) {
    names['#authAnswers'] = 'auth_answers';
    values[':authAnswers'] = authAnswers;
    sets.push('#authAnswers = :authAnswers');
  } else if (authAnswers === null) {
    removes.push('auth_answers');
  }
  let condition = 'attribute_exists(PK) AND #version = :expected';
  if (guard.expectedStatuses) {
    names['#status'] = 'status';
    const keys = guard.expectedStatuses.map((s, i) => {
      values[`:s${i}`] = s;
      return `:s${i}`;
    });
    condition += ` AND #status IN (${keys.join(', ')})`;
  }
  if (guard.requireNoPendingOperation) condition += ' AND attribute_not_exists(pending_operation)';
  if (guard.linkOpenAt !== undefined) {
    names['#paymentLink'] = 'payment_link';
    names['#linkExpiresAt'] = 'expires_at';
    values[':linkOpenAt'] = guard.linkOpenAt;
    condition += ' AND #paymentLink.#linkExpiresAt > :linkOpenAt';
  }
  return {
    TableName: tableName(),
    Key: primaryKey.payment(merchantId, paymentId),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The payment as a guarded update leaves it: the version read plus the fields set (the guard held, so nothing else changed). */
function afterUpdate(
  before: StoredPayment,
  set: Partial<Payment>,
  updatedAt: string,
  pendingOperation: PendingOperation | null | undefined,
  authAnswers?: AuthAnswers | null,
): StoredPayment {
  const payment = { ...before.payment } as Record<string, unknown>;
  for (const [k, v] of Object.entries(set)) if (v !== undefined && k !== 'pending_operation') payment[k] = v;
  payment.updated_at = updatedAt;
  payment.billing = orderedValue(payment.billing);
  payment.next_action = orderedValue(payment.next_action);
  const op = pendingOperation === undefined ? before.pendingOperation : pendingOperation;
  payment.pending_operation = viewPendingOperation(op);
  const stillOpen = op !== null || OPEN_PAYMENT_STATUSES.includes(payment.status as PaymentStatus);
  return {
    payment: payment as unknown as Payment,
    version: before.version + 1,
    pendingOperation: op,
    reconcileChecks: stillOpen ? before.reconcileChecks : 0,
    routingPinned: before.routingPinned,
    listShards: before.listShards,
    authAnswers: authAnswers === undefined ? (before.authAnswers ?? null) : authAnswers,
    lastSyncedAt: before.lastSyncedAt ?? null,
    lastRequest: op?.request ?? before.lastRequest ?? null,
  };
}

/**
 * A conditional write of payment fields: succeeds only if the version read (and the
 * status, and no operation in flight, as asked) are still what the caller read.
 * Bumps the version, sets `updated_at`, keeps the status index in step.
 * Keeps the open-operations index (GSI5) in step: a claim makes the payment due at
 * its lease's end; a status of `Processing`/`RequiresAction` makes it due after the
 * reconciler's minimum age; any other status takes it out.
 * A status change also writes its event (the outbox: `payment.<status>`, data = the payment
 * after the change) in the same `TransactWriteItems`, so the change and its event exist
 * together or not at all; a write without a status change is one `UpdateItem`.
 * @param before the payment as the caller read it (its version is the guard's)
 * @param set fields to change (undefined values are ignored; null stores null); a release (pendingOperation null) must name the resulting `status`
 * @param pendingOperation a record claims the payment for a processor call; null releases it; undefined leaves it
 * @param authAnswers the step answers counter (`auth_answers`) written with the change: a value sets it, null
 *   removes it, undefined leaves it (so counting an answer costs no round trip of its own)
 * A failed condition that finds this very write applied (the version read + 1 and this write's `updated_at`:
 * an attempt the SDK retried after a timeout or a 5xx had in fact been applied) is this write's success.
 * @returns the payment after the write
 * @throws ConditionFailedError carrying the current payment when the guard fails
 * @throws Error when a release names no status (a programming error)
 */
export async function updatePayment(
  merchantId: string,
  before: StoredPayment,
  guard: Omit<UpdateGuard, 'expectedVersion'>,
  set: Partial<Payment>,
  pendingOperation?: PendingOperation | null,
  authAnswers?: AuthAnswers | null,
): Promise<StoredPayment> {
  const updatedAt = new Date().toISOString();
  const params = paymentUpdate(
    merchantId,
    before.payment.payment_id,
    { ...guard, expectedVersion: before.version },
    { ...set, updated_at: updatedAt },
    pendingOperation,
    before.listShards,
    authAnswers,
  );
  const type = set.status ? paymentStatusEvent(before.payment.status, set.status) : undefined;
  let current: Record<string, unknown> | undefined;
  if (!type) {
    const out = await conditionalUpdate({ ...params, ReturnValues: 'ALL_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' });
    if (out.written) return toStoredPayment(out.attributes ?? {});
    current = out.current;
  } else {
    const after = afterUpdate(before, set, updatedAt, pendingOperation, authAnswers);
    const out = await conditionalTransaction([
      { Update: { ...params, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
      eventWrite(merchantId, type, after.payment, updatedAt, before.listShards).put,
    ]);
    if (out.written) return after;
    if (!out.conditionFailed[0]) throw out.error;
    current = out.current[0];
  }
  // An earlier attempt of this very write was applied (its answer was lost, the SDK retried): that is success.
  if (current && Number(current.version) === before.version + 1 && current.updated_at === updatedAt) return toStoredPayment(current);
  throw new ConditionFailedError(current ? toStoredPayment(current) : undefined);
}

/**
 * Hands a claim over (docs/money-safety.md, "Convergence"): the request that made it is ending without having recorded
 * its processor's answer, so the claim's lease is cut to `leaseEndsAt` (its end plus the lease margin) and the
 * payment becomes due in the open-operations index (GSI5) at that time: a retry, a sync or the reconciler
 * takes the operation over then, instead of at the end of the request's whole time. One conditional
 * `UpdateItem` on the version and the claim read (`started_at`), with no other change (not even the version:
 * nobody else may write while the claim's lease runs, and no other writer's condition is disturbed).
 * @param stored the payment as claimed by the request
 * @param leaseEndsAt ISO 8601 UTC
 * @param signal aborts the call (the request's own end)
 * @returns `handedOver: true`, or, when the condition failed (the outcome write the request thought failed was
 *   in fact applied, or the payment changed otherwise), the payment as stored now
 * @throws the SDK's error for anything but a failed condition (storage unavailable)
 */
export async function handOverClaim(
  merchantId: string,
  stored: StoredPayment,
  leaseEndsAt: string,
  signal?: AbortSignal,
): Promise<{ handedOver: true } | { handedOver: false; current: StoredPayment | undefined }> {
  const claim = stored.pendingOperation;
  if (!claim) return { handedOver: false, current: stored };
  const out = await conditionalUpdate(
    {
      TableName: tableName(),
      Key: primaryKey.payment(merchantId, stored.payment.payment_id),
      UpdateExpression: 'SET #pending.#lease = :lease, GSI5SK = :openSk',
      ConditionExpression: '#version = :version AND #pending.#started = :started',
      ExpressionAttributeNames: {
        '#pending': 'pending_operation',
        '#lease': 'lease_expires_at',
        '#started': 'started_at',
        '#version': 'version',
      },
      ExpressionAttributeValues: {
        ':lease': leaseEndsAt,
        ':openSk': openIndexKeys(stored.payment.payment_id, leaseEndsAt).GSI5SK,
        ':version': stored.version,
        ':started': claim.started_at,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
    { abortSignal: signal },
  );
  if (out.written) return { handedOver: true };
  return { handedOver: false, current: out.current ? toStoredPayment(out.current) : undefined };
}

/**
 * Takes the payer return route's turn to ask the processor about a payment: one conditional UpdateItem
 * setting `last_synced_at` to `now` only when it is absent or at least `cooldownMs` old, so however many
 * containers serve the route at once, at most one sync per payment per cooldown reaches the processor.
 * Touches neither `version` nor any payment field (a marker beside the payment, not a change of it), so
 * it never makes another writer's conditional write fail.
 * @returns true when this caller may sync; false inside the cooldown (or when the payment is gone)
 * @throws the SDK's error for anything but a failed condition
 */
export async function claimReturnSync(merchantId: string, paymentId: string, now: Date, cooldownMs: number): Promise<boolean> {
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: primaryKey.payment(merchantId, paymentId),
    UpdateExpression: 'SET last_synced_at = :now',
    ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(last_synced_at) OR last_synced_at <= :cutoff)',
    ExpressionAttributeValues: { ':now': now.toISOString(), ':cutoff': new Date(now.getTime() - cooldownMs).toISOString() },
  });
  return out.written;
}

/**
 * Lists a merchant's payments, newest first: Query on GSI1, on GSI2 when filtered by status, on GSI3 for one
 * customer's or one payment link's — one Query per shard 0..readShards−1, in parallel, merged by `created_at#id`.
 * @param startingAfter the payment named by `starting_after`, already read by the caller
 * @param readShards the merchant's list shard `read` count (the request's); default 1
 */
export async function listPayments(
  merchantId: string,
  query: ListQuery,
  filters: { status?: PaymentStatus; customer_id?: string; payment_link_id?: string },
  startingAfter?: Payment,
  readShards = 1,
): Promise<ListPage<Payment>> {
  const location: ListLocation = filters.customer_id
    ? { indexName: 'GSI3', partitionValue: listPartition.paymentsByCustomer(merchantId, filters.customer_id) }
    : filters.payment_link_id
      ? { indexName: 'GSI3', partitionValue: listPartition.paymentsOfLink(merchantId, filters.payment_link_id) }
      : filters.status
        ? { indexName: 'GSI2', partitionValue: listPartition.paymentsByStatus(merchantId, filters.status), readShards }
        : { indexName: 'GSI1', partitionValue: listPartition.payments(merchantId), readShards };
  const after =
    startingAfter && cursorOf(primaryKey.payment(merchantId, startingAfter.payment_id), startingAfter.created_at, startingAfter.payment_id);
  return listPage({ ...location, startAfter: after }, query, (i) => toStoredPayment(i).payment);
}

/**
 * Finds which merchant owns a payment, from its id alone (Query on GSI4) — for
 * connector webhooks, which name our payment id but no merchant.
 * @returns the merchant id, or undefined when no payment has this id
 */
export async function findPaymentOwner(paymentId: string): Promise<string | undefined> {
  const { items } = await queryPage({
    IndexName: 'GSI4',
    KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK = :sk',
    ExpressionAttributeValues: { ':pk': idLookup.payment(paymentId).GSI4PK, ':sk': idLookup.payment(paymentId).GSI4SK },
    ProjectionExpression: 'merchant_id',
    Limit: 1,
  });
  return items[0]?.merchant_id as string | undefined;
}

/** Outcome of {@link applyPaymentWebhook}. */
export type WebhookApplication = 'applied' | 'duplicate' | 'changed';

/**
 * Applies a connector webhook to a payment in one transaction: records the
 * processor's event (`WEBHOOK#<connector>#<event id>`, only if new), makes the guarded
 * payment change and writes our own event for a status change (the outbox). A
 * redelivered event changes nothing.
 * @returns `applied`; `duplicate` when the event was already recorded; `changed`
 *   when the payment moved since it was read (the caller re-reads and decides)
 */
export async function applyPaymentWebhook(
  merchantId: string,
  before: StoredPayment,
  event: { connector: string; eventId: string },
  guard: Omit<UpdateGuard, 'expectedVersion'>,
  set: Partial<Payment> & { status: PaymentStatus },
): Promise<WebhookApplication> {
  const paymentId = before.payment.payment_id;
  const updatedAt = new Date().toISOString();
  const type = paymentStatusEvent(before.payment.status, set.status);
  const outbox = type
    ? [eventWrite(merchantId, type, afterUpdate(before, set, updatedAt, null).payment, updatedAt, before.listShards).put]
    : [];
  const out = await conditionalTransaction([
    webhookEventPut(event.connector, event.eventId, paymentId),
    {
      Update: paymentUpdate(
        merchantId,
        paymentId,
        { ...guard, expectedVersion: before.version },
        { ...set, updated_at: updatedAt },
        null,
        before.listShards,
      ),
    },
    ...outbox,
  ]);
  if (out.written) return 'applied';
  if (out.conditionFailed[0]) return 'duplicate';
  if (out.conditionFailed[1]) return 'changed';
  throw out.error;
}
