/**
 * Fresh values for the free-text fields of a request (metadata values, a payout's reference…) that can never be
 * refused as a card number. Those fields refuse any digit run that reads as one (shared/schemas/card-number-refinement.ts),
 * and a random UUID holds such a run about once in 4,000 (measured: 245 of 1,000,000 `randomUUID()`, 153 of 1,000,000
 * as 32 hex digits), which made a test that sent one as metadata fail that often.
 */
import { randomUUID } from 'node:crypto';

const LETTER_FOR_DIGIT = 'ghijklmnop';

/**
 * A random UUID with each decimal digit spelt as a letter (`0`→`g` … `9`→`p`): as unique as the UUID, and no digit in it.
 * @param prefix text put before it (default none)
 * @returns e.g. `ebhiclkg-…` (36 characters after the prefix)
 */
export function cardFreeKey(prefix = ''): string {
  return `${prefix}${randomUUID().replace(/[0-9]/g, (d) => LETTER_FOR_DIGIT[Number(d)] as string)}`;
}
