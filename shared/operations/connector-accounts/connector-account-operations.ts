import { CONNECTOR_CAPABILITIES, defaultPaymentMethodsEnabled } from '../../connectors/capabilities';
import { ConnectorRequestError, ConnectorTechnicalError } from '../../connectors/connector';
import { INVALID_CREDENTIALS_CODE } from '../../connectors/connector-http';
import { CREDENTIAL_PARAMS, credentialMode, credentialShapeProblem, unusedCredentialPiece } from '../../connectors/credential-mode';
import { boundedListPage } from '../../domain/bounded-list-page';
import type {
  ConnectorAccount,
  ConnectorAccountView,
  ConnectorCredentials,
  ConnectorName,
  EnabledPaymentMethod,
} from '../../domain/connector-account';
import { MAX_CONNECTOR_ACCOUNTS } from '../../domain/connector-account';
import { beingDeleted } from '../../domain/connector-account-deletion';
import { ApiError, idempotencyKeyReused, invalidRequest, resourceNotFound } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import type { Metadata } from '../../domain/payment';
import { logger } from '../../observability/logger';
import { forgetAccountConnector } from '../../processor-call/account-connectors';
import { connectorConfigCacheMs, forgetConnectorConfig } from '../../processor-call/connector-config-cache';
import { connectorSettings, connectorWithCredentials } from '../../processor-call/connector-registry';
import type { CreateConnectorAccountBody, UpdateConnectorAccountBody } from '../../schemas/connector-account-schemas';
import { decryptCredentials, encryptCredentials } from '../../security/credential-encryption';
import { idempotentId } from '../../security/keyed-hash';
import { accountHasOpenItems } from '../../storage/account-open-operations-repository';
import { registerBillingMerchant } from '../../storage/billing-directory-repository';
import {
  type ConnectorAccountChange,
  clearDeleting,
  finishDelete,
  getConnectorAccount,
  initialiseAccountCount,
  LabelTakenError,
  markDeleting,
  readConnectorConfig,
  type StoredConnectorAccount,
  createConnectorAccount as storeAccount,
  updateConnectorAccount as writeAccount,
} from '../../storage/connector-accounts-repository';
import { LimitReachedError } from '../../storage/limit-counters';
import { ConditionFailedError, ItemExistsError, isStorageUnavailable } from '../../storage/storage-errors';
import { unknownCursorError } from '../list-cursor';
import { algorithmAccountIds } from '../routing/algorithm-accounts';

/**
 * How long a delete waits, beyond the configuration cache period, for claims written just before its mark
 * to reach the open-operations index (a GSI, eventually consistent; typically well under a second):
 * 1,000 ms.
 */
export const DELETE_INDEX_SETTLE_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The processor's mode a stage accepts: `live` keys on `prod` only, `test` keys everywhere else
 * (`STAGE` unset — the local stack, tests — counts as non-prod). A live key on a test stage would move
 * real money from a place built for trying things; a test key on prod would take payments that never pay.
 */
export function requiredMode(env: NodeJS.ProcessEnv = process.env): 'test' | 'live' {
  return env.STAGE === 'prod' ? 'live' : 'test';
}

/**
 * The last 4 characters of a secret behind its non-secret prefix (`sk_test_…4242`, `FLWSECK_TEST-…X1-X`):
 * enough to tell two keys apart, never enough to use one.
 */
export function maskSecret(secret: string): string {
  const prefix = /^(sk_test_|sk_live_|rk_test_|rk_live_|FLWSECK_TEST-|FLWSECK-|whsec_)/.exec(secret)?.[1] ?? '';
  return `${prefix}…${secret.slice(-4)}`;
}

/**
 * The account as the API shows it: credentials masked, the webhook URL for this stage.
 * @param publicBaseUrl the API's origin (e.g. `https://api.example.com`)
 */
