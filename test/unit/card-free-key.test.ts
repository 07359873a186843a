/**
 * test/helpers/card-free-key.ts: the values tests send in free-text fields are never refused as card numbers, unlike
 * random UUIDs, and stay unique.
 */
import { containsCardNumber } from '../../shared/domain/card';
import { metadataSchema } from '../../shared/schemas/common';
import { cardFreeKey } from '../helpers/card-free-key';

test('a random UUID can be refused as metadata: one whose digits read as a card number', () => {
  // Drawn by randomUUID() (1 in about 4,000 is refused this way).
  expect(metadataSchema.safeParse({ test_key: 'b3029300-4084-4365-8a6f-9a16948c6a36' }).success).toBe(false);
});

test('cardFreeKey: no digit, never a card number, accepted as metadata, unique over 20,000 draws', () => {
  const keys = Array.from({ length: 20_000 }, () => cardFreeKey('k-'));
  for (const key of keys) {
    expect(key).toMatch(/^k-[a-p]{8}-[a-p]{4}-[a-p]{4}-[a-p]{4}-[a-p]{12}$/);
    expect(containsCardNumber(key)).toBe(false);
  }
  expect(new Set(keys).size).toBe(keys.length);
  expect(metadataSchema.safeParse({ test_key: keys[0] }).success).toBe(true);
});
