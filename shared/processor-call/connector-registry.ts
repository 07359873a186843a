import type { Connector } from '../connectors/connector';
import { usedCredentials } from '../connectors/credential-mode';
import type { ConnectorCredentials, ConnectorName } from '../domain/connector-account';
import type { SandboxLedger } from '../domain/sandbox-ledger';
import { logger } from '../observability/logger';
import { readStageSecret } from '../security/stage-secrets';

/**
 * Connector configuration: secret keys and base URLs by variable name
 * (`PAYSTACK_SECRET_KEY`, `STRIPE_BASE_URL`, …). Locally they come from the
 * environment; on a deployed stage from the Secrets Manager secret named by
 * `CONNECTOR_SECRETS_ID` (a JSON object of the same names), read through
 * Powertools Parameters and cached for 5 minutes. Never from code.
 */
export type ConnectorSettings = Record<string, string | undefined>;

/**
 * The current connector settings: the environment, overlaid with the Secrets Manager secret named by
 * `CONNECTOR_SECRETS_ID` when set (cached 5 minutes). What {@link configuredConnector} builds from; a caller of
 * {@link connectorWithCredentials} whose stage keeps base URLs in that secret passes it too.
 * @throws the Secrets Manager error when the secret cannot be read
 */
export async function connectorSettings(): Promise<ConnectorSettings> {
  const secretId = process.env.CONNECTOR_SECRETS_ID;
  if (!secretId) return process.env;
  const fromSecret = (await readStageSecret(secretId, { transform: 'json', maxAge: 300 })) as Record<string, string> | undefined;
  // Merged once per value Powertools hands out (the same object while its 5-minute cache holds): copying the
  // environment costs ~40 µs, and routing asks for the settings once per candidate connector.
  if (!merged || merged.from !== fromSecret) merged = { from: fromSecret, settings: { ...process.env, ...(fromSecret ?? {}) } };
  return merged.settings;
}

/** The last merge of the environment and the secret's value, by that value. */
let merged: { from: Record<string, string> | undefined; settings: ConnectorSettings } | undefined;

/**
 * Builds one connector from settings, or resolves undefined when its keys are not configured. Asynchronous
 * because the adapter's module is loaded on first use (docs/connectors.md "Adapters are loaded on first use": a bundle holds each connector in its own
 * chunk, so a handler loads the one a payment needs, not all four).
 */
type ConnectorFactory = (s: ConnectorSettings) => Promise<Connector | undefined>;

/**
 * The `CONNECTOR_TIMEOUT_MS` override, in milliseconds: when set to a positive integer it replaces
 * every per-operation timeout of every processor (the tables in each adapter's `timeouts.ts`:
 * `STRIPE_TIMEOUTS_MS`, `PAYSTACK_TIMEOUTS_MS`, `FLUTTERWAVE_TIMEOUTS_MS`; see docs/connectors.md).
 * Unset or empty → undefined (the tables apply). Any other value is logged and ignored, so a typo
 * does not disable the connectors nor send calls without a timeout.
 * @returns the override in milliseconds, or undefined
 */
export function connectorTimeoutOverride(s: ConnectorSettings): number | undefined {
  const raw = s.CONNECTOR_TIMEOUT_MS?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (/^\d+$/.test(raw) && Number.isSafeInteger(value) && value > 0) return value;
  logger.warn('CONNECTOR_TIMEOUT_MS is not a positive integer; the per-processor timeouts apply', { value: raw.slice(0, 32) });
  return undefined;
}

/** `{ timeoutMs }` when the override is set, else nothing (each adapter then uses its own table). */
const timeoutOverride = (s: ConnectorSettings): { timeoutMs?: number } => {
  const timeoutMs = connectorTimeoutOverride(s);
  return timeoutMs === undefined ? {} : { timeoutMs };
};

/**
 * The `STRIPE_API_VERSION` override of the pinned Stripe API version (`STRIPE_API_VERSION` constant in
 * `stripe/api-version.ts`): `{ apiVersion }` when set to a version the adapter can speak (dated
 * 2026-07-29 or later, see `stripeApiVersionProblem`); unset, empty or unusable → nothing (the
 * pinned version applies; an unusable value is logged, so a typo never disables Stripe). Loads the Stripe
 * adapter's `api-version.ts` when a value is set.
 */