export function accountView(account: ConnectorAccount, publicBaseUrl: string): ConnectorAccountView {
  return {
    merchant_connector_id: account.merchant_connector_id,
    connector_name: account.connector_name,
    connector_label: account.connector_label,
    connector_account_details: { api_key: account.connector_account_details.api_key, key1: account.connector_account_details.key1 ?? null },
    connector_webhook_details: { merchant_secret_set: account.webhook_secret_set },
    payment_methods_enabled: account.payment_methods_enabled,
    disabled: account.disabled,
    status: account.status,
    test_mode: account.mode === 'test',
    webhook_url: `${publicBaseUrl.replace(/\/+$/, '')}/webhooks/${account.connector_name}/${account.merchant_connector_id}`,
    metadata: account.metadata,
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
}

/**
 * Checks `payment_methods_enabled` against what the connector can take (shared/connectors/capabilities.ts).
 * @throws ApiError 400 `parameter_invalid` naming the entry (`payment_methods_enabled.<i>.currencies`, …)
 */
function assertEnabledWithinCapabilities(connector: ConnectorName, enabled: EnabledPaymentMethod[]): void {
  const capabilities = CONNECTOR_CAPABILITIES[connector].payment_methods;
  enabled.forEach((entry, i) => {
    const capability = capabilities.find((c) => c.payment_method === entry.payment_method);
    if (!capability) {
      throw invalidRequest(
        'parameter_invalid',
        `${connector} does not take ${entry.payment_method} payments here; enable only methods it supports (docs/connectors.md).`,
        `payment_methods_enabled.${i}.payment_method`,
      );
    }
    const unsupported = entry.currencies.filter((c) => !capability.currencies.includes(c));
    if (unsupported.length > 0) {
      throw invalidRequest(
        'parameter_invalid',
        `${connector} takes ${entry.payment_method} only in ${capability.currencies.join(', ')}; remove ${unsupported.join(', ')}.`,
        `payment_methods_enabled.${i}.currencies`,
      );
    }
  });
}

/**
 * Verifies credentials before anything is stored: their shape, the stage's mode (test/live), then one
 * read-only authenticated call at the processor (`Connector.verifyCredentials`: Stripe `GET /v1/balance`,
 * Paystack `GET /balance`, Flutterwave `GET /v3/balances`).
 * @returns the credentials' mode
 * @throws ApiError 400 `parameter_invalid` (param `connector_account_details.api_key` …) for a malformed key;
 *   400 `connector_credentials_mode` for a live key on a test stage (or a test key on prod);
 *   400 `connector_credentials_invalid` when the processor refuses them;
 *   503 `connector_unreachable` when the processor cannot be reached (transient; nothing stored)
 */
async function verifiedMode(connector: ConnectorName, credentials: ConnectorCredentials): Promise<'test' | 'live'> {
  const problem = credentialShapeProblem(connector, credentials);
  if (problem) {
    // Name the part at fault: the webhook secret when the keys alone are right.
    const { webhook_secret: _secret, ...keys } = credentials;
    const param =
      credentialShapeProblem(connector, keys) === null ? 'connector_webhook_details.merchant_secret' : 'connector_account_details';
    throw invalidRequest('parameter_invalid', `${problem} Nothing was stored.`, param);
  }
  const adapter = await connectorWithCredentials(connector, credentials, await connectorSettings());
  if (!adapter) {
    throw invalidRequest('connector_not_available', `${connector} accounts cannot be connected on this stage.`, 'connector_name');
  }
  // The sandbox holds no key: it has no mode to check (it is off on prod, above).
  const mode = connector === 'sandbox' ? requiredMode() : (credentialMode(connector, credentials.api_key) ?? 'test');
  const wanted = requiredMode();
  if (mode !== wanted) {
    throw invalidRequest(
      'connector_credentials_mode',
      wanted === 'test'
        ? `This stage takes ${connector} test keys only; use your test secret key. Nothing was stored.`
        : `This stage takes ${connector} live keys only; use your live secret key. Nothing was stored.`,
      'connector_account_details.api_key',
    );
  }
  try {
    await adapter.verifyCredentials();
  } catch (err) {
    if (err instanceof ConnectorRequestError && err.code !== INVALID_CREDENTIALS_CODE) {
      // Another refusal of a read-only call (a rate limit, an account restriction): not a verdict on the key.
      throw new ApiError(
        503,
        'connector_error',
        'connector_unreachable',
        `${connector} could not verify these credentials right now. Nothing was stored; retry shortly.`,
      ).asTransient();
    }
    if (err instanceof ConnectorRequestError) {
      throw invalidRequest(
        'connector_credentials_invalid',
        `${connector} refused these credentials: check the secret key (connector_account_details.api_key) and that it belongs to the account you mean. Nothing was stored.`,
        'connector_account_details.api_key',
      );
    }
    if (err instanceof ConnectorTechnicalError) {
      throw new ApiError(
        503,
        'connector_error',
        'connector_unreachable',
        `${connector} could not be reached to verify these credentials. Nothing was stored; retry shortly.`,
      ).asTransient();
    }
    throw err;
  }
  return mode;
}

/** How the refusal of an unused credential piece names it to the merchant (never its value). */
const PIECE_NAMES = { api_key: 'secret key', key1: 'key1 (encryption key)', webhook_secret: 'webhook secret' } as const;

/**
 * Refuses a credential field the connector does not use (docs/api.md "Connector accounts": any key given to the
 * sandbox, Stripe's and Paystack's `key1`, Paystack's webhook secret), so a secret pasted into the wrong field is
 * caught instead of silently dropped. Checked before anything else is done with the request.
 * @throws ApiError 400 `parameter_invalid` whose `param` is the field (`connector_account_details.api_key`,
 *   `connector_account_details.key1` or `connector_webhook_details.merchant_secret`)
 */
function assertNoUnusedCredential(
  connector: ConnectorName,
  body: Pick<CreateConnectorAccountBody, 'connector_account_details' | 'connector_webhook_details'>,
): void {
  const piece = unusedCredentialPiece(connector, {
    api_key: body.connector_account_details?.api_key,
    key1: body.connector_account_details?.key1,
    webhook_secret: body.connector_webhook_details?.merchant_secret,
  });
  if (!piece) return;
  const param = CREDENTIAL_PARAMS[piece];
  throw invalidRequest(
    'parameter_invalid',
    connector === 'sandbox'
      ? `The sandbox takes no credentials: leave ${param.split('.')[0]} out. Nothing was stored.`
      : `${connector} takes no ${PIECE_NAMES[piece]}: leave ${param} out (docs/api.md lists each connector's credentials). Nothing was stored.`,
    param,
  );
}

/** The credentials of a create body (the sandbox takes none: a placeholder key is held). */
function credentialsOf(
  body: Pick<CreateConnectorAccountBody, 'connector_name' | 'connector_account_details' | 'connector_webhook_details'>,
): ConnectorCredentials {
  const details = body.connector_account_details;
  if (!details && body.connector_name !== 'sandbox') {
    throw invalidRequest(
      'parameter_missing',
      "Missing required parameter: connector_account_details (the account's secret key in api_key).",
      'connector_account_details',
    );
  }
  return {
    api_key: details?.api_key ?? 'sandbox',
    ...(details?.key1 ? { key1: details.key1 } : {}),
    ...(body.connector_webhook_details ? { webhook_secret: body.connector_webhook_details.merchant_secret } : {}),
  };
}

/** The masked details shown for credentials (the sandbox's placeholder key is shown as empty: it has none). */
function maskedDetails(connector: ConnectorName, credentials: ConnectorCredentials): ConnectorAccount['connector_account_details'] {
  return {
    api_key: connector === 'sandbox' ? '' : maskSecret(credentials.api_key),
    key1: credentials.key1 ? maskSecret(credentials.key1) : null,
  };
}

/** The 400 of a merchant with {@link MAX_CONNECTOR_ACCOUNTS} live accounts already (nothing stored). */
const accountLimit = () =>
  invalidRequest(
    'connector_account_limit',
    `You already have ${MAX_CONNECTOR_ACCOUNTS} connector accounts; delete one you no longer use first.`,
  );

/** The 409 of a label already used by another account of the merchant. */
const labelTaken = () =>
  new ApiError(
    409,
    'invalid_request_error',
    'connector_label_taken',
    'Another of your connector accounts has this connector_label; choose another.',
    'connector_label',
  );

/**
 * Connects a processor account for the merchant: checks the credentials (shape, stage mode, one
 * read-only call at the processor), encrypts them (AWS Encryption SDK, context `{merchant_id,
 * merchant_connector_id}`) and stores the account with its `connector_account.created` event.
 * Nothing is stored unless every check passed. The 50-account cap is checked first from the merchant's
 * configuration and held by the store's transaction (a counter item: shared/storage/limit-counters.ts); a default
 * label taken meanwhile by a concurrent create is replaced by the next free one.
 * @param publicBaseUrl the API's origin, for `webhook_url`
 * @param idempotencyKey the request's `Idempotency-Key`: the account's id is derived from it, so a retry
 *   (even after a storage failure whose write may have landed) answers the account it connected
 * @returns the account (credentials masked)
 * @throws ApiError 400 (`parameter_missing`, `parameter_invalid`, `connector_credentials_mode`,
 *   `connector_credentials_invalid`, `connector_account_limit`), 409 `connector_label_taken`, 503
 *   `connector_unreachable` (see {@link verifiedMode})
 */
export async function createConnectorAccount(
  merchantId: string,
  body: CreateConnectorAccountBody,
  publicBaseUrl: string,
  idempotencyKey?: string,
): Promise<ConnectorAccountView> {
  // With an Idempotency-Key the id is derived from it: a retry after a failure that may have stored the
  // account (a storage timeout after the write) finds it instead of connecting the account twice.
  const id = idempotencyKey ? await idempotentId('mca', merchantId, 'connector_accounts', idempotencyKey) : newId('connectorAccount');
  if (idempotencyKey) {
    const earlier = await getConnectorAccount(merchantId, id);
    if (earlier) return accountView(earlier, publicBaseUrl);
  }
  assertNoUnusedCredential(body.connector_name, body);
  const credentials = credentialsOf(body);
  const enabled = body.payment_methods_enabled ?? defaultPaymentMethodsEnabled(body.connector_name);
  assertEnabledWithinCapabilities(body.connector_name, enabled);
  const config = await readConnectorConfig(merchantId);
  // A merchant whose accounts predate the counter gets it counted on first use, a refused create included, so the
  // counter always equals the live accounts.
  await initialiseAccountCount(merchantId, config);
  // Checked here before the processor is called; the store's transaction holds the cap under concurrency.
  if (config.accounts.length >= MAX_CONNECTOR_ACCOUNTS) throw accountLimit();
  // Without a label: `<connector>_<n>` with the first n free among the merchant's labels.
  const taken = new Set(config.accounts.map((a) => a.connector_label.toLowerCase()));
  const firstFreeLabel = () => {
    for (let n = 1; ; n += 1) if (!taken.has(`${body.connector_name}_${n}`)) return `${body.connector_name}_${n}`;
  };
  const label = body.connector_label ?? firstFreeLabel();
  if (taken.has(label.toLowerCase())) throw labelTaken();
  const mode = await verifiedMode(body.connector_name, credentials);
  const now = new Date().toISOString();
  const account: StoredConnectorAccount = {
    merchant_connector_id: id,
    merchant_id: merchantId,
    connector_name: body.connector_name,
    connector_label: label,
    connector_account_details: maskedDetails(body.connector_name, credentials),
    webhook_secret_set: Boolean(credentials.webhook_secret),
    payment_methods_enabled: enabled,
    disabled: body.disabled ?? false,
    status: body.disabled ? 'inactive' : 'active',
    mode,
    metadata: (body.metadata ?? {}) as Metadata,
    created_at: now,
    updated_at: now,
    credentials_encrypted: await encryptCredentials(credentials as unknown as Record<string, string>, {
      merchant_id: merchantId,
      merchant_connector_id: id,
    }),
    deleted_at: null,
    deleting_since: null,
    version: 1,
  };
  try {
    // A default label taken meanwhile by a concurrent create: the first one free now (the merchant chose none). At
    // most one try per account that can exist, since each taken label belongs to one.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await storeAccount(account, accountView(account, publicBaseUrl));
        break;
      } catch (err) {
        if (!(err instanceof LabelTakenError) || body.connector_label !== undefined || attempt >= MAX_CONNECTOR_ACCOUNTS) throw err;
        taken.add(account.connector_label.toLowerCase());
        for (const a of (await readConnectorConfig(merchantId)).accounts) taken.add(a.connector_label.toLowerCase());
        account.connector_label = firstFreeLabel();
      }
    }
  } catch (err) {
    if (err instanceof LimitReachedError) throw accountLimit();
    if (err instanceof LabelTakenError) throw labelTaken();
    if (err instanceof ItemExistsError) {
      // A concurrent retry with the same Idempotency-Key stored it first: answer that account.
      const earlier = await getConnectorAccount(merchantId, id);
      if (earlier) return accountView(earlier, publicBaseUrl);
      // The key connected an account that was deleted since: it cannot connect another.
      throw idempotencyKeyReused();
    }
    if (isStorageUnavailable(err)) {
      // The write may have landed (a timeout after the commit): never "nothing was changed".
      throw new ApiError(
        503,
        'api_error',
        'service_unavailable',
        idempotencyKey
          ? 'Storage failed while the account was being stored; it may have been connected. Retry with the same Idempotency-Key to get it.'
          : 'Storage failed while the account was being stored; it may have been connected. List your connector accounts before connecting it again.',
      ).asTransient();
    }
    throw err;
  }
  forgetConnectorConfig(merchantId);
  // Disputes of accounts at processors that send none by webhook are polled: the scheduled worker finds
  // the merchant through the billing directory. A failure here is retried by the merchant's next billing work.
  await registerBillingMerchant(merchantId).catch(() => undefined);
  logger.info('connector account connected', { merchant_connector_id: id, connector: body.connector_name, mode });
  return accountView(account, publicBaseUrl);
}

