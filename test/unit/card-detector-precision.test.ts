/**
 * False refusals of the card-number detector (shared/domain/card.ts), measured as properties over
 * ≥ 100,000 fast-check samples of each population free text is full of: 16-digit numeric ids
 * starting with `1`, millisecond timestamps, Nigerian mobile numbers, and NUBANs written with their
 * bank's code. Each must be refused less than once in 10,000 (0.01 %), while every spelling of every
 * published test card is still refused (test/unit/card-detector.test.ts), and the price of the NUBAN
 * reading (a real card number taken for an account number) stays below the same bound.
 * Seeded: the same samples on every run. `CARD_DETECTOR_REPORT=1` prints the measured rates
 * (docs/security.md, "Card-number detector").
 */
import * as fc from 'fast-check';
import { containsCardNumber, passesLuhn } from '../../shared/domain/card';
import { brandTableForTests, libraryBrandOf } from '../../shared/domain/card-brands';
import { LEGITIMATE_NUMBERS } from '../helpers/card-corpus';

const SAMPLES = 100_000;
const BOUND = 0.0001; // 0.01 %
const SEED = 20_260_314;
const report: string[] = [];
afterAll(() => {
  if (process.env.CARD_DETECTOR_REPORT) process.stdout.write(`\n${report.join('\n')}\n`);
});

const pct = (n: number, total: number) => `${((100 * n) / total).toFixed(4)} %`;

describe.each([
  ['16-digit numeric ids starting with 1', LEGITIMATE_NUMBERS.sixteenDigitIds],
  ['millisecond timestamps', LEGITIMATE_NUMBERS.msTimestamps],
  ['Nigerian mobile numbers (+234 / 234 / 00234 / 0, spaced or not)', LEGITIMATE_NUMBERS.nigerianPhones],
  ['NUBAN + bank code (3, 5 or 6 digits; either order; glued or separated)', LEGITIMATE_NUMBERS.nubansWithBankCode],
] as const)('%s', (name, values: fc.Arbitrary<string>) => {
  test(`refused less than once in 10,000 over ${SAMPLES.toLocaleString('en')} samples`, () => {
    let refused = 0;
    const examples: string[] = [];
    const distinct = new Set<string>();
    fc.assert(
      fc.property(fc.noBias(values), (value) => {
        distinct.add(value);
        if (containsCardNumber(value)) {
          refused += 1;
          if (examples.length < 3) examples.push(value);
        }
      }),
      { numRuns: SAMPLES, seed: SEED, endOnFailure: true },
    );
    report.push(
      `${name}: ${refused}/${SAMPLES} refused (${pct(refused, SAMPLES)})${examples.length ? ` e.g. ${JSON.stringify(examples)}` : ''}`,
    );
    expect(distinct.size).toBeGreaterThan(SAMPLES * 0.9); // the samples are varied, not one value 100,000 times
    expect(refused / SAMPLES).toBeLessThan(BOUND);
  });
});

describe('the price of precision', () => {
  test('real card numbers (Luhn-valid, a brand issues them) read as a NUBAN with its bank code: less than once in 10,000', () => {
    const { prefixDigits, intervals } = brandTableForTests();
    const issuing = intervals
      .map((iv, i) => ({ ...iv, next: intervals[i + 1]?.start ?? 10 ** prefixDigits }))
      .filter((iv) => iv.brand !== null && iv.lengths.some((n) => n === 15 || n === 16));
    // A card number of 15 or 16 digits (the lengths a NUBAN and a 5- or 6-digit code make), uniformly within a brand's interval.
    const cardNumber = fc
      .tuple(fc.constantFrom(...issuing), fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), fc.stringMatching(/^[0-9]{7}$/))
      .map(([iv, at, rest]) => {
        const n = iv.lengths.includes(16) ? 16 : 15;
        const prefix = String(Math.floor(iv.start + at * (iv.next - iv.start))).padStart(prefixDigits, '0');
        const body = (prefix + rest).slice(0, n - 1);
        for (let d = 0; d <= 9; d += 1) if (passesLuhn(body + String(d))) return body + String(d);
        return body;
      });
    let missed = 0;
    let cards = 0;
    fc.assert(
      fc.property(fc.noBias(cardNumber), (pan) => {
        if (libraryBrandOf(pan) === null) return; // a prefix the table gives no brand at this length
        cards += 1;
        if (!containsCardNumber(pan)) missed += 1;
      }),
      { numRuns: SAMPLES, seed: SEED + 1 },
    );
    report.push(`card numbers of 15–16 digits taken for a NUBAN with its bank code: ${missed}/${cards} (${pct(missed, cards)})`);
    expect(cards).toBeGreaterThan(SAMPLES * 0.9);
    expect(missed / cards).toBeLessThan(BOUND);
  });
});
