/**
 * No secret reaches a log line, whatever the log level or event logging: this file runs the flows of
 * three HTTP suites — connector accounts with processors' credentials (test/http/connector-accounts.test.ts),
 * the processors' inbound webhooks (test/http/inbound-webhooks.test.ts) and payments that save and charge
 * processor tokens (test/http/saved-methods-processors.test.ts) — with `POWERTOOLS_LOGGER_LOG_EVENT=true`
 * and `POWERTOOLS_LOG_LEVEL=DEBUG`, captures everything written to stdout and stderr, and searches it for
 * every secret the stand-ins were given or handed out: secret keys, webhook signing secrets, Flutterwave's
 * encryption key and secret hash, Stripe `pm_…` tokens, Paystack authorization codes; and, from a payment link's
 * checkout page (test/http/checkout-page.test.ts), the card numbers its form posted and the return signing
 * secret. None may be found.
 */
import {
  FLUTTERWAVE_STAND_IN_ENCRYPTION_KEY,
  FLUTTERWAVE_STAND_IN_SECRET_KEY,
  FLUTTERWAVE_STAND_IN_WEBHOOK_HASH,
} from '../helpers/flutterwave-stand-in';
import { PAYSTACK_STAND_IN_SECRET_KEY } from '../helpers/paystack-stand-in';
import { STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET } from '../helpers/stripe-stand-in';

process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
// Loaded after the settings above: Powertools reads them when the logger is built.
const { logger } = require('../../shared/observability/logger') as typeof import('../../shared/observability/logger');

const captured: string[] = [];
// Replaced, not spied: the suites below spy on stdout themselves and restore their spies. Stdout (Powertools'
// records below ERROR) is kept from the terminal; stderr (ERROR records, and jest's own report) passes through.
const stderrWrite = process.stderr.write.bind(process.stderr);
process.stdout.write = ((chunk: string | Uint8Array) => {
  captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  return true;
}) as typeof process.stdout.write;
process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  return (stderrWrite as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stderr.write;

/** The log records captured: Powertools writes one JSON object a line. */
const logRecords = () =>
  captured
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"level":'))
    .join('\n');

// The suites' flows, registered in this file (their hooks and tests run here, with this file's settings), each
// in a describe of its own so that its top-level hooks (tables, stand-ins, environment) stay its own.
describe('connector accounts', () => {
  require('./connector-accounts.test');
});
describe('inbound webhooks', () => {
  require('./inbound-webhooks.test');
});
describe('saved methods at the processors', () => {
  require('./saved-methods-processors.test');
});
describe('payment links and their checkout page', () => {
  require('./checkout-page.test');
});

// Every test runs at DEBUG (a suite's own hooks may set another level between its tests).
beforeEach(() => logger.setLogLevel('DEBUG'));

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

test('the flows logged their events at level DEBUG, and no secret is in the log', () => {
  const log = logRecords();
  expect(log).toContain('Lambda invocation event');
  for (const route of ['POST /connector_accounts', 'POST /webhooks/{connector}', 'POST /payments'])
    expect(log).toContain(`"routeKey":"${route}"`);
  const found = [
    ...SECRETS.filter((s) => log.includes(s)).map((s) => `value ${s.slice(0, 6)}…`),
    ...SECRET_SHAPES.filter(([, shape]) => shape.test(log)).map(([name, shape]) => `${name}: ${log.match(shape)?.[0].slice(0, 10)}…`),
  ];
  expect(found).toEqual([]);
});
