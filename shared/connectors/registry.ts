import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { logger } from '../observability/logger';
import type { Connector } from './connector';
import { FlutterwaveConnector } from './flutterwave/flutterwave-connector';
import { PaystackConnector } from './paystack/paystack-connector';
import { SandboxConnector } from './sandbox/sandbox-connector';
import { StripeConnector } from './stripe/stripe-connector';
import { stripeApiVersionProblem } from './stripe/transformers';

/**
 * Connector configuration: secret keys and base URLs by variable name
 * (`PAYSTACK_SECRET_KEY`, `STRIPE_BASE_URL`, …). Locally they come from the
 * environment; on a deployed stage from the Secrets Manager secret named by
 * `CONNECTOR_SECRETS_ID` (a JSON object of the same names), read through
 * Powertools Parameters and cached for 5 minutes. Never from code.
 */
export type ConnectorSettings = Record<string, string | undefined>;

async function settings(): Promise<ConnectorSettings> {
  const secretId = process.env.CONNECTOR_SECRETS_ID;
  if (!secretId) return process.env;
  const fromSecret = (await getSecret(secretId, { transform: 'json', maxAge: 300 })) as Record<string, string> | undefined;
  return { ...process.env, ...(fromSecret ?? {}) };
}

/** Builds one connector from settings, or undefined when its keys are not configured. */
type ConnectorFactory = (s: ConnectorSettings) => Connector | undefined;

/**
 * The `CONNECTOR_TIMEOUT_MS` override, in milliseconds: when set to a positive integer it replaces
 * every per-operation timeout of every processor (the tables in each adapter's `transformers.ts`:
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
 * `stripe/transformers.ts`): `{ apiVersion }` when set to a version the adapter can speak (dated
 * 2026-07-29 or later, see `stripeApiVersionProblem`); unset, empty or unusable → nothing (the
 * pinned version applies; an unusable value is logged, so a typo never disables Stripe).
 */
export function stripeApiVersionOverride(s: ConnectorSettings): { apiVersion?: string } {
  const raw = s.STRIPE_API_VERSION?.trim();
  if (!raw) return {};
  const problem = stripeApiVersionProblem(raw);
  if (problem) {
    logger.warn('STRIPE_API_VERSION ignored; the pinned Stripe API version applies', { reason: problem });
    return {};
  }
  return { apiVersion: raw };
}

/** Every connector the service knows, by routing name. */
export const CONNECTOR_FACTORIES: Readonly<Record<string, ConnectorFactory>> = {
  sandbox: () => new SandboxConnector(),
  flutterwave: (s) =>
    s.FLUTTERWAVE_SECRET_KEY && s.FLUTTERWAVE_ENCRYPTION_KEY && s.FLUTTERWAVE_WEBHOOK_HASH
      ? new FlutterwaveConnector({
          baseUrl: s.FLUTTERWAVE_BASE_URL || 'https://api.flutterwave.com',
          secretKey: s.FLUTTERWAVE_SECRET_KEY,
          encryptionKey: s.FLUTTERWAVE_ENCRYPTION_KEY,
          webhookSecret: s.FLUTTERWAVE_WEBHOOK_HASH,
          ...timeoutOverride(s),
        })
      : undefined,
  paystack: (s) =>
    s.PAYSTACK_SECRET_KEY
      ? new PaystackConnector({
          baseUrl: s.PAYSTACK_BASE_URL || 'https://api.paystack.co',
          secretKey: s.PAYSTACK_SECRET_KEY,
          // Paystack signs webhooks with the secret key itself.
          webhookSecret: s.PAYSTACK_WEBHOOK_SECRET || s.PAYSTACK_SECRET_KEY,
          ...timeoutOverride(s),
        })
      : undefined,
  stripe: (s) =>
    s.STRIPE_SECRET_KEY
      ? new StripeConnector({
          baseUrl: s.STRIPE_BASE_URL || 'https://api.stripe.com',
          secretKey: s.STRIPE_SECRET_KEY,
          webhookSecret: s.STRIPE_WEBHOOK_SECRET ?? '',
          ...timeoutOverride(s),
          ...stripeApiVersionOverride(s),
        })
      : undefined,
};

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
  const s = await settings();
  const key = JSON.stringify(Object.entries(s).filter(([k]) => k.startsWith(name.toUpperCase()) || k === 'CONNECTOR_TIMEOUT_MS'));
  const hit = cache.get(name);
  if (hit && hit.key === key) return hit.connector;
  let connector: Connector | undefined;
  try {
    connector = factory(s);
  } catch (err) {
    // A connector whose settings are incomplete or invalid is treated as not configured (routing skips it).
    logger.error('connector settings rejected; connector disabled', { connector: name, reason: (err as Error).message });
    connector = undefined;
  }
  cache.set(name, { connector, key });
  return connector;
}