/**
 * Reads one account of the merchant; another merchant's account, a deleted one or a malformed id is 404.
 * @throws ApiError 404 `resource_missing` (param `merchant_connector_id`)
 */
async function loadAccount(merchantId: string, merchantConnectorId: string): Promise<StoredConnectorAccount> {
  const account = isIdOf('connectorAccount', merchantConnectorId) ? await getConnectorAccount(merchantId, merchantConnectorId) : undefined;
  if (!account) throw resourceNotFound('connector account', 'merchant_connector_id');
  return account;
}

/**
 * One account of the merchant (credentials masked).
 * @throws ApiError 404 when it does not exist for this merchant
 */
export async function getConnectorAccountView(
  merchantId: string,
  merchantConnectorId: string,
  publicBaseUrl: string,
): Promise<ConnectorAccountView> {
  return accountView(await loadAccount(merchantId, merchantConnectorId), publicBaseUrl);
}

/**
 * Lists the merchant's accounts, newest first, with the usual envelope and cursors; filters
 * `connector_name` and `disabled`. One Query of the merchant's bounded configuration partition.
 * @throws ApiError 400 `resource_missing` (param `starting_after`) for an unknown cursor
 */
export async function listConnectorAccounts(
  merchantId: string,
  query: ListQuery,
  filters: { connector_name?: ConnectorName | undefined; disabled?: 'true' | 'false' | undefined },
  publicBaseUrl: string,
): Promise<ListPage<ConnectorAccountView>> {
  const { accounts } = await readConnectorConfig(merchantId);
  const page = boundedListPage(
    [...accounts].reverse(),
    query,
    (a) => a.merchant_connector_id,
    (a) => a.created_at,
    () => unknownCursorError(query, { noun: 'connector account', idPhrase: 'a connector account id' }),
    (a) =>
      (filters.connector_name === undefined || a.connector_name === filters.connector_name) &&
      (filters.disabled === undefined || String(a.disabled) === filters.disabled),
  );
  return { data: page.data.map((a) => accountView(a, publicBaseUrl)), has_more: page.has_more };
}

