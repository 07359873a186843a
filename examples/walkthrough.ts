/**
 * The README's walk-through (README.md, "Walk-through (curl)" and "PIN and OTP") written with the
 * TypeScript SDK. With `npm start` running in another terminal:
 *
 *   npx tsx examples/walkthrough.ts
 *
 * It imports the SDK by its package name, as your code would: in this repository that is the
 * workspace's build (`npm install` builds it; `npm run sdk:build` after changing the SDK); outside
 * it, the packed tarball (clients/typescript/README.md, "Install"). Copied into a project of your
 * own, it runs as it is.
 *
 * Environment: `SWITCHYARD_BASE_URL` (default http://localhost:3000) and `SWITCHYARD_API_KEY`; when
 * unset, `API_KEY` (the key `npm start` seeds for the development merchant and prints), then its
 * documented local default. `SWITCHYARD_URL`, the older name of the first, is still read. Cards are
 * the sandbox's documented test cards (docs/api.md).
 */

import { InvalidRequestError, Switchyard, SwitchyardError } from '@switchyard/client';

/** The key `npm start` seeds when `API_KEY` is unset (README, "Quick start"); local only. */
const LOCAL_DEV_API_KEY = 'sk_test_switchyard_local_dev_key';

const switchyard = new Switchyard({
  apiKey: process.env.SWITCHYARD_API_KEY || process.env.API_KEY || LOCAL_DEV_API_KEY,
  baseUrl: process.env.SWITCHYARD_BASE_URL || process.env.SWITCHYARD_URL || 'http://localhost:3000',
});

/** A sandbox test card (docs/api.md, "The sandbox connector"), expiring in three years. */
function testCard(cardNumber: string) {
  return {
    card: { card_number: cardNumber, card_exp_month: '12', card_exp_year: String(new Date().getUTCFullYear() + 3), card_cvc: '123' },
  };
}

const show = (label: string, value: unknown) =>
  console.log(`${label.padEnd(28)} ${typeof value === 'string' ? value : JSON.stringify(value)}`);

async function main(): Promise<void> {
  show('health', await switchyard.health());

  // 1. a customer
  const customer = await switchyard.customers.create({ email: 'ada@example.com', name: 'Ada Obi', phone: '+2348012345678' });
  show('1. customer', customer.customer_id);

  // 2. a payment of NGN 1,500.00 (150000 kobo) for that customer, not yet confirmed
  const payment = await switchyard.payments.create({
    amount: 150000,
    currency: 'NGN',
    payment_method: 'card',
    customer_id: customer.customer_id,
    description: 'Order 42',
  });
  show('2. payment', `${payment.payment_id} ${(await switchyard.payments.retrieve(payment.payment_id)).status}`);

  // 3. confirm it with a sandbox test card: Succeeded; only the card summary is kept
  const confirmed = await switchyard.payments.confirm(payment.payment_id, { payment_method_data: testCard('4242424242424242') });
  show('3. confirmed', `${confirmed.status} ${JSON.stringify(confirmed.payment_method_data)}`);

  // Confirming again is a decision of the API (409 payment_unexpected_state): typed, never retried.
  try {
    await switchyard.payments.confirm(payment.payment_id);
  } catch (err) {
    if (!(err instanceof InvalidRequestError)) throw err;
    show('   confirm again', `${err.status} ${err.code} (request ${err.requestId})`);
  }

  // 4. refund NGN 500.00 of it
  const refund = await switchyard.payments.refund(payment.payment_id, { amount: 50000, reason: 'damaged item' });
  show('4. refund', `${refund.refund_id} ${refund.status} ${refund.amount}`);
  show('   amount_refunded', (await switchyard.payments.retrieve(payment.payment_id)).amount_refunded);

  // 5. lists
  const succeeded = await switchyard.payments.list({ limit: 5, status: 'Succeeded' });
  show(
    '5. succeeded payments',
    succeeded.data.map((p) => p.payment_id),
  );
  show(
    '   refunds of the payment',
    (await switchyard.payments.listRefunds(payment.payment_id)).data.map((r) => r.refund_id),
  );
  show(
    '   customers by email',
    (await switchyard.customers.list({ email: 'ADA@example.com' })).data.map((c) => c.customer_id),
  );

  // 8. a sandbox Verve card: PIN, then OTP, then Succeeded (sandbox values: PIN 1234, OTP 123456)
  const verve = await switchyard.payments.create({
    amount: 150000,
    currency: 'NGN',
    confirm: true,
    return_url: 'https://shop.example.com/done',
    payment_method_data: testCard('5060666666666666666'),
  });
  show('8. verve', `${verve.status} ${verve.next_action?.type}`);
  const afterPin = await switchyard.payments.authenticate(verve.payment_id, { pin: '1234' });
  show('   after the PIN', `${afterPin.status} ${afterPin.next_action?.type}`);
  const afterOtp = await switchyard.payments.authenticate(verve.payment_id, { otp: '123456' });
  show('   after the OTP', afterOtp.status);

  // Events: every change above wrote one.
  const events = await switchyard.events.list({ limit: 3 });
  show(
    'events (newest 3)',
    events.data.map((e) => e.type),
  );
}

main().catch((err: unknown) => {
  if (err instanceof SwitchyardError) {
    console.error(`Switchyard error: ${err.status ?? '-'} ${err.type}/${err.code}: ${err.message}`);
    if (err.type === 'connection_error')
      console.error('Is `npm start` running? Set SWITCHYARD_BASE_URL if it is not on http://localhost:3000.');
  } else console.error(err);
  process.exit(1);
});
