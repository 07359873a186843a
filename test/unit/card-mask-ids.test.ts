/**
 * Masking card numbers in answers never corrupts an identifier this service generated: random hex ids
 * sometimes hold a Luhn-valid run of 13–19 digits (shared/domain/card-mask.ts `GENERATED_ID`).
 */
import { maskCardData, maskCardNumbers } from '../../shared/domain/card-mask';

test('a generated id whose hex holds a Luhn-valid digit run is answered as it is; a card number in text is still masked', () => {
  // A real random id (randomUUID hex) whose digits 6047619712856417 the detector takes for a card number.
  const id = 'sub_5dbc70cf2e6047619712856417c36a5b';
  expect(maskCardNumbers(id)).not.toBe(id); // the detector alone would mask it
  const masked = maskCardData({ subscription_id: id, payment_method_id: `pm_${id.slice(4)}`, description: 'card 4242424242424242' });
  expect(masked.subscription_id).toBe(id);
  expect(masked.payment_method_id).toBe(`pm_${id.slice(4)}`);
  expect(masked.description).not.toContain('4242424242424242');
  // Only the exact shape is exempt: a longer or upper-case string is still checked.
  expect(maskCardData({ v: `${id}0` }).v).not.toBe(`${id}0`);
  expect(maskCardData({ v: id.toUpperCase() }).v).not.toBe(id.toUpperCase());
});
