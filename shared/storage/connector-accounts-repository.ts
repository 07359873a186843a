import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ConnectorAccount } from '../domain/connector-account';
import { MAX_CONNECTOR_ACCOUNTS } from '../domain/connector-account';
import type { EventData, EventType } from '../domain/events';
import type { RoutingProfile } from '../domain/routing-profile';
import { documentClient } from './client';
import { conditionalTransaction, conditionalUpdate, type TransactItems } from './conditional-write';
import { eventWrite } from './events-repository';
import { connectorConfig, idLookup } from './item-keys';
import { counterValue, countOneLess, countOneMore, initialiseCounter, isCounterItem, LimitReachedError } from './limit-counters';
import { queryAllItems, queryPage } from './query-pages';
import { ConditionFailedError, ItemExistsError } from './storage-errors';
import { tableName } from './table-definition';

/**
 * A connector account as stored: the API fields plus its encrypted credentials (an AWS Encryption SDK
 * message, base64, bound to `{merchant_id, merchant_connector_id}`: shared/security/credential-encryption.ts),
 * the optimistic-lock `version`, and `deleted_at` (ISO 8601 UTC) once deleted — the credentials are
 * then gone (null) and the API answers 404 for it.
 */
export interface StoredConnectorAccount extends ConnectorAccount {
  credentials_encrypted: string | null;
  deleted_at: string | null;
  /**
   * ISO 8601 UTC: a delete is under way (set before the delete checks for open operations): no new
   * authorization may claim the account (shared/storage/payments-repository.ts checks it in the claim's transaction).
   */
  deleting_since: string | null;
  version: number;
}

/** A merchant's whole connector configuration, as one Query of its partition returns it. */
export interface ConnectorConfig {
  /** Every account not deleted, oldest first. */
  accounts: StoredConnectorAccount[];
  /** The routing profile, or null when the merchant never set one. */
  profile: RoutingProfile | null;
  /**
   * The count of live accounts the merchant's counter holds (shared/storage/limit-counters.ts), or null when the
   * merchant has no counter yet (accounts connected before counters existed): {@link initialiseAccountCount}.
   */
  accountCount: number | null;
}

/** The label is taken by another account of the merchant. */
export class LabelTakenError extends Error {
  constructor() {
    super('connector_label is taken');
    this.name = 'LabelTakenError';
  }
}

const ACCOUNT_ATTRIBUTES = [
  'merchant_connector_id',
  'merchant_id',
  'connector_name',
  'connector_label',
  'connector_account_details',
  'webhook_secret_set',
  'payment_methods_enabled',
  'disabled',
  'status',
  'mode',
  'metadata',
  'created_at',
  'updated_at',
  'credentials_encrypted',
  'deleted_at',
  'deleting_since',
  'version',
] as const;

/** The stored account of an item (keys and index attributes left behind). */
export function toStoredAccount(item: Record<string, unknown>): StoredConnectorAccount {
  const out: Record<string, unknown> = {};
  for (const f of ACCOUNT_ATTRIBUTES) out[f] = item[f] ?? null;
  out.metadata = (item.metadata as Record<string, string> | undefined) ?? {};
  out.version = Number(item.version ?? 1);
  return out as unknown as StoredConnectorAccount;
}

/** Labels are unique per merchant case-insensitively: "Stripe EU" and "stripe eu" are the same label. */
const labelKey = (label: string) => label.toLowerCase();

/** The item of an account: config partition, GSI4 id lookup (live accounts only), entity `connector_account`. */
function accountItem(account: StoredConnectorAccount): Record<string, unknown> {
  // `deleted_at`, `deleting_since` and `credentials_encrypted` are written only when set: conditions test
  // them with attribute_not_exists, which a stored NULL would fail.
  const { deleted_at, deleting_since, credentials_encrypted, ...rest } = account;
  return {
    ...connectorConfig.account(account.merchant_id, account.merchant_connector_id),
    ...(deleted_at ? {} : idLookup.connectorAccount(account.merchant_connector_id)),
    entity: 'connector_account',
    ...rest,
    ...(deleted_at ? { deleted_at } : {}),
    ...(deleting_since ? { deleting_since } : {}),
    ...(credentials_encrypted ? { credentials_encrypted } : {}),
  };
}

