/**
 * shared/connectors/credential-mode.ts: the mode of a key from its documented prefix (Stripe
 * https://docs.stripe.com/keys, Paystack https://paystack.com/docs/api/#authentication, Flutterwave v3
 * https://developer.flutterwave.com/v3.0/docs/authentication and flutterwave-node-v3 1.4.1 `utils/logger.js`), the
 * pieces each connector takes, and the shape problems reported at connect time. Keys are fakes of the documented
 * shapes; no message may ever contain one.
 */
import {
  CREDENTIAL_PIECES,
  type CredentialDetails,
  credentialMode,
  credentialShapeProblem,
  usedCredentials,
} from '../../shared/connectors/credential-mode';
import { CONNECTOR_NAMES, type ConnectorName } from '../../shared/domain/connector-account';

const STRIPE_TEST = 'sk_test_51FakeKeyForShapesOnly0123456789abcdefABCDEF';
const STRIPE_LIVE = 'sk_live_51FakeKeyForShapesOnly0123456789abcdefABCDEF';
const PAYSTACK_TEST = 'sk_test_0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4';
const PAYSTACK_LIVE = 'sk_live_0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4';
// Flutterwave's own sample key shape: FLWPUBK_TEST-32193bba8dab84e3d9c4525c85ea7a12-X (its authentication page).
const FLUTTERWAVE_TEST = 'FLWSECK_TEST-32193bba8dab84e3d9c4525c85ea7a12-X';
const FLUTTERWAVE_LIVE = 'FLWSECK-32193bba8dab84e3d9c4525c85ea7a12-X';
const FLUTTERWAVE_ENCRYPTION_KEY = 'FLWSECK_TEST32193bba8dab';

describe('credentialMode', () => {
  test.each<[ConnectorName, string, 'test' | 'live' | null]>([
    ['stripe', STRIPE_TEST, 'test'],
    ['stripe', STRIPE_LIVE, 'live'],
    ['stripe', 'rk_test_51FakeRestricted0123456789', 'test'],
    ['stripe', 'rk_live_51FakeRestricted0123456789', 'live'],
    ['stripe', 'pk_test_51FakePublishable0123456789', null],
    ['stripe', 'whsec_0123456789abcdef', null],
    ['stripe', 'sk_test_', null],
    ['stripe', ` ${STRIPE_TEST}`, null],
    ['stripe', 'sk_other_0123456789', null],
    ['stripe', FLUTTERWAVE_TEST, null],
    ['paystack', PAYSTACK_TEST, 'test'],
    ['paystack', PAYSTACK_LIVE, 'live'],
    ['paystack', 'pk_test_0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4', null],
    ['paystack', 'rk_test_0f1e2d3c4b5a69788796', null],
    ['paystack', `${PAYSTACK_TEST}\n`, null],
    ['flutterwave', FLUTTERWAVE_TEST, 'test'],
    ['flutterwave', FLUTTERWAVE_LIVE, 'live'],
    ['flutterwave', 'FLWPUBK_TEST-32193bba8dab84e3d9c4525c85ea7a12-X', null],
    ['flutterwave', 'FLWPUBK-32193bba8dab84e3d9c4525c85ea7a12-X', null],
    ['flutterwave', FLUTTERWAVE_ENCRYPTION_KEY, null],
    ['flutterwave', STRIPE_TEST, null],
    ['flutterwave', 'FLWSECK-', null],
    ['sandbox', 'anything', 'test'],
    ['sandbox', '', 'test'],
    ['sandbox', STRIPE_LIVE, 'test'],
  ])('%s %s → %s', (connector, key, mode) => {
    expect(credentialMode(connector, key)).toBe(mode);
  });

  test('a name outside the vocabulary (from stored data) → null, never a throw', () => {
    expect(credentialMode('adyen' as ConnectorName, STRIPE_TEST)).toBeNull();
  });
});

