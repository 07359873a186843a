/**
 * shared/connectors/capabilities.ts against the adapters themselves: for every connector, every payment method and
 * every currency of the domain, a (method, currency) pair is in `CONNECTOR_CAPABILITIES` exactly when the adapter's
 * own `supports()` answers true — so the default `payment_methods_enabled` of a new account never offers what the
 * adapter refuses, nor hides what it takes.
 */
import { CONNECTOR_CAPABILITIES, defaultPaymentMethodsEnabled } from '../../shared/connectors/capabilities';
import type { Connector } from '../../shared/connectors/connector';
import { FlutterwaveConnector } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { PaystackConnector } from '../../shared/connectors/paystack/paystack-connector';
import { SandboxConnector } from '../../shared/connectors/sandbox/sandbox-connector';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { accountEnables, CONNECTOR_NAMES, type ConnectorName } from '../../shared/domain/connector-account';
import { CURRENCIES } from '../../shared/domain/money';
import { PAYMENT_METHODS } from '../../shared/domain/payment';

const base = 'http://127.0.0.1:9';
const ADAPTERS: Record<ConnectorName, Connector> = {
  stripe: new StripeConnector({ baseUrl: base, secretKey: 'sk_test_caps', webhookSecret: '' }),
  paystack: new PaystackConnector({ baseUrl: base, secretKey: 'sk_test_caps', webhookSecret: '' }),
  flutterwave: new FlutterwaveConnector({
    baseUrl: base,
    secretKey: 'FLWSECK_TEST-caps-X',
    encryptionKey: 'FLWSECK_TEST0123456789ab',
    webhookSecret: '',
  }),
  sandbox: new SandboxConnector(),
};

const PAIRS = PAYMENT_METHODS.flatMap((method) => CURRENCIES.map((currency) => [method, currency] as const));

test('every connector of the vocabulary has capabilities', () => {
  expect(Object.keys(CONNECTOR_CAPABILITIES).sort()).toEqual([...CONNECTOR_NAMES].sort());
});

describe.each(CONNECTOR_NAMES)('%s', (name) => {
  const capabilities = CONNECTOR_CAPABILITIES[name];
  const listed = (method: string, currency: string) =>
    capabilities.payment_methods.some((m) => m.payment_method === method && m.currencies.includes(currency as never));

  test.each(PAIRS)("%s in %s: listed exactly when the adapter's supports() says so", (method, currency) => {
    expect(listed(method, currency)).toBe(ADAPTERS[name].supports(currency, method));
  });

  test('each method at most once, none without a currency, in the domain orders', () => {
    const methods = capabilities.payment_methods.map((m) => m.payment_method);
    expect(methods).toEqual(PAYMENT_METHODS.filter((m) => methods.includes(m)));
    for (const m of capabilities.payment_methods) {
      expect(m.currencies.length).toBeGreaterThan(0);
      expect(m.currencies).toEqual(CURRENCIES.filter((c) => m.currencies.includes(c)));
    }
  });

  test('the default payment_methods_enabled is a fresh copy that enables exactly the capabilities', () => {
    const first = defaultPaymentMethodsEnabled(name);
    const second = defaultPaymentMethodsEnabled(name);
    expect(first).toEqual(capabilities.payment_methods);
    expect(first).not.toBe(second);
    first[0]?.currencies.push('XXX' as never);
    expect(defaultPaymentMethodsEnabled(name)).toEqual(second);
    for (const [method, currency] of PAIRS) {
      expect(accountEnables({ payment_methods_enabled: second }, currency, method, 100)).toBe(ADAPTERS[name].supports(currency, method));
    }
  });
});

test('the tables as docs/connectors.md and the adapters document them', () => {
  expect(CONNECTOR_CAPABILITIES.stripe.payment_methods).toEqual([{ payment_method: 'card', currencies: ['NGN', 'USD', 'ZAR', 'KES'] }]);
  expect(CONNECTOR_CAPABILITIES.paystack.payment_methods).toEqual([
    { payment_method: 'card', currencies: ['NGN', 'USD', 'GHS', 'ZAR', 'KES'] },
    { payment_method: 'bank_transfer', currencies: ['NGN', 'KES'] },
    { payment_method: 'ussd', currencies: ['NGN'] },
    { payment_method: 'mobile_money', currencies: ['GHS', 'KES'] },
  ]);
  expect(CONNECTOR_CAPABILITIES.flutterwave.payment_methods).toEqual([
    { payment_method: 'card', currencies: ['NGN', 'USD', 'GHS', 'ZAR', 'KES'] },
    { payment_method: 'bank_transfer', currencies: ['NGN'] },
    { payment_method: 'ussd', currencies: ['NGN'] },
    { payment_method: 'mobile_money', currencies: ['GHS', 'KES'] },
  ]);
  expect(CONNECTOR_CAPABILITIES.sandbox.payment_methods).toEqual(
    PAYMENT_METHODS.map((payment_method) => ({ payment_method, currencies: [...CURRENCIES] })),
  );
});

test('the capabilities are frozen (a caller cannot change another account’s default)', () => {
  expect(Object.isFrozen(CONNECTOR_CAPABILITIES)).toBe(true);
  expect(Object.isFrozen(CONNECTOR_CAPABILITIES.paystack.payment_methods)).toBe(true);
  expect(Object.isFrozen(CONNECTOR_CAPABILITIES.paystack.payment_methods[0]?.currencies)).toBe(true);
});