/** Event put for an account change (the outbox), in the merchant's events. */
function accountEvent(account: StoredConnectorAccount, type: EventType, view: EventData, at: string) {
  return eventWrite(account.merchant_id, type, view, at).put;
}

/**
 * Writes a new account, its label claim, its `connector_account.created` event and one more on the merchant's
 * account counter (only while it counts fewer than {@link MAX_CONNECTOR_ACCOUNTS}) in one TransactWriteItems,
 * so the cap holds whatever runs at the same time. The counter must exist ({@link initialiseAccountCount}).
 * A transaction cancelled only by a conflict with another (a create racing for the counter) is tried again.
 * @param view the account as the API shows it (the event's data)
 * @throws ItemExistsError when an account with this id exists (a retry with the same Idempotency-Key)
 * @throws LimitReachedError when the merchant has {@link MAX_CONNECTOR_ACCOUNTS} live accounts (or no counter)
 * @throws LabelTakenError when the merchant already has an account with this label
 */
export async function createConnectorAccount(account: StoredConnectorAccount, view: EventData): Promise<void> {
  const out = await conditionalTransaction(
    [
      { Put: { TableName: tableName(), Item: accountItem(account), ConditionExpression: 'attribute_not_exists(PK)' } },
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...connectorConfig.label(account.merchant_id, labelKey(account.connector_label)),
            entity: 'connector_label',
            merchant_connector_id: account.merchant_connector_id,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      accountEvent(account, 'connector_account.created', view, account.created_at),
      countOneMore(connectorConfig.accountCount(account.merchant_id), MAX_CONNECTOR_ACCOUNTS),
    ],
    { retryConflicts: true },
  );
  if (out.written) return;
  if (out.conditionFailed[0]) throw new ItemExistsError(account.merchant_connector_id);
  if (out.conditionFailed[3]) throw new LimitReachedError(MAX_CONNECTOR_ACCOUNTS);
  if (out.conditionFailed[1]) throw new LabelTakenError();
  throw out.error;
}

/**
 * Writes the merchant's account counter when {@link readConnectorConfig} found none (accounts connected before
 * counters existed), with the count of live accounts that same consistent Query found; nothing when a counter
 * exists by now (shared/storage/limit-counters.ts says why the count is exact).
 * @param config what {@link readConnectorConfig} answered
 */
export async function initialiseAccountCount(merchantId: string, config: ConnectorConfig): Promise<void> {
  if (config.accountCount === null) await initialiseCounter(connectorConfig.accountCount(merchantId), config.accounts.length);
}

/** One consistent read of an account; undefined when missing or deleted. */
export async function getConnectorAccount(merchantId: string, merchantConnectorId: string): Promise<StoredConnectorAccount | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: connectorConfig.account(merchantId, merchantConnectorId), ConsistentRead: true }),
  );
  if (!out.Item) return undefined;
  const account = toStoredAccount(out.Item);
  return account.deleted_at ? undefined : account;
}

/**
 * An account of any merchant by its id alone (GSI4; connector webhooks on
 * `/webhooks/{connector}/{merchant_connector_id}` name no merchant). Eventually consistent.
 * @returns the account, or undefined when no live account has this id
 */
export async function findConnectorAccount(merchantConnectorId: string): Promise<StoredConnectorAccount | undefined> {
  const key = idLookup.connectorAccount(merchantConnectorId);
  const { items } = await queryPage({
    IndexName: 'GSI4',
    KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK = :sk',
    ExpressionAttributeValues: { ':pk': key.GSI4PK, ':sk': key.GSI4SK },
    Limit: 1,
  });
  const item = items[0];
  if (!item) return undefined;
  const account = toStoredAccount(item);
  return account.deleted_at ? undefined : account;
}

/**
 * The merchant's connector configuration: one consistent Query of its config partition
 * (accounts, label claims, routing profile, account counter). Bounded: at most 50 accounts.
 */