/**
 * Changes an account: label, credentials (verified again at the processor before anything is stored, and
 * re-encrypted), webhook secret, `payment_methods_enabled`, `disabled`, metadata. Emits
 * `connector_account.disabled` when it disables the account, `connector_account.updated` otherwise.
 * @param readShards the merchant's list shard `read` count (its payments-by-status partitions, for an `api_key` change)
 * @throws ApiError 404; 409 `connector_label_taken`; 409 `connector_account_changed` when a concurrent change
 *   won or a delete runs (retry); 409 `connector_account_in_use` for an `api_key` change while open operations
 *   exist and the current key works ({@link assertKeyMayChange}); the errors of {@link verifiedMode} on a credential change
 */
export async function updateConnectorAccount(
  merchantId: string,
  merchantConnectorId: string,
  body: UpdateConnectorAccountBody,
  publicBaseUrl: string,
  readShards = 1,
): Promise<ConnectorAccountView> {
  if (!isIdOf('connectorAccount', merchantConnectorId)) throw resourceNotFound('connector account', 'merchant_connector_id');
  const before = await loadAccount(merchantId, merchantConnectorId);
  if (beingDeleted(before)) {
    throw new ApiError(
      409,
      'invalid_request_error',
      'connector_account_changed',
      'This connector account is being deleted; retry in a few seconds (a deleted account answers 404).',
    ).asTransient();
  }
  assertNoUnusedCredential(before.connector_name, body);
  if (body.payment_methods_enabled) assertEnabledWithinCapabilities(before.connector_name, body.payment_methods_enabled);
  const change: ConnectorAccountChange = {
    connector_label: body.connector_label,
    payment_methods_enabled: body.payment_methods_enabled,
    disabled: body.disabled,
    status: body.disabled === undefined ? undefined : body.disabled ? 'inactive' : 'active',
    metadata: body.metadata as Metadata | undefined,
  };
  if (body.connector_account_details || body.connector_webhook_details) {
    // A credential change: the new set (pieces not sent are kept) is verified like a new account's.
    const current = before.credentials_encrypted
      ? ((await decryptCredentials(before.credentials_encrypted, {
          merchant_id: merchantId,
          merchant_connector_id: merchantConnectorId,
        })) as unknown as ConnectorCredentials)
      : { api_key: '' };
    const credentials: ConnectorCredentials = {
      api_key: body.connector_account_details?.api_key ?? current.api_key,
      ...((body.connector_account_details?.key1 ?? current.key1) ? { key1: body.connector_account_details?.key1 ?? current.key1 } : {}),
      ...((body.connector_webhook_details?.merchant_secret ?? current.webhook_secret)
        ? { webhook_secret: body.connector_webhook_details?.merchant_secret ?? current.webhook_secret }
        : {}),
    };
    if (credentials.api_key !== current.api_key) await assertKeyMayChange(before, current, readShards);
    change.mode = await verifiedMode(before.connector_name, credentials);
    change.connector_account_details = maskedDetails(before.connector_name, credentials);
    change.webhook_secret_set = Boolean(credentials.webhook_secret);
    change.credentials_encrypted = await encryptCredentials(credentials as unknown as Record<string, string>, {
      merchant_id: merchantId,
      merchant_connector_id: merchantConnectorId,
    });
  }
  const disabling = body.disabled === true && !before.disabled;
  let after: StoredConnectorAccount;
  try {
    after = await writeAccount(before, change, {
      type: disabling ? 'connector_account.disabled' : 'connector_account.updated',
      view: (a) => accountView(a, publicBaseUrl),
    });
  } catch (err) {
    if (err instanceof LabelTakenError) throw labelTaken();
    if (isStorageUnavailable(err)) {
      throw new ApiError(
        503,
        'api_error',
        'service_unavailable',
        'Storage failed while the account was being changed; the change may or may not have been applied. Read the account and retry if needed.',
      ).asTransient();
    }
    if (err instanceof ConditionFailedError) {
      if (!err.current) throw resourceNotFound('connector account', 'merchant_connector_id');
      throw new ApiError(
        409,
        'invalid_request_error',
        'connector_account_changed',
        'The connector account changed while this update was applied; read it and retry.',
      ).asTransient();
    }
    throw err;
  }
  forgetConnectorConfig(merchantId);
  forgetAccountConnector(merchantConnectorId);
  return accountView(after, publicBaseUrl);
}

