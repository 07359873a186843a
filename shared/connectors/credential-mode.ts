/**
 * What an account's credentials look like at each processor, read from their shape alone (no call): the mode a
 * secret key belongs to, and which pieces each connector takes. Imports no adapter, so the connect API and the
 * registry can use it without loading any processor code. The key values are never put in a returned string.
 *
 * Sources (each processor's own statement of its key prefixes):
 * - Stripe: https://docs.stripe.com/keys ("Secret key … sk_test_ / sk_live_", "Restricted key … rk_test_ / rk_live_")
 *   and https://docs.stripe.com/api/authentication ("Test mode secret keys have the prefix sk_test_ and live mode
 *   secret keys have the prefix sk_live_. Alternatively, you can use restricted API keys"); webhook signing secrets
 *   begin `whsec_` (https://docs.stripe.com/webhooks/signature).
 * - Paystack: https://paystack.com/docs/api/#authentication ("Authorization: Bearer SECRET_KEY", sample
 *   `sk_test_r3m3mb3r2pu70nasm1l3`; secret keys are `sk_test_…` in test mode and `sk_live_…` in live mode, the
 *   dashboard's API Keys page showing one of each); webhooks are signed with the secret key itself
 *   (https://paystack.com/docs/payments/webhooks/).
 * - Flutterwave v3: https://developer.flutterwave.com/v3.0/docs/authentication ("Test keys will always have _TEST as
 *   prefix (for example, FLWPUBK_TEST-32193bba8dab84e3d9c4525c85ea7a12-X)": secret keys `FLWSECK_TEST-…` in test
 *   mode, `FLWSECK-…` live, as the official SDK reads them — flutterwave-node-v3 1.4.1 `utils/logger.js`
 *   `_resolveEnvironment`: `FLWPUBK_TEST-` → sandbox, else production; `lib/security.js` strips `FLWSECK-`); the
 *   encryption key is a separate 24-character key "only used with the direct card charge endpoint"
 *   (same page; https://developer.flutterwave.com/docs/integration-guides/encryption/), and the webhook secret hash
 *   is optional ("When enabling webhooks, you have the option to set a secret hash",
 *   https://flutterwaveinc.mintlify.app/webhooks).
 */
import type { ConnectorCredentials, ConnectorName } from '../domain/connector-account';

/** The processor's mode of a key: `test` (no real money) or `live`. */
export type CredentialMode = 'test' | 'live';

/**
 * Secret-key shapes per mode. Stripe and Paystack keys are `<prefix><letters and digits>`; Flutterwave's are
 * `FLWSECK_TEST-<hex>-X` / `FLWSECK-<hex>-X` (letters, digits and hyphens after the prefix are accepted).
 * Publishable/public keys (`pk_…`, `FLWPUBK…`) match none: they cannot call the API.
 */
const KEY_SHAPES: Readonly<Record<Exclude<ConnectorName, 'sandbox'>, Readonly<Record<CredentialMode, RegExp>>>> = {
  stripe: { test: /^(sk|rk)_test_[A-Za-z0-9]+$/, live: /^(sk|rk)_live_[A-Za-z0-9]+$/ },
  paystack: { test: /^sk_test_[A-Za-z0-9]+$/, live: /^sk_live_[A-Za-z0-9]+$/ },
  flutterwave: { test: /^FLWSECK_TEST-[A-Za-z0-9-]+$/, live: /^FLWSECK-[A-Za-z0-9-]+$/ },
};

/** How the secret key of each connector is described in messages (prefixes only, never a value). */
const KEY_DESCRIPTIONS: Readonly<Record<Exclude<ConnectorName, 'sandbox'>, string>> = {
  stripe: 'a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_test_… or rk_live_…)',
  paystack: 'a Paystack secret key (sk_test_… or sk_live_…)',
  flutterwave: 'a Flutterwave v3 secret key (FLWSECK_TEST-… or FLWSECK-…)',
};

/**
 * The mode of a connector's secret key, from its prefix.
 * @param connectorName one of `CONNECTOR_NAMES`
 * @param apiKey the secret key as given (not trimmed: surrounding spaces make it unrecognised)
 * @returns `test` or `live`; always `test` for the sandbox (it moves no money); null when the key has none of the
 *   connector's documented shapes (the API refuses it as invalid), e.g. a publishable key or another processor's key
 */
export function credentialMode(connectorName: ConnectorName, apiKey: string): CredentialMode | null {
  if (connectorName === 'sandbox') return 'test';
  const shapes = Object.hasOwn(KEY_SHAPES, connectorName) ? KEY_SHAPES[connectorName] : undefined;
  if (!shapes || typeof apiKey !== 'string') return null;
  if (shapes.test.test(apiKey)) return 'test';
  if (shapes.live.test(apiKey)) return 'live';
  return null;
}

/** Whether a credential piece is needed when an account is connected, may be given, or is not used by the connector. */
export type CredentialPieceUse = 'required' | 'optional' | 'unused';

/**
 * Which pieces each connector takes from an account (`ConnectorCredentials`):
 * - stripe: `api_key`; `webhook_secret` (`whsec_…`) optional: without it the account's webhooks are refused (its
 *   payments are settled by sync); no `key1`;
 * - paystack: `api_key` only: Paystack signs webhooks with the secret key (the adapter uses `api_key`);
 * - flutterwave: `api_key`; `key1` (the 24-character encryption key) required: the adapter charges cards through
 *   the direct card charge endpoint, the only one that needs it; `webhook_secret` (the dashboard secret hash)
 *   optional, as at Flutterwave: without it the account's webhooks are refused;
 * - sandbox: none (it takes no credentials at all; it is given a placeholder `api_key` internally).
 */