export async function stripeApiVersionOverride(s: ConnectorSettings): Promise<{ apiVersion?: string }> {
  const raw = s.STRIPE_API_VERSION?.trim();
  if (!raw) return {};
  const { stripeApiVersionProblem } = await import('../connectors/stripe/api-version');
  const problem = stripeApiVersionProblem(raw);
  if (problem) {
    logger.warn('STRIPE_API_VERSION ignored; the pinned Stripe API version applies', { reason: problem });
    return {};
  }
  return { apiVersion: raw };
}

/**
 * The stage settings an adapter is built with besides its credentials: each processor's base URL (default: its
 * production API), the `CONNECTOR_TIMEOUT_MS` override and the `STRIPE_API_VERSION` override. The only names
 * {@link CONNECTOR_BUILDERS} can see ({@link stageSettingsOf}), so no key of the platform's can reach an adapter
 * built for a merchant's account.
 */
export const STAGE_CONNECTOR_SETTING_NAMES = [
  'STRIPE_BASE_URL',
  'PAYSTACK_BASE_URL',
  'FLUTTERWAVE_BASE_URL',
  'CONNECTOR_TIMEOUT_MS',
  'STRIPE_API_VERSION',
] as const;

/** The settings named by {@link STAGE_CONNECTOR_SETTING_NAMES}, and nothing else. */
export type StageConnectorSettings = Readonly<Partial<Record<(typeof STAGE_CONNECTOR_SETTING_NAMES)[number], string>>>;