export async function readConnectorConfig(merchantId: string): Promise<ConnectorConfig> {
  const items = await queryAllItems({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': connectorConfig.partition(merchantId) },
    ConsistentRead: true,
  });
  const accounts: StoredConnectorAccount[] = [];
  let profile: RoutingProfile | null = null;
  let accountCount: number | null = null;
  for (const item of items) {
    if (isCounterItem(item)) {
      accountCount = counterValue(item);
    } else if (item.entity === 'connector_account') {
      const account = toStoredAccount(item);
      if (!account.deleted_at) accounts.push(account);
    } else if (item.entity === 'routing_profile') {
      profile = {
        active_algorithm: (item.active_algorithm as RoutingProfile['active_algorithm']) ?? null,
        default_fallback: (item.default_fallback as string[] | undefined) ?? null,
        auto_retries: (item.auto_retries as RoutingProfile['auto_retries']) ?? null,
        payout_priority: (item.payout_priority as string[] | undefined) ?? null,
        version: Number(item.version ?? 0),
        updated_at: String(item.updated_at ?? ''),
      };
    }
  }
  accounts.sort((a, b) =>
    a.created_at === b.created_at
      ? a.merchant_connector_id.localeCompare(b.merchant_connector_id)
      : a.created_at.localeCompare(b.created_at),
  );
  return { accounts, profile, accountCount };
}

/** What an account update changes; undefined leaves a field as it is. */
export type ConnectorAccountChange = Partial<
  Pick<
    StoredConnectorAccount,
    | 'connector_label'
    | 'connector_account_details'
    | 'webhook_secret_set'
    | 'payment_methods_enabled'
    | 'disabled'
    | 'status'
    | 'mode'
    | 'metadata'
    | 'credentials_encrypted'
    | 'deleting_since'
  >
>;

/**
 * Applies a change to an account read at `before.version` (one TransactWriteItems: the guarded
 * update, the label claim moved when the label changes, and the event when `event` is given).
 * @param event the event type and data to write with the change (the outbox), or undefined for none
 * @returns the account after the write
 * @throws ConditionFailedError when the account changed (or was deleted) since it was read
 * @throws LabelTakenError when the new label is taken
 */
