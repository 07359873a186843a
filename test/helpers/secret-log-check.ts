/**
 * No secret reaches a log line, whatever the log level or event logging. A suite that hands secrets around
 * (connector accounts with processors' credentials, the processors' inbound webhooks, payments that save and charge
 * processor tokens, a payment link's checkout page) imports this module **first**, so that its whole run logs with
 * `POWERTOOLS_LOGGER_LOG_EVENT=true` at `POWERTOOLS_LOG_LEVEL=DEBUG` (Powertools reads both when the logger is built,
 * on the first import of shared/observability/logger.ts), and ends with {@link expectNoSecretInLog}: everything written
 * to stdout and stderr is captured and searched for every secret the stand-ins were given or handed out. Each flow runs
 * once, with its own assertions and this check (before, a separate suite ran the four suites a second time).
 *
 * Stdout (Powertools' records below ERROR) is kept from the terminal; stderr (ERROR records, and jest's own report)
 * passes through. The write functions are replaced, not spied: the suites spy on stdout themselves and restore their
 * spies. jest gives each test file its own `process.env`, so the settings end with the file.
 */
import {
  FLUTTERWAVE_STAND_IN_ENCRYPTION_KEY,
  FLUTTERWAVE_STAND_IN_SECRET_KEY,
  FLUTTERWAVE_STAND_IN_WEBHOOK_HASH,
} from './flutterwave-stand-in';
import { PAYSTACK_STAND_IN_SECRET_KEY } from './paystack-stand-in';
import { STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET } from './stripe-stand-in';

process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
// Loaded after the settings above: Powertools reads them when the logger is built. Had a module imported before this
// one built it, event logging would be off and expectNoSecretInLog fails (no "Lambda invocation event").
const { logger } = require('../../shared/observability/logger') as typeof import('../../shared/observability/logger');

const captured: string[] = [];
const stderrWrite = process.stderr.write.bind(process.stderr);
process.stdout.write = ((chunk: string | Uint8Array) => {
  captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  return true;
}) as typeof process.stdout.write;
process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  return (stderrWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;

// Every test runs at DEBUG (a suite's own hooks may set another level between its tests).
beforeEach(() => logger.setLogLevel('DEBUG'));

/** The log records captured so far (Powertools writes one JSON object a line), joined by newlines. */
export const logRecords = (): string =>
  captured
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"level":'))
    .join('\n');

/** Secrets by value: what the stand-ins accept as credentials and the secrets they sign with. */
const SECRETS = [
  STAND_IN_SECRET_KEY,
  STAND_IN_WEBHOOK_SECRET,
  PAYSTACK_STAND_IN_SECRET_KEY,
  FLUTTERWAVE_STAND_IN_SECRET_KEY,
  FLUTTERWAVE_STAND_IN_ENCRYPTION_KEY,
  FLUTTERWAVE_STAND_IN_WEBHOOK_HASH,
  // The card numbers the checkout page's form posts (test/http/checkout-page.test.ts), as a browser sends them.
  '4000000000003220',
  '4000000000000002',
  '4242424242424241',
];

/** Secrets by shape: keys and secrets the suites make up per account, and the tokens the stand-ins hand out. */
const SECRET_SHAPES: ReadonlyArray<[string, RegExp]> = [
  ['secret key', /\b[sr]k_(?:test|live)_[A-Za-z0-9]{6,}/],
  ['webhook signing secret', /\bwhsec_[A-Za-z0-9+/]{8,}/],
  ['Flutterwave secret or encryption key', /FLWSECK[_A-Z]*-?[A-Za-z0-9]{6,}/],
  ['Stripe PaymentMethod token', /\bpm_(?![0-9a-f]{32}\b)[A-Za-z0-9]{10,}/],
  ['Paystack authorization code', /\bAUTH_[A-Za-z0-9]{5,}/],
  ['payment link return signing secret', /\bplsec_[0-9a-f]{16,}/],
];

/**
 * Asserts on everything the file logged so far: the invocation events were logged (event logging was on) for each of
 * `routeKeys`, and no secret of {@link SECRETS} or {@link SECRET_SHAPES} is in it. Call it in the file's last test.
 * @param routeKeys API Gateway route keys the file's flows call (`POST /connector_accounts`)
 * @throws jest's assertion error naming each secret found (its first characters only)
 */
export function expectNoSecretInLog(routeKeys: readonly string[]): void {
  const log = logRecords();
  expect(log).toContain('Lambda invocation event');
  for (const route of routeKeys) expect(log).toContain(`"routeKey":"${route}"`);
  const found = [
    ...SECRETS.filter((s) => log.includes(s)).map((s) => `value ${s.slice(0, 6)}…`),
    ...SECRET_SHAPES.filter(([, shape]) => shape.test(log)).map(([name, shape]) => `${name}: ${log.match(shape)?.[0].slice(0, 10)}…`),
  ];
  expect(found).toEqual([]);
}
