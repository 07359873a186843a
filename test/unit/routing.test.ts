import { PRODUCTION_ROUTING_RULES } from '../../lib/config/stage-config';
import { CURRENCIES } from '../../shared/domain/money';
import { PAYMENT_METHODS } from '../../shared/domain/payment';
import { connectorsFor, DEFAULT_ROUTING_RULES, routingRules } from '../../shared/operations/routing/routing-rules';

describe('routing rules', () => {
  test('the default rules send every (currency, method) pair to the sandbox', () => {
    for (const c of CURRENCIES) for (const m of PAYMENT_METHODS) expect(connectorsFor(c, m, DEFAULT_ROUTING_RULES)).toEqual(['sandbox']);
  });

  // The production-like table of the README, one row per pair: the first connector tried, then the fallback.
  const expected: Record<string, string[]> = {
    'NGN card': ['paystack', 'flutterwave'],
    'NGN bank_transfer': ['paystack', 'flutterwave'],
    'NGN ussd': ['paystack', 'flutterwave'],
    'NGN mobile_money': ['paystack', 'flutterwave'],
    'GHS card': ['paystack', 'flutterwave'],
    'GHS bank_transfer': ['paystack', 'flutterwave'],
    'GHS ussd': ['paystack', 'flutterwave'],
    'GHS mobile_money': ['paystack', 'flutterwave'],
    'KES mobile_money': ['flutterwave', 'paystack'],
    'KES card': ['paystack', 'stripe'],
    'KES bank_transfer': ['paystack', 'flutterwave'],
    'KES ussd': ['paystack', 'flutterwave'],
    'USD card': ['stripe', 'paystack'],
    'USD bank_transfer': ['paystack', 'flutterwave'],
    'USD ussd': ['paystack', 'flutterwave'],
    'USD mobile_money': ['paystack', 'flutterwave'],
    'ZAR card': ['paystack', 'stripe'],
    'ZAR bank_transfer': ['paystack', 'flutterwave'],
    'ZAR ussd': ['paystack', 'flutterwave'],
    'ZAR mobile_money': ['paystack', 'flutterwave'],
  };

  test.each(CURRENCIES.flatMap((c) => PAYMENT_METHODS.map((m) => [c, m] as const)))('production rules: %s %s', (currency, method) => {
    expect(connectorsFor(currency, method, PRODUCTION_ROUTING_RULES)).toEqual(expected[`${currency} ${method}`]);
  });

  test('ROUTING_RULES from the environment is validated', () => {
    process.env.ROUTING_RULES = JSON.stringify([{ currency: 'NGN', connectors: ['paystack'] }]);
    expect(routingRules()).toEqual([{ currency: 'NGN', connectors: ['paystack'] }]);
    process.env.ROUTING_RULES = JSON.stringify([{ currency: 'EUR', connectors: [] }]);
    expect(() => routingRules()).toThrow(/ROUTING_RULES is invalid/);
    delete process.env.ROUTING_RULES;
    expect(routingRules()).toBe(DEFAULT_ROUTING_RULES);
  });
});