export async function updateConnectorAccount(
  before: StoredConnectorAccount,
  change: ConnectorAccountChange,
  event?: { type: EventType; view: (after: StoredConnectorAccount) => EventData },
): Promise<StoredConnectorAccount> {
  const now = new Date().toISOString();
  const after: StoredConnectorAccount = { ...before, ...definedOnly(change), updated_at: now, version: before.version + 1 };
  const labelChanged = change.connector_label !== undefined && labelKey(change.connector_label) !== labelKey(before.connector_label);
  const items: TransactItems = [
    {
      Put: {
        TableName: tableName(),
        Item: accountItem(after),
        ConditionExpression:
          'attribute_exists(PK) AND version = :v AND attribute_not_exists(deleted_at) AND attribute_not_exists(deleting_since)',
        ExpressionAttributeValues: { ':v': before.version },
      },
    },
  ];
  if (labelChanged) {
    items.push(
      {
        Put: {
          TableName: tableName(),
          Item: {
            ...connectorConfig.label(before.merchant_id, labelKey(after.connector_label)),
            entity: 'connector_label',
            merchant_connector_id: before.merchant_connector_id,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      { Delete: { TableName: tableName(), Key: connectorConfig.label(before.merchant_id, labelKey(before.connector_label)) } },
    );
  }
  if (event) items.push(accountEvent(after, event.type, event.view(after), now));
  const out = await conditionalTransaction(items);
  if (out.written) return after;
  if (out.conditionFailed[0]) throw new ConditionFailedError(await getConnectorAccount(before.merchant_id, before.merchant_connector_id));
  if (labelChanged && out.conditionFailed[1]) throw new LabelTakenError();
  throw out.error;
}

/** The condition check that the merchant's routing profile is still at the version read (null: none yet). */
function profileUnchanged(merchantId: string, profileVersion: number | null) {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: connectorConfig.profile(merchantId),
      ...(profileVersion === null
        ? { ConditionExpression: 'attribute_not_exists(PK)' }
        : { ConditionExpression: 'version = :pv', ExpressionAttributeValues: { ':pv': profileVersion } }),
    },
  };
}

/**
 * Marks an account as being deleted (`deleting_since`), guarded by its version and by the routing profile's
 * version read (the caller checked that profile's active algorithm does not name the account), in one
 * TransactWriteItems: from then on no authorization can claim it, and no routing change naming it can commit
 * (shared/storage/routing-repository.ts checks every named account for the mark in its transaction), so the
 * delete wins every race with a routing change that comes after its mark. Undone by {@link clearDeleting} when
 * the delete is refused.
 * @param profileVersion the routing profile's version read with the decision (null: the merchant has none)
 * @throws ConditionFailedError when the account or the routing profile changed since read
 */
export async function markDeleting(before: StoredConnectorAccount, profileVersion: number | null): Promise<StoredConnectorAccount> {
  const now = new Date().toISOString();
  const out = await conditionalTransaction(
    [
      {
        Update: {
          TableName: tableName(),
          Key: connectorConfig.account(before.merchant_id, before.merchant_connector_id),
          UpdateExpression: 'SET deleting_since = :now, version = version + :one',
          ConditionExpression: 'version = :v AND attribute_not_exists(deleted_at)',
          ExpressionAttributeValues: { ':now': now, ':one': 1, ':v': before.version },
        },
      },
      profileUnchanged(before.merchant_id, profileVersion),
    ],
    { retryConflicts: true },
  );
  // Any cancellation (a condition, or conflicts past the retries) is answered as a change since read.
  if (!out.written) throw new ConditionFailedError(undefined);
  return { ...before, deleting_since: now, version: before.version + 1 };
}

/**
 * Removes `deleting_since` (a refused or failed delete) when it is still this delete's mark (whatever else
 * changed meanwhile): the account takes payments again as before. Never throws on a lost race.
 */
export async function clearDeleting(account: StoredConnectorAccount): Promise<void> {
  if (!account.deleting_since) return;
  await conditionalUpdate({
    TableName: tableName(),
    Key: connectorConfig.account(account.merchant_id, account.merchant_connector_id),
    UpdateExpression: 'REMOVE deleting_since SET version = version + :one',
    ConditionExpression: 'deleting_since = :mark AND attribute_not_exists(deleted_at)',
    ExpressionAttributeValues: { ':one': 1, ':mark': account.deleting_since },
  });
}

/**
 * Finishes a delete (one TransactWriteItems): the account is disabled, its credentials destroyed
 * (attribute removed), its id lookup and label claim removed, `deleted_at` set, its
 * `connector_account.disabled` event written and the merchant's account counter decremented; guarded by the
 * version of the marked account ({@link markDeleting}). The routing profile is not checked again: since the
 * mark, no routing change naming the account can have committed, and one that does not name it (another
 * algorithm activated, the fallback list changed) does not stop the delete. A transaction cancelled only by a
 * conflict with another is tried again.
 * @throws ConditionFailedError when the account changed since it was marked (or the counter is missing)
 */
export async function finishDelete(
  account: StoredConnectorAccount,
  view: (after: StoredConnectorAccount) => EventData,
): Promise<StoredConnectorAccount> {
  const now = new Date().toISOString();
  const after: StoredConnectorAccount = {
    ...account,
    disabled: true,
    status: 'inactive',
    credentials_encrypted: null,
    deleted_at: now,
    updated_at: now,
    version: account.version + 1,
  };
  const out = await conditionalTransaction(
    [
      {
        Put: {
          TableName: tableName(),
          Item: accountItem(after),
          ConditionExpression: 'version = :v AND attribute_not_exists(deleted_at)',
          ExpressionAttributeValues: { ':v': account.version },
        },
      },
      { Delete: { TableName: tableName(), Key: connectorConfig.label(account.merchant_id, labelKey(account.connector_label)) } },
      accountEvent(after, 'connector_account.disabled', view(after), now),
      countOneLess(connectorConfig.accountCount(account.merchant_id)),
    ],
    { retryConflicts: true },
  );
  // Any cancellation (a condition, or conflicts past the retries) is answered as a change since read.
  if (!out.written) throw new ConditionFailedError(undefined);
  return after;
}

/** The account's item attributes that are defined in `change` (undefined = leave as is). */
function definedOnly<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<T>;
}
