/**
 * The connector account routes (`/connector_accounts…`): merchants' own processor accounts. Data read by
 * shared/api/routes.ts: schemas, the domain and shared/api's route types only.
 */
import {
  AUTHENTICATED,
  CONCURRENT_WRITE,
  type ErrorCodes,
  IDEMPOTENT,
  JSON_BODY,
  JSON_ROUTE,
  LIST,
  mergeErrors,
  NOT_FOUND,
} from '../../api/operation-errors';
import { CONNECTOR_ACCOUNT_ID, json, jsonBody, LIST_QUERY_DOCS, replayed } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { listConnectorAccountsQuerySchema } from '../../schemas/connector-account-list-schema';
import { ConnectorAccountResource, DeletedConnectorAccountResource } from '../../schemas/connector-account-resource-schema';
import { createConnectorAccountSchema, updateConnectorAccountSchema } from '../../schemas/connector-account-schemas';
import { ConnectorAccountListResource } from '../../schemas/resource-lists-schema';

const CONNECTOR_ACCOUNT_FIELDS = {
  connector_label:
    'Your name for the account, unique among your accounts (case-insensitive): 1 to 64 letters, digits, spaces, `.`, `_` or `-`, starting with a letter or digit. Default on create: `<connector_name>_<n>`.',
  connector_account_details:
    "The account's credentials, **write-only**: verified at the processor (one read-only call) before anything is stored, stored encrypted, answered masked (prefix and last 4 characters). Required on create except for the sandbox.",
  'connector_account_details.auth_type': "Accepted for Hyperswitch's shape (`HeaderKey` or `BodyKey`); ignored.",
  'connector_account_details.api_key':
    'The secret key: Stripe `sk_test_…`/`rk_test_…` (`sk_live_…`/`rk_live_…` on prod), Paystack `sk_test_…` (`sk_live_…`), Flutterwave `FLWSECK_TEST-…` (`FLWSECK-…`). Test keys on every stage but prod, live keys on prod only (400 `connector_credentials_mode`). The sandbox takes none.',
  'connector_account_details.key1':
    'Flutterwave only, and required there: the 24-character encryption key of its direct card charges. Refused for the other connectors.',
  connector_webhook_details: "How the processor signs its webhooks to this account's `webhook_url`, **write-only**.",
  'connector_webhook_details.merchant_secret':
    "Stripe: the endpoint's signing secret (`whsec_…`); Flutterwave: the dashboard's secret hash. Optional (without it the account's webhooks are refused: its payments are settled by sync and the reconciler). Paystack signs with the secret key itself and the sandbox with the stage's own secret: refused for them.",
  payment_methods_enabled:
    'What routing may send to this account: one entry per payment method, `{payment_method, currencies, minimum_amount?, maximum_amount?}` (amounts in minor units, bounds inclusive). Only what the connector itself takes (docs/connectors.md); default on create: everything it takes, without bounds. Replaces the whole list on update.',
  disabled:
    'A disabled account takes no new payments; it still captures, voids, refunds and reconciles the payments it holds. Default false.',
  metadata: 'Your own key/value pairs (replaces the whole map on update).',
};

/**
 * Connecting or changing a connector account's credentials (shared/operations/connector-accounts/connector-account-operations.ts
 * `verifiedMode`): a malformed key (400 `parameter_invalid`), a live key on a test stage or a test key on prod
 * (`connector_credentials_mode`), a connector this stage cannot connect (`connector_not_available`: the sandbox on
 * prod), the processor refusing them (`connector_credentials_invalid`), or not answering (503
 * `connector_unreachable`). Nothing is stored in any of these cases.
 */
const CONNECTOR_CREDENTIALS: ErrorCodes = {
  400: ['parameter_invalid', 'connector_credentials_mode', 'connector_not_available', 'connector_credentials_invalid'],
  503: ['connector_unreachable'],
};

