/**
 * The payer's e-mail on the checkout form, apart from routing (the HTTP side is test/http/checkout-email.test.ts): the
 * form check asks it when the link's `customer_fields` name it or the page asks it (`askEmail`), and the page draws the
 * field (labelled, `type="email"`, `autocomplete="email"`, required) when asked or when a post found it missing, its
 * error next to it; the typed e-mail is written back escaped, the card number and CVC never.
 */
import type { PaymentLink } from '../../shared/domain/payment-link';
import { checkoutFormPage } from '../../shared/http/checkout-page';
import { checkFormFields } from '../../shared/operations/payment-links/checkout';

const link: PaymentLink = {
  payment_link_id: 'plink_0123456789abcdef0123456789abcdef',
  url: 'https://api.example.com/checkout/plink_0123456789abcdef0123456789abcdef',
  active: true,
  status: 'active',
  amount: 250000,
  amount_min: null,
  amount_max: null,
  currency: 'NGN',
  description: 'Ankara dress',
  payment_methods: null,
  expires_at: null,
  max_payments: null,
  payments_count: 0,
  return_url: null,
  customer_fields: [],
  metadata: {},
  created_at: '2026-12-05T00:00:00.000Z',
  updated_at: '2026-12-05T00:00:00.000Z',
};
const card = {
  card_number: '4242424242424242',
  card_exp_month: '12',
  card_exp_year: String(new Date().getUTCFullYear() + 2),
  card_cvc: '123',
};
const view = { nonce: 'n0nce', csrfToken: 'c'.repeat(64), attempt: 'a'.repeat(32) };
const EMAIL_INPUT = '<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" required';

describe('checkFormFields', () => {
  test('the e-mail is checked when the page asks it, whatever the link’s customer_fields', () => {
    expect(checkFormFields(link, card, 'card').errors).toEqual({});
    for (const email of [undefined, '', 'ada', 'ada@', '@example.com', 'ada example@example.com']) {
      const form = { ...card, ...(email === undefined ? {} : { email }) };
      expect(checkFormFields(link, form, 'card', true).errors).toEqual({ email: 'Enter your e-mail address, like name@example.com.' });
      expect(checkFormFields({ ...link, customer_fields: ['email'] }, form, 'card').errors).toEqual({
        email: 'Enter your e-mail address, like name@example.com.',
      });
    }
    expect(checkFormFields(link, { ...card, email: ' ada@example.com ' }, 'bank_transfer', true).errors).toEqual({});
  });
});

describe('checkoutFormPage', () => {
  const choice = (askEmail: boolean) => ({ methods: ['card'] as const, method: 'card' as const, askEmail });

  test('draws the e-mail field when asked, and only then', () => {
    expect(checkoutFormPage(link, { ...view, choice: choice(true) })).toContain(`${EMAIL_INPUT}>`);
    expect(checkoutFormPage(link, { ...view, choice: choice(false) })).not.toContain('name="email"');
    expect(checkoutFormPage(link, view)).not.toContain('name="email"');
    expect(checkoutFormPage({ ...link, customer_fields: ['email'] }, { ...view, choice: choice(false) })).toContain(`${EMAIL_INPUT}>`);
  });

  test('a post that found it missing draws it with its error next to it, never the card number or CVC', () => {
    const form = { ...card, email: '<b>x</b>@' };
    const html = checkoutFormPage(link, {
      ...view,
      choice: choice(false),
      form,
      errors: { email: 'Enter your e-mail address, like name@example.com.' },
    });
    expect(html).toContain(
      `${EMAIL_INPUT} value="&lt;b&gt;x&lt;/b&gt;@" aria-invalid="true" aria-describedby="err-email"><p class="err" id="err-email">Enter your e-mail address, like name@example.com.</p>`,
    );
    expect(html).toContain('<li><a href="#email">');
    expect(html).not.toContain('<b>x</b>');
    expect(html).not.toContain(card.card_number);
    expect(html).not.toContain('value="123"');
  });
});
