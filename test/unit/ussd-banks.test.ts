/**
 * The USSD bank list (`USSD_BANKS`) against the connectors that serve it, and routing by the payer's
 * bank: a connector whose processor does not serve the bank is skipped; none → 400 naming the field.
 */
import { FLUTTERWAVE_USSD_BANKS } from '../../shared/connectors/flutterwave/ussd-banks';
import { PAYSTACK_USSD_BANKS } from '../../shared/connectors/paystack/supported-methods';
import { ApiError } from '../../shared/domain/errors';
import { DEFAULT_USSD_BANK_CODE, USSD_BANK_CODES, USSD_BANKS } from '../../shared/domain/ussd-banks';
import { routeCandidates } from '../../shared/operations/routing/route-candidates';

const CONNECTOR_ENV = {
  PAYSTACK_SECRET_KEY: 'sk_test_unit_only',
  FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-unit-only',
  FLUTTERWAVE_ENCRYPTION_KEY: 'FLWSECK_TEST_unit_only24',
  FLUTTERWAVE_WEBHOOK_HASH: 'unit-only-hash',
};

describe('USSD banks', () => {
  test('each processor serves a subset of USSD_BANKS, and together they serve all of it', () => {
    const paystack = Object.keys(PAYSTACK_USSD_BANKS);
    for (const code of [...paystack, ...FLUTTERWAVE_USSD_BANKS]) expect([code, Object.hasOwn(USSD_BANKS, code)]).toEqual([code, true]);
    expect(new Set([...paystack, ...FLUTTERWAVE_USSD_BANKS])).toEqual(new Set(USSD_BANK_CODES));
    expect(USSD_BANK_CODES).toContain(DEFAULT_USSD_BANK_CODE);
    expect(paystack).toContain(DEFAULT_USSD_BANK_CODE);
    expect(FLUTTERWAVE_USSD_BANKS).toContain(DEFAULT_USSD_BANK_CODE);
  });

  describe("routing by the payer's bank", () => {
    const saved: Record<string, string | undefined> = {};
    beforeAll(() => {
      for (const [k, v] of Object.entries(CONNECTOR_ENV)) {
        saved[k] = process.env[k];
        process.env[k] = v;
      }
    });
    afterAll(() => {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    });
    const rules = [{ currency: 'NGN' as const, payment_method: 'ussd' as const, connectors: ['paystack', 'flutterwave'] }];
    const names = async (bank: string) =>
      (await routeCandidates('NGN', 'ussd', undefined, rules, { ussdBankCode: bank })).map((c) => c.name);

    test("a bank both serve keeps the rule's order; a bank only Flutterwave serves skips Paystack", async () => {
      const shared = Object.keys(PAYSTACK_USSD_BANKS).find((code) => FLUTTERWAVE_USSD_BANKS.includes(code))!;
      expect(await names(shared)).toEqual(['paystack', 'flutterwave']);
      const flutterwaveOnly = FLUTTERWAVE_USSD_BANKS.find((code) => !Object.hasOwn(PAYSTACK_USSD_BANKS, code))!;
      expect(await names(flutterwaveOnly)).toEqual(['flutterwave']);
    });

    test('a bank no configured connector serves is a 400 naming payment_method_data.ussd.bank_code', async () => {
      const paystackOnly = [{ currency: 'NGN' as const, payment_method: 'ussd' as const, connectors: ['paystack'] }];
      const flutterwaveOnly = FLUTTERWAVE_USSD_BANKS.find((code) => !Object.hasOwn(PAYSTACK_USSD_BANKS, code))!;
      const err = await routeCandidates('NGN', 'ussd', undefined, paystackOnly, { ussdBankCode: flutterwaveOnly }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ statusCode: 400, code: 'no_connector_available', param: 'payment_method_data.ussd.bank_code' });
    });
  });
});
