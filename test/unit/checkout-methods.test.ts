/**
 * The checkout page's mobile-money phone check (shared/operations/payment-links/checkout-methods.ts): a GHS number must
 * be a Ghanaian number of a mobile-money network, a KES one an M-PESA range; spaces and dashes typed are ignored; any
 * other currency takes no mobile money.
 */
import fc from 'fast-check';
import { GHANA_NETWORK_PREFIXES } from '../../shared/domain/ghana-mobile-networks';
import { mobileMoneyPhoneProblem, normalizedPhone } from '../../shared/operations/payment-links/checkout-methods';

describe('mobileMoneyPhoneProblem', () => {
  test('GHS: +233 and 9 digits whose prefix is a mobile-money network, and nothing else', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{2}$/), fc.stringMatching(/^\d{7}$/), (prefix, rest) => {
        const problem = mobileMoneyPhoneProblem('GHS', `+233${prefix}${rest}`);
        expect(problem === undefined).toBe(Object.hasOwn(GHANA_NETWORK_PREFIXES, prefix));
      }),
    );
    expect(mobileMoneyPhoneProblem('GHS', '+23324123456')).toBeDefined();
    expect(mobileMoneyPhoneProblem('GHS', '0241234567')).toBeDefined();
    expect(mobileMoneyPhoneProblem('GHS', undefined)).toBeDefined();
  });

  test('KES: +254 then 7 or 1 and 8 more digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{9}$/), (national) => {
        expect(mobileMoneyPhoneProblem('KES', `+254${national}`) === undefined).toBe(/^[17]/.test(national));
      }),
    );
    expect(mobileMoneyPhoneProblem('KES', '+2547220000001')).toBeDefined();
  });

  test('typed spaces, dashes, dots and brackets are ignored; the problem never repeats the number', () => {
    expect(normalizedPhone(' +254 (722) 000-000.')).toBe('+254722000000');
    expect(mobileMoneyPhoneProblem('KES', '+254 722 000 000')).toBeUndefined();
    expect(mobileMoneyPhoneProblem('GHS', '+233 24-123-4567')).toBeUndefined();
    expect(mobileMoneyPhoneProblem('GHS', '+233 99 999 9999')).not.toContain('99');
  });

  test('NGN, ZAR and USD take no mobile money', () => {
    for (const currency of ['NGN', 'ZAR', 'USD'] as const) expect(mobileMoneyPhoneProblem(currency, '+233241234567')).toBeDefined();
  });
});