describe('credentialShapeProblem', () => {
  const ok: Record<ConnectorName, CredentialDetails> = {
    stripe: { api_key: STRIPE_TEST, webhook_secret: 'whsec_0123456789abcdefABCDEF' },
    paystack: { api_key: PAYSTACK_LIVE },
    flutterwave: { api_key: FLUTTERWAVE_TEST, key1: FLUTTERWAVE_ENCRYPTION_KEY, webhook_secret: 'any value the merchant chose' },
    sandbox: { api_key: 'sandbox' },
  };

  test.each(CONNECTOR_NAMES)('%s: well-shaped credentials → null', (connector) => {
    expect(credentialShapeProblem(connector, ok[connector])).toBeNull();
  });

  test.each<[string, ConnectorName, CredentialDetails]>([
    ['Stripe without a webhook secret (its webhooks are then refused)', 'stripe', { api_key: STRIPE_LIVE }],
    ['Stripe with a restricted key', 'stripe', { api_key: 'rk_live_51FakeRestricted0123456789' }],
    ['Stripe with null pieces', 'stripe', { api_key: STRIPE_TEST, key1: null, webhook_secret: null }],
    [
      'Flutterwave without a secret hash (optional at Flutterwave)',
      'flutterwave',
      { api_key: FLUTTERWAVE_LIVE, key1: FLUTTERWAVE_ENCRYPTION_KEY },
    ],
    ['Paystack with empty pieces', 'paystack', { api_key: PAYSTACK_TEST, key1: '', webhook_secret: '' }],
  ])('%s → null', (_label, connector, details) => {
    expect(credentialShapeProblem(connector, details)).toBeNull();
  });

  test.each<[string, ConnectorName, CredentialDetails, string]>([
    ['no api_key', 'stripe', { api_key: '' }, 'api_key is required.'],
    [
      'a publishable key',
      'stripe',
      { api_key: 'pk_live_51FakePublishable0123456789' },
      'api_key is not a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_test_… or rk_live_…).',
    ],
    [
      'a Stripe webhook secret not whsec_',
      'stripe',
      { api_key: STRIPE_TEST, webhook_secret: 'sk_test_oops' },
      'webhook_secret is not a Stripe webhook signing secret (whsec_…).',
    ],
    ['a key1 given to Stripe', 'stripe', { api_key: STRIPE_TEST, key1: 'whsec_0123456789' }, 'stripe takes no key1.'],
    [
      'a Paystack public key',
      'paystack',
      { api_key: 'pk_live_0f1e2d3c4b5a6978' },
      'api_key is not a Paystack secret key (sk_test_… or sk_live_…).',
    ],
    [
      'a webhook secret given to Paystack (it signs with the secret key)',
      'paystack',
      { api_key: PAYSTACK_TEST, webhook_secret: 'whsec_x' },
      'paystack takes no webhook_secret.',
    ],
    ['Flutterwave without key1', 'flutterwave', { api_key: FLUTTERWAVE_TEST }, 'key1 is required for flutterwave.'],
    [
      'a Flutterwave key1 that is not 24 characters',
      'flutterwave',
      { api_key: FLUTTERWAVE_TEST, key1: 'short' },
      'key1 is not a Flutterwave encryption key (24 characters).',
    ],
    [
      'several problems at once',
      'flutterwave',
      { api_key: 'FLWPUBK_TEST-32193bba8dab84e3d9c4525c85ea7a12-X' },
      'api_key is not a Flutterwave v3 secret key (FLWSECK_TEST-… or FLWSECK-…); key1 is required for flutterwave.',
    ],
    ['the sandbox without api_key', 'sandbox', { api_key: '' }, 'api_key is required.'],
    ['a webhook secret given to the sandbox', 'sandbox', { api_key: 'x', webhook_secret: 'y' }, 'sandbox takes no webhook_secret.'],
  ])('%s → the problem named', (_label, connector, details, problem) => {
    expect(credentialShapeProblem(connector, details)).toBe(problem);
  });

  test('no message ever contains a value given', () => {
    const secrets = ['sk_live_SuperSecret0123456789', 'whsec_SuperSecret', 'FLWSECK-SuperSecret-X', 'K1SuperSecret'];
    for (const connector of CONNECTOR_NAMES) {
      for (const api_key of secrets) {
        const problem = credentialShapeProblem(connector, { api_key, key1: 'K1SuperSecret', webhook_secret: 'whsec_SuperSecret' }) ?? '';
        for (const secret of secrets) expect(problem).not.toContain(secret);
      }
    }
  });

  test('a name outside the vocabulary → a problem, never a throw', () => {
    expect(credentialShapeProblem('adyen' as ConnectorName, { api_key: STRIPE_TEST })).toBe('adyen is not a connector.');
  });
});

describe('CREDENTIAL_PIECES and usedCredentials', () => {
  test('every connector of the vocabulary has its pieces', () => {
    expect(Object.keys(CREDENTIAL_PIECES).sort()).toEqual([...CONNECTOR_NAMES].sort());
  });

  test('only the pieces a connector uses are kept', () => {
    const all = { api_key: 'k', key1: 'e', webhook_secret: 'w' };
    expect(usedCredentials('stripe', all)).toEqual({ api_key: 'k', webhook_secret: 'w' });
    expect(usedCredentials('paystack', all)).toEqual({ api_key: 'k' });
    expect(usedCredentials('flutterwave', all)).toEqual(all);
    expect(usedCredentials('sandbox', all)).toEqual({ api_key: 'k' });
    expect(usedCredentials('flutterwave', { api_key: 'k', key1: '', webhook_secret: '' })).toEqual({ api_key: 'k' });
  });
});
