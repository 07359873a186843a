/**
 * The card summary a charge of a saved method shows (`payment_method_data.card`): the saved card's last4, expiry and
 * fingerprint, its processor brand read as one of the summary's brands (`CARD_BRANDS`), else `unknown`.
 */
import type { SavedMethodToCharge } from '../../shared/operations/payment-methods/saved-methods';
import { savedMethodSummary } from '../../shared/operations/payments/payment-method-facts';
import { PaymentMethodSummaryResource } from '../../shared/schemas/payment-resource-schema';

const savedWith = (brand: string) =>
  ({
    stored: {
      method: { card: { brand, last4: '0005', exp_month: 3, exp_year: 2031, fingerprint: 'stripe:Xy12', bin: null, issuer_country: null } },
    },
  }) as unknown as SavedMethodToCharge;

test.each([
  ['visa', 'visa'],
  ['VISA ', 'visa'],
  ['mastercard', 'mastercard'],
  ['verve', 'verve'],
  ['amex', 'amex'],
  ['American Express', 'amex'],
  ['diners club', 'diners'],
  ['eftpos_au', 'unknown'],
  ['', 'unknown'],
])('processor brand %j is shown as %j, with the saved card’s last4, expiry and fingerprint', (processorBrand, shown) => {
  const summary = savedMethodSummary(savedWith(processorBrand));
  expect(summary).toEqual({ card: { brand: shown, last4: '0005', exp_month: 3, exp_year: 2031, fingerprint: 'stripe:Xy12' } });
  expect(PaymentMethodSummaryResource.safeParse(summary).success).toBe(true);
});