/** The connector account routes, in the route table's order. */
export const CONNECTOR_ACCOUNT_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/connector_accounts',
    entry: 'functions/connector-accounts/create-connector-account.ts',
    name: 'CreateConnectorAccount',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
      operationId: 'createConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Connect a processor account',
      description:
        "Connects one of your processor accounts (Hyperswitch's merchant connector account). The credentials are checked before anything is stored: their shape, the stage's mode (test keys everywhere but prod, live keys on prod only), then one read-only authenticated call at the processor (Stripe `GET /v1/balance`, Paystack `GET /balance`, Flutterwave `GET /v3/balances`; the sandbox takes no credentials and is not offered on prod). Refused, or the processor unreachable: nothing is stored. Then they are encrypted (AWS Encryption SDK, bound to your merchant and the account) and never answered again but masked. At most 50 accounts per merchant. Emits `connector_account.created`; routing may send payments to it within `CONNECTOR_CONFIG_CACHE_MS` (5 s).",
      body: jsonBody(
        createConnectorAccountSchema,
        true,
        '`connector_name` required; `connector_account_details` required except for the sandbox; everything else optional.',
        {
          connector_name:
            'The processor: `paystack`, `flutterwave`, `stripe`, or `sandbox` (the built-in test processor: not on prod). Cannot change later.',
          ...CONNECTOR_ACCOUNT_FIELDS,
        },
      ),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: replayed(json(ConnectorAccountResource, 'The account, credentials masked, with the `webhook_url` to give the processor.')),
      },
      errors: mergeErrors(
        JSON_ROUTE,
        AUTHENTICATED,
        JSON_BODY,
        CONNECTOR_CREDENTIALS,
        { 400: ['connector_account_limit'], 409: ['connector_label_taken'] },
        IDEMPOTENT,
        CONCURRENT_WRITE,
      ),
    },
  },
  {
    method: 'GET',
    path: '/connector_accounts',
    entry: 'functions/connector-accounts/list-connector-accounts.ts',
    name: 'ListConnectorAccounts',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listConnectorAccounts',
      tag: 'Connector accounts',
      summary: 'List connector accounts',
      description:
        'Your connector accounts, newest first, credentials masked; deleted ones are not listed. One read of your (at most 50) accounts.',
      query: listConnectorAccountsQuerySchema,
      queryDocs: {
        ...LIST_QUERY_DOCS,
        connector_name: { description: 'Only accounts of this connector (`paystack`, `flutterwave`, `stripe`, `sandbox`).' },
        disabled: { description: '`true`: only disabled accounts; `false`: only enabled ones.' },
      },
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(ConnectorAccountListResource, 'One page of connector accounts.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
    },
  },
  {
    method: 'GET',
    path: '/connector_accounts/{merchant_connector_id}',
    entry: 'functions/connector-accounts/get-connector-account.ts',
    name: 'GetConnectorAccount',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Retrieve a connector account',
      description: "The account, credentials masked. Another merchant's account, or a deleted one, is 404.",
      pathParams: CONNECTOR_ACCOUNT_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(ConnectorAccountResource, 'The account.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'PUT',
    path: '/connector_accounts/{merchant_connector_id}',
    entry: 'functions/connector-accounts/update-connector-account.ts',
    name: 'UpdateConnectorAccount',
    access: 'write',
    auth: true,
    connectors: true,
    openapi: {
      operationId: 'updateConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Update a connector account',
      description:
        'Sets the fields given (`connector_name` cannot change). New credentials are verified at the processor like a new account\'s before anything is stored (pieces not sent are kept) and re-encrypted. `disabled: true` stops new payments at once in this container and within `CONNECTOR_CONFIG_CACHE_MS` (5 s) everywhere, and emits `connector_account.disabled`; any other change emits `connector_account.updated`. A new `api_key` is refused with 409 `connector_account_in_use` while the account holds open operations and its current key still works (docs/api.md "Changing the key"); any update while a delete of the account runs is 409 `connector_account_changed`.',
      pathParams: CONNECTOR_ACCOUNT_ID,
      body: jsonBody(updateConnectorAccountSchema, false, 'The fields to set (all optional, `null` refused).', CONNECTOR_ACCOUNT_FIELDS),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(ConnectorAccountResource, 'The updated account.') },
      errors: mergeErrors(
        JSON_ROUTE,
        AUTHENTICATED,
        JSON_BODY,
        CONNECTOR_CREDENTIALS,
        NOT_FOUND,
        { 409: ['connector_label_taken', 'connector_account_changed', 'connector_account_in_use'] },
        CONCURRENT_WRITE,
      ),
    },
  },
  {
    method: 'DELETE',
    path: '/connector_accounts/{merchant_connector_id}',
    entry: 'functions/connector-accounts/delete-connector-account.ts',
    name: 'DeleteConnectorAccount',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'deleteConnectorAccount',
      tag: 'Connector accounts',
      summary: 'Delete a connector account',
      description:
        'Refused (409 `connector_account_in_use`) while the active routing algorithm names the account, or while it holds open operations (payments processing, awaiting the payer or capture, a processor call unsettled, refunds pending): settle them, or disable it meanwhile. Otherwise the account is disabled, its credentials destroyed, and it answers 404 from then on; emits `connector_account.disabled`. The account is first marked (routing passes it over), then the delete waits out the configuration cache (`CONNECTOR_CONFIG_CACHE_MS`, 5 s) plus 1 s before it checks, so the answer takes about 6 s.',
      pathParams: CONNECTOR_ACCOUNT_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(DeletedConnectorAccountResource, '`{merchant_connector_id, deleted: true}`.') },
      errors: mergeErrors(
        JSON_ROUTE,
        AUTHENTICATED,
        NOT_FOUND,
        { 409: ['connector_account_in_use', 'connector_account_changed'] },
        CONCURRENT_WRITE,
      ),
    },
  },
];