/** `s` narrowed to {@link STAGE_CONNECTOR_SETTING_NAMES} (unset ones left out). */
function stageSettingsOf(s: ConnectorSettings): StageConnectorSettings {
  const out: Partial<Record<(typeof STAGE_CONNECTOR_SETTING_NAMES)[number], string>> = {};
  for (const name of STAGE_CONNECTOR_SETTING_NAMES) {
    const value = s[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * The one construction of each connector's adapter, from credentials (`api_key`, `key1`, `webhook_secret`) and the
 * stage's settings. Both paths use it: {@link configuredConnector} with the platform's own keys
 * ({@link PLATFORM_CREDENTIALS}), {@link connectorWithCredentials} with a merchant account's.
 * Production base URLs: `https://api.stripe.com`, `https://api.paystack.co`, `https://api.flutterwave.com`.
 * @throws Error / RangeError from the adapter's constructor when the credentials cannot make an adapter (e.g. a
 *   Flutterwave encryption key that is not 24 characters); the messages name fields, never values
 */
const CONNECTOR_BUILDERS: Readonly<Record<ConnectorName, (c: ConnectorCredentials, stage: StageConnectorSettings) => Promise<Connector>>> =
  {
    // Each adapter's module is imported here, on first use, and nowhere else in the handlers' code: esbuild puts it
    // in a chunk of its own (lib/function-bundling.ts), which Node loads once per container.
    sandbox: async () => new (await import('../connectors/sandbox/sandbox-connector')).SandboxConnector(await sandboxLedger()),
    flutterwave: async (c, stage) =>
      new (await import('../connectors/flutterwave/flutterwave-connector')).FlutterwaveConnector({
        baseUrl: stage.FLUTTERWAVE_BASE_URL || 'https://api.flutterwave.com',
        secretKey: c.api_key,
        encryptionKey: c.key1 ?? '',
        // Optional: without a secret hash every webhook is refused.
        webhookSecret: c.webhook_secret ?? '',
        ...timeoutOverride(stage),
      }),
    paystack: async (c, stage) =>
      new (await import('../connectors/paystack/paystack-connector')).PaystackConnector({
        baseUrl: stage.PAYSTACK_BASE_URL || 'https://api.paystack.co',
        secretKey: c.api_key,
        // Paystack signs webhooks with the secret key itself.
        webhookSecret: c.webhook_secret || c.api_key,
        ...timeoutOverride(stage),
      }),
    stripe: async (c, stage) =>
      new (await import('../connectors/stripe/stripe-connector')).StripeConnector({
        baseUrl: stage.STRIPE_BASE_URL || 'https://api.stripe.com',
        secretKey: c.api_key,
        // Empty: every webhook is refused (signatureProblem: no secret configured).
        webhookSecret: c.webhook_secret ?? '',
        ...timeoutOverride(stage),
        ...(await stripeApiVersionOverride(stage)),
      }),
  };

/**
 * The platform's own account of each connector, from the settings' keys: undefined when they are not configured
 * (the connector is then not configured for the platform's routing). Flutterwave needs all three of
 * `FLUTTERWAVE_SECRET_KEY`, `FLUTTERWAVE_ENCRYPTION_KEY` and `FLUTTERWAVE_WEBHOOK_HASH`; Paystack `PAYSTACK_SECRET_KEY`
 * (`PAYSTACK_WEBHOOK_SECRET` replaces the secret key for webhooks when set); Stripe `STRIPE_SECRET_KEY`
 * (`STRIPE_WEBHOOK_SECRET` optional). The sandbox takes none.
 */
const PLATFORM_CREDENTIALS: Readonly<Record<ConnectorName, (s: ConnectorSettings) => ConnectorCredentials | undefined>> = {
  sandbox: () => ({ api_key: '' }),
  flutterwave: (s) =>
    s.FLUTTERWAVE_SECRET_KEY && s.FLUTTERWAVE_ENCRYPTION_KEY && s.FLUTTERWAVE_WEBHOOK_HASH
      ? { api_key: s.FLUTTERWAVE_SECRET_KEY, key1: s.FLUTTERWAVE_ENCRYPTION_KEY, webhook_secret: s.FLUTTERWAVE_WEBHOOK_HASH }
      : undefined,
  paystack: (s) =>
    s.PAYSTACK_SECRET_KEY
      ? { api_key: s.PAYSTACK_SECRET_KEY, ...(s.PAYSTACK_WEBHOOK_SECRET ? { webhook_secret: s.PAYSTACK_WEBHOOK_SECRET } : {}) }
      : undefined,
  stripe: (s) =>
    s.STRIPE_SECRET_KEY
      ? { api_key: s.STRIPE_SECRET_KEY, ...(s.STRIPE_WEBHOOK_SECRET ? { webhook_secret: s.STRIPE_WEBHOOK_SECRET } : {}) }
      : undefined,
};

/** The sandbox's ledger in the table (shared/storage/sandbox-*-repository.ts), loaded with the sandbox. */
async function sandboxLedger(): Promise<SandboxLedger> {
  const [decisions, disputes] = await Promise.all([
    import('../storage/sandbox-decisions-repository'),
    import('../storage/sandbox-disputes-repository'),
  ]);
  return {
    decide: decisions.decideSandboxPayment,
    decision: decisions.getSandboxDecision,
    putDispute: disputes.putSandboxDispute,
    dispute: disputes.getSandboxDispute,
    disputesChanged: disputes.sandboxDisputesChanged,
  };
}

/**
 * Every connector the service knows, by routing name, built for the platform's own account: the platform's keys
 * ({@link PLATFORM_CREDENTIALS}) through the connector's one construction ({@link CONNECTOR_BUILDERS}); undefined
 * when its keys are not configured.
 */
export const CONNECTOR_FACTORIES: Readonly<Record<string, ConnectorFactory>> = {
  sandbox: (s) => platformConnector('sandbox', s),
  flutterwave: (s) => platformConnector('flutterwave', s),
  paystack: (s) => platformConnector('paystack', s),
  stripe: (s) => platformConnector('stripe', s),
};

/**
 * The platform's adapter of one connector: its keys from the settings, built by the connector's one
 * construction, whose module is loaded on first use.
 */
async function platformConnector(name: ConnectorName, s: ConnectorSettings): Promise<Connector | undefined> {
  const credentials = PLATFORM_CREDENTIALS[name](s);
  return credentials ? CONNECTOR_BUILDERS[name](credentials, stageSettingsOf(s)) : undefined;
}

const cache = new Map<string, { connector: Connector | undefined; key: string }>();

/**
 * Whether the sandbox connector may be used: false only when `SANDBOX_CONNECTOR_ENABLED` is
 * `false` (the stack sets it on stages with `sandbox: false`, i.e. prod; lib/config/stage-config.ts).
 * Unset (local stack, tests) or any other value: enabled.
 */
export function sandboxConnectorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.SANDBOX_CONNECTOR_ENABLED?.trim().toLowerCase() !== 'false';
}

/**
 * The connector registered under `name`, built from the current settings
 * (rebuilt when they change), or undefined when unknown or not configured. The sandbox is not
 * configured where {@link sandboxConnectorEnabled} is false (routing then answers
 * `no_connector_available`, as for any connector without keys).
 */
export async function configuredConnector(name: string): Promise<Connector | undefined> {
  if (name === 'sandbox' && !sandboxConnectorEnabled()) return undefined;
  const factory = Object.hasOwn(CONNECTOR_FACTORIES, name) ? CONNECTOR_FACTORIES[name] : undefined;
  if (!factory) return undefined;
  const s = await connectorSettings();
  // What the build reads, by the build's own functions (not by enumerating the settings: enumerating process.env
  // costs ~50 µs a call in the per-invocation profile, docs/benchmarks.md): the adapter is rebuilt when one of them changes.
  const key = JSON.stringify([PLATFORM_CREDENTIALS[name as ConnectorName](s), stageSettingsOf(s)]);
  const hit = cache.get(name);
  if (hit && hit.key === key) return hit.connector;
  let connector: Connector | undefined;
  try {
    connector = await factory(s);
  } catch (err) {
    // A connector whose settings are incomplete or invalid is treated as not configured (routing skips it).
    logger.error('connector settings rejected; connector disabled', { connector: name, reason: (err as Error).message });
    connector = undefined;
  }
  cache.set(name, { connector, key });
  return connector;
}

/**
 * A fresh adapter for a merchant's own account at a processor, built from the account's credentials (decrypted, in
 * memory only) through the connector's one construction ({@link CONNECTOR_BUILDERS}), with the stage's base URL,
 * `CONNECTOR_TIMEOUT_MS` and `STRIPE_API_VERSION` from `settings` ({@link STAGE_CONNECTOR_SETTING_NAMES}) and never
 * the platform's keys. Only the pieces the connector uses are passed on (`usedCredentials`): for Paystack the
 * webhook secret is the `api_key`; Stripe and Flutterwave without `webhook_secret` refuse every webhook of the
 * account. Not cached: the caller keeps the adapter as long as it may hold the credentials.
 * @param name the account's `connector_name`
 * @param credentials the account's credentials (`api_key`; Flutterwave's `key1`; `webhook_secret`)
 * @param settings the stage's connector settings (default `process.env`; pass {@link connectorSettings}'s when the
 *   stage keeps base URLs in its Secrets Manager secret)
 * @returns (a promise of) the adapter, whose module is loaded on first use; undefined when `name` is not a connector, when it is the sandbox and
 *   {@link sandboxConnectorEnabled} is false, or when the credentials cannot make an adapter (logged with the
 *   connector and the reason, never a value; `credentialShapeProblem` refuses such credentials at connect time)
 */
export async function connectorWithCredentials(
  name: ConnectorName,
  credentials: ConnectorCredentials,
  settings: ConnectorSettings = process.env,
): Promise<Connector | undefined> {
  if (!Object.hasOwn(CONNECTOR_BUILDERS, name)) return undefined;
  if (name === 'sandbox' && !sandboxConnectorEnabled()) return undefined;
  try {
    return await CONNECTOR_BUILDERS[name](usedCredentials(name, credentials), stageSettingsOf(settings));
  } catch (err) {
    logger.error('connector account credentials rejected; no adapter built', { connector: name, reason: (err as Error).message });
    return undefined;
  }
}
