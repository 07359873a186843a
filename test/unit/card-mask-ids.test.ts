/**
 * Masking card numbers in answers never corrupts an identifier this service generated: random hex ids
 * sometimes hold a Luhn-valid run of 13–19 digits (shared/domain/card-mask.ts `GENERATED_ID`).
 */
import { containsCardNumber } from '../../shared/domain/card';
import { maskCardData, maskCardNumbers } from '../../shared/domain/card-mask';
import { maskedResponse } from '../../shared/http/idempotency';
import { redactText } from '../../shared/observability/redaction';

test('a generated id whose hex holds a Luhn-valid digit run is answered as it is; a card number in text is still masked', () => {
  // A real random id (randomUUID hex) whose digits 6047619712856417 the detector takes for a card number.
  const id = 'sub_5dbc70cf2e6047619712856417c36a5b';
  expect(containsCardNumber(id)).toBe(true); // the detector alone would mask it
  const masked = maskCardData({ subscription_id: id, payment_method_id: `pm_${id.slice(4)}`, description: 'card 4242424242424242' });
  expect(masked.subscription_id).toBe(id);
  expect(masked.payment_method_id).toBe(`pm_${id.slice(4)}`);
  expect(masked.description).not.toContain('4242424242424242');
  // Only the exact shape is exempt: a longer or upper-case string is still checked.
  expect(maskCardData({ v: `${id}0` }).v).not.toBe(`${id}0`);
  expect(maskCardData({ v: id.toUpperCase() }).v).not.toBe(id.toUpperCase());
});

/** Random hex (a real randomUUID's) whose digits 6047619712856417 the detector takes for a card number. */
const CARD_SHAPED_HEX = '5dbc70cf2e6047619712856417c36a5b';

test('an id of every kind inside a text (a URL, a message) is kept as it is when an Idempotency-Key answer or a log line is masked', () => {
  expect(containsCardNumber(CARD_SHAPED_HEX)).toBe(true);
  const mca = `mca_${CARD_SHAPED_HEX}`;
  const plink = `plink_${CARD_SHAPED_HEX}`;
  const webhookUrl = `https://api.example.com/webhooks/paystack/${mca}`;
  const linkUrl = `https://api.example.com/checkout/${plink}`;
  const message = `Subscription sub_${CARD_SHAPED_HEX} has no invoice in_${CARD_SHAPED_HEX}; payout po_${CARD_SHAPED_HEX}, dispute dp_${CARD_SHAPED_HEX}.`;
  const transfer = `sbx_tr_${CARD_SHAPED_HEX}`;
  const body = { merchant_connector_id: mca, webhook_url: webhookUrl, url: linkUrl, message, connector_payout_id: transfer };
  const answered = maskedResponse({ statusCode: 200, headers: { location: linkUrl }, body: JSON.stringify(body) });
  expect(JSON.parse(answered.body ?? '')).toEqual(body);
  expect(answered.headers?.location).toBe(linkUrl);
  expect(redactText(`POST /v1/subscriptions/sub_${CARD_SHAPED_HEX}/cancel ${webhookUrl}`)).toBe(
    `POST /v1/subscriptions/sub_${CARD_SHAPED_HEX}/cancel ${webhookUrl}`,
  );
  // A card number next to them is still masked, and a token of another prefix is still checked.
  const withCard = maskedResponse({ statusCode: 200, body: JSON.stringify({ url: `${linkUrl}?card=4242424242424242` }) });
  expect(JSON.parse(withCard.body ?? '').url).toBe(`${linkUrl}?card=[REDACTED]`);
  expect(maskCardNumbers(`zzz_${CARD_SHAPED_HEX}`)).not.toBe(`zzz_${CARD_SHAPED_HEX}`);
});