/**
 * Whether an account's secret key may be replaced now. The new key is checked to be a working key of the
 * connector, but no processor tells (from a balance read) whether it is a key of the *same* account: a key of
 * another account would send the syncs of payments in flight to an account that never saw them, which
 * would answer "not found" and close them as failed. So while the account holds open operations, its key
 * may only be replaced when the current one no longer works (revoked or rolled at the processor: nothing
 * can be settled with it anyway); otherwise settle them first, or connect the other account as a new one.
 * @throws ApiError 409 `connector_account_in_use` (open operations and the current key still works);
 *   503 `connector_unreachable` (the processor could not say; nothing changed)
 */
async function assertKeyMayChange(account: StoredConnectorAccount, current: ConnectorCredentials, readShards: number): Promise<void> {
  if (!(await accountHasOpenItems(account.merchant_id, account.merchant_connector_id, readShards))) return;
  const adapter = await connectorWithCredentials(account.connector_name, current, await connectorSettings());
  try {
    await adapter?.verifyCredentials();
  } catch (err) {
    if (err instanceof ConnectorRequestError && err.code === INVALID_CREDENTIALS_CODE) return; // revoked: replace it
    if (err instanceof ConnectorRequestError || err instanceof ConnectorTechnicalError) {
      throw new ApiError(
        503,
        'connector_error',
        'connector_unreachable',
        `${account.connector_name} could not be reached to check the current key. Nothing was changed; retry shortly.`,
      ).asTransient();
    }
    throw err;
  }
  throw new ApiError(
    409,
    'invalid_request_error',
    'connector_account_in_use',
    "This account's current key still works and it holds open operations (payments processing, awaiting the payer or capture, refunds pending): settle them before changing api_key, or connect the other processor account as a new connector account.",
    'connector_account_details.api_key',
  );
}