export const CREDENTIAL_PIECES: Readonly<
  Record<ConnectorName, Readonly<{ api_key: CredentialPieceUse; key1: CredentialPieceUse; webhook_secret: CredentialPieceUse }>>
> = {
  stripe: { api_key: 'required', key1: 'unused', webhook_secret: 'optional' },
  paystack: { api_key: 'required', key1: 'unused', webhook_secret: 'unused' },
  flutterwave: { api_key: 'required', key1: 'required', webhook_secret: 'optional' },
  sandbox: { api_key: 'unused', key1: 'unused', webhook_secret: 'unused' },
};

/** A credential piece of {@link CREDENTIAL_PIECES}. */
export type CredentialPiece = keyof (typeof CREDENTIAL_PIECES)[ConnectorName];

/** Where each credential piece is given in a connector account request body (the `param` of an error about it). */
export const CREDENTIAL_PARAMS: Readonly<Record<CredentialPiece, string>> = {
  api_key: 'connector_account_details.api_key',
  key1: 'connector_account_details.key1',
  webhook_secret: 'connector_webhook_details.merchant_secret',
};

/**
 * The first credential piece given in a request that the connector does not use ({@link CREDENTIAL_PIECES}
 * `unused`), in the order `api_key`, `key1`, `webhook_secret`: a secret pasted into the wrong field, or any key
 * given to the sandbox, is refused rather than silently dropped.
 * @param given the pieces as the request holds them (absent: undefined, null or '')
 * @returns the piece, or null when every piece given is one the connector uses
 */
export function unusedCredentialPiece(
  connectorName: ConnectorName,
  given: { api_key?: string | null | undefined; key1?: string | null | undefined; webhook_secret?: string | null | undefined },
): CredentialPiece | null {
  const pieces = CREDENTIAL_PIECES[connectorName];
  for (const piece of ['api_key', 'key1', 'webhook_secret'] as const) {
    if (pieces[piece] === 'unused' && typeof given[piece] === 'string' && given[piece] !== '') return piece;
  }
  return null;
}

/** Length of Flutterwave's encryption key, in characters (the 3DES key of card charges; the adapter refuses any other). */
export const FLUTTERWAVE_ENCRYPTION_KEY_LENGTH = 24;

/** What a merchant gives to connect an account; an absent piece may be undefined, null or empty. */
export interface CredentialDetails {
  api_key: string;
  key1?: string | null;
  webhook_secret?: string | null;
}

/** A given piece: a non-empty string (undefined, null and '' count as absent). */
const given = (value: string | null | undefined): value is string => typeof value === 'string' && value !== '';

/**
 * What is wrong with credentials given to connect an account, judged from their shape alone (before any call):
 * - `api_key` missing, or not one of the connector's key shapes ({@link credentialMode} null);
 * - a piece the connector requires missing, or one it does not use given (see {@link CREDENTIAL_PIECES}), so a
 *   secret pasted into the wrong field is caught rather than silently ignored;
 * - Stripe: `webhook_secret` given but not `whsec_…`; Flutterwave: `key1` not {@link FLUTTERWAVE_ENCRYPTION_KEY_LENGTH}
 *   characters.
 * The sandbox takes any non-empty `api_key` (it is not used) and nothing else.
 * @returns one sentence naming every problem found, `; `-separated, starting with the field name (e.g. `key1 is required
 *   for flutterwave.`; field names and expected shapes only, never a value), or null
 *   when the shapes are right (the processor may still refuse the key: `Connector.verifyCredentials`)
 */
export function credentialShapeProblem(connectorName: ConnectorName, details: CredentialDetails): string | null {
  const pieces = Object.hasOwn(CREDENTIAL_PIECES, connectorName) ? CREDENTIAL_PIECES[connectorName] : undefined;
  if (!pieces) return `${String(connectorName).slice(0, 40)} is not a connector.`;
  const problems: string[] = [];
  if (!given(details.api_key)) problems.push('api_key is required');
  else if (connectorName !== 'sandbox' && credentialMode(connectorName, details.api_key) === null)
    problems.push(`api_key is not ${KEY_DESCRIPTIONS[connectorName]}`);
  for (const piece of ['key1', 'webhook_secret'] as const) {
    const use = pieces[piece];
    if (use === 'required' && !given(details[piece])) problems.push(`${piece} is required for ${connectorName}`);
    if (use === 'unused' && given(details[piece])) problems.push(`${connectorName} takes no ${piece}`);
  }
  if (connectorName === 'stripe' && given(details.webhook_secret) && !/^whsec_\S+$/.test(details.webhook_secret))
    problems.push('webhook_secret is not a Stripe webhook signing secret (whsec_…)');
  if (connectorName === 'flutterwave' && given(details.key1) && details.key1.length !== FLUTTERWAVE_ENCRYPTION_KEY_LENGTH)
    problems.push(`key1 is not a Flutterwave encryption key (${FLUTTERWAVE_ENCRYPTION_KEY_LENGTH} characters)`);
  return problems.length === 0 ? null : `${problems.join('; ')}.`;
}

/**
 * The pieces of an account's credentials the connector uses ({@link CREDENTIAL_PIECES}), the others dropped: what
 * the registry builds an adapter from, so a stray piece can never reach an adapter (e.g. a Paystack
 * `webhook_secret`: Paystack signs with the secret key).
 */
export function usedCredentials(connectorName: ConnectorName, credentials: ConnectorCredentials): ConnectorCredentials {
  const pieces = CREDENTIAL_PIECES[connectorName];
  return {
    api_key: credentials.api_key,
    ...(pieces.key1 !== 'unused' && given(credentials.key1) ? { key1: credentials.key1 } : {}),
    ...(pieces.webhook_secret !== 'unused' && given(credentials.webhook_secret) ? { webhook_secret: credentials.webhook_secret } : {}),
  };
}
