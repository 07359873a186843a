/**
 * `client.paymentLinks` against the local API, and `verifyPaymentLinkReturn` against the signature the server writes
 * (shared/security/checkout-return-signature.ts): a return it signed verifies, one changed in any field does not.
 */
import { returnSigningSecret, signReturn } from '../../../shared/security/checkout-return-signature';
import { type LocalApi, startLocalApi } from '../../../test/helpers/local-api';
import { PaymentLinkReturnError, Switchyard, verifyPaymentLinkReturn } from '../src/index';

let api: LocalApi;
let switchyard: Switchyard;
beforeAll(async () => {
  api = await startLocalApi();
  switchyard = new Switchyard({ apiKey: api.apiKey, baseUrl: api.url });
});
afterAll(async () => {
  await api.close();
});

test('create, retrieve, list with active, deactivate', async () => {
  const link = await switchyard.paymentLinks.create({ amount_min: 500, amount_max: 100000, currency: 'GHS', description: 'Tips' });
  expect(link).toMatchObject({ amount: null, amount_min: 500, amount_max: 100000, currency: 'GHS', active: true, status: 'active' });
  expect(await switchyard.paymentLinks.retrieve(link.payment_link_id)).toEqual(link);
  const active = await switchyard.paymentLinks.list({ active: 'true' });
  expect(active.data.map((l) => l.payment_link_id)).toContain(link.payment_link_id);
  const off = await switchyard.paymentLinks.deactivate(link.payment_link_id);
  expect(off).toMatchObject({ payment_link_id: link.payment_link_id, active: false, status: 'inactive' });
  const inactive = await switchyard.paymentLinks.list({ active: 'false' });
  expect(inactive.data.map((l) => l.payment_link_id)).toEqual([link.payment_link_id]);
  await expect(
    new Switchyard({ apiKey: await api.newMerchantKey(), baseUrl: api.url }).paymentLinks.retrieve(link.payment_link_id),
  ).rejects.toMatchObject({
    status: 404,
  });
});

test('the checkout display: updateProfile replaces it, retrieveProfile answers it; a single-use link on payments.create', async () => {
  const display = {
    display_name: 'Ada Fabrics',
    logo_url: 'https://cdn.ada.example/logo.png',
    brand_color: '#0a3069',
    allowed_domains: ['https://ada.example'],
  };
  const set = await switchyard.paymentLinks.updateProfile(display);
  expect(set).toEqual({ ...display, return_signing_secret: await returnSigningSecret(api.merchantId) });
  expect(await switchyard.paymentLinks.retrieveProfile()).toEqual(set);
  const payment = await switchyard.payments.create({ amount: 5000, currency: 'NGN', payment_link: true, session_expiry: 3600 });
  expect(payment.payment_link?.link).toBe(`${api.url}/checkout/${payment.payment_link?.payment_link_id}`);
});

test('verifyPaymentLinkReturn accepts what the server signed and refuses any change', async () => {
  const secret = await returnSigningSecret(api.merchantId);
  const fields = {
    payment_id: 'pay_0123456789abcdef0123456789abcdef',
    payment_link_id: 'plink_0123456789abcdef0123456789abcdef',
    status: 'Succeeded',
  };
  const url = new URL('https://shop.example.com/thanks?order=7');
  for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  url.searchParams.set('signature', signReturn(secret, fields));
  expect(await verifyPaymentLinkReturn(url, secret)).toEqual(fields);
  expect(await verifyPaymentLinkReturn(url.toString(), secret)).toEqual(fields);
  expect(await verifyPaymentLinkReturn(Object.fromEntries(url.searchParams), secret)).toEqual(fields);
  for (const [field, forged] of [
    ['status', 'Failed'],
    ['payment_id', 'pay_0123456789abcdef0123456789abcdee'],
    ['payment_link_id', 'plink_0123456789abcdef0123456789abcdee'],
  ] as const) {
    const changed = new URL(url);
    changed.searchParams.set(field, forged);
    await expect(verifyPaymentLinkReturn(changed, secret)).rejects.toMatchObject({ code: 'invalid_signature' });
  }
  // Another secret: its last character replaced by a different one (the secret's bytes are the HMAC key).
  const otherSecret = `${secret.slice(0, -1)}${secret.endsWith('0') ? '1' : '0'}`;
  await expect(verifyPaymentLinkReturn(url, otherSecret)).rejects.toMatchObject({ code: 'invalid_signature' });
  await expect(verifyPaymentLinkReturn(url, otherSecret)).rejects.toBeInstanceOf(PaymentLinkReturnError);
  const unsigned = new URL(url);
  unsigned.searchParams.delete('signature');
  await expect(verifyPaymentLinkReturn(unsigned, secret)).rejects.toMatchObject({ code: 'missing_fields' });
  await expect(verifyPaymentLinkReturn(url, 'whsec_x')).rejects.toBeInstanceOf(TypeError);
});