/**
 * Deletes an account: refused while it holds open operations (a payment `Processing`, `RequiresAction`
 * or `RequiresCapture`, or with a processor call unsettled; a `Pending` refund) or while the active
 * routing algorithm names it; otherwise it is disabled, its credentials destroyed (the encrypted blob
 * removed from the item) and it answers 404 from then on. The account is first marked as being deleted
 * (routing passes it over), then the delete waits the configuration cache period plus
 * {@link DELETE_INDEX_SETTLE_MS} before it checks, so the answer takes that long (about 6 s by default;
 * docs/api.md "Connector accounts"). Races with routing changes go to whichever commits first: a routing change
 * committed before the mark makes the delete answer 409 (`connector_account_in_use` when the active algorithm
 * names the account, `connector_account_changed` when the routing changed between the delete's read and its
 * mark); from the mark on, a routing change naming the account answers 409 `routing_changed` and the delete
 * goes on (docs/api.md "Deleting an account").
 * @param readShards the merchant's list shard `read` count (its payments-by-status partitions)
 * @returns `{merchant_connector_id, deleted: true}`
 * @throws ApiError 404; 409 `connector_account_in_use` (open operations, or named by the active algorithm);
 *   409 `connector_account_changed` when a concurrent change of the account, or of the routing before the mark, won (retry)
 */
export async function deleteConnectorAccount(
  merchantId: string,
  merchantConnectorId: string,
  publicBaseUrl: string,
  readShards = 1,
): Promise<{ merchant_connector_id: string; deleted: true }> {
  const account = await loadAccount(merchantId, merchantConnectorId);
  const config = await readConnectorConfig(merchantId);
  const { profile } = config;
  if (profile?.active_algorithm && algorithmAccountIds(profile.active_algorithm.algorithm).includes(merchantConnectorId)) {
    throw new ApiError(
      409,
      'invalid_request_error',
      'connector_account_in_use',
      'The active routing algorithm sends payments to this connector account: activate another algorithm (or POST /routing/deactivate) first.',
      'merchant_connector_id',
    );
  }
  const changed = () =>
    new ApiError(
      409,
      'invalid_request_error',
      'connector_account_changed',
      'The connector account or your routing changed while it was being deleted; retry.',
    ).asTransient();
  // The finishing transaction counts one account less: a merchant from before counters gets its counter now.
  await initialiseAccountCount(merchantId, config);
  let marked: StoredConnectorAccount;
  try {
    // Guarded by the profile version read above: a routing change committed since (one that may name the
    // account) makes this delete answer 409; one that comes after the mark and names it answers 409 itself.
    marked = await markDeleting(account, profile?.version ?? null);
  } catch (err) {
    if (err instanceof ConditionFailedError) throw changed();
    throw err;
  }
  forgetConnectorConfig(merchantId);
  // Containers route from a configuration cached up to the cache period: wait it out (plus the open-
  // operations index's propagation), so any authorization routed to this account before the mark is
  // visible to the check below and none can start after it.
  await sleep(connectorConfigCacheMs() + DELETE_INDEX_SETTLE_MS);
  const release = () =>
    clearDeleting(marked).catch((err: unknown) =>
      logger.error('could not clear deleting_since', { merchant_connector_id: merchantConnectorId, error: (err as Error).name }),
    );
  try {
    if (await accountHasOpenItems(merchantId, merchantConnectorId, readShards)) {
      await release();
      throw new ApiError(
        409,
        'invalid_request_error',
        'connector_account_in_use',
        'This connector account still holds open operations (payments processing, awaiting the payer or capture, or refunds pending): settle, capture or cancel them first. You can disable it meanwhile (PUT disabled: true).',
        'merchant_connector_id',
      );
    }
    await finishDelete(marked, (a) => accountView(a, publicBaseUrl));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // The delete did not finish (a lost race, storage failing): the account takes payments again.
    await release();
    if (err instanceof ConditionFailedError) throw changed();
    if (isStorageUnavailable(err)) {
      throw new ApiError(
        503,
        'api_error',
        'service_unavailable',
        'Storage failed while the account was being deleted; the delete may or may not have happened. Retry: a deleted account answers 404.',
      ).asTransient();
    }
    throw err;
  }
  forgetConnectorConfig(merchantId);
  forgetAccountConnector(merchantConnectorId);
  logger.info('connector account deleted; credentials destroyed', { merchant_connector_id: merchantConnectorId });
  return { merchant_connector_id: merchantConnectorId, deleted: true };
}
