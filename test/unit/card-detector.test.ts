/**
 * The card-number detector (shared/domain/card.ts, `findCardNumbers`/`containsCardNumber`),
 * measured: how often it refuses legitimate values (a generated corpus of ≥ 10,000 values no
 * brand issues: ≤ 0.1 %), which uniformly random 12–19-digit ids it refuses (exactly those that
 * hold a card number of a real brand, checked against `credit-card-type` itself), and that every
 * test card of the sandbox and of the processors is found in every spelling (100 %).
 * Deterministic (seeded), and fast. `CARD_DETECTOR_REPORT=1` prints the measured rates
 * (the figures of docs/security.md, "Card-number detector").
 */
import creditCardType from 'credit-card-type';
import { SANDBOX_TEST_CARDS } from '../../shared/connectors/sandbox/transformers';
import { containsCardNumber, detectBrand, findCardNumbers, passesLuhn, summarizeCard } from '../../shared/domain/card';
import {
  brandTableForTests,
  CARD_TYPE_LIBRARY,
  JCB_RANGES,
  libraryBrandOf,
  MAESTRO_LENGTHS,
  VERVE_ADDED_RANGES,
} from '../../shared/domain/card-brands';
import { NIGERIAN_BANK_CODES, nubanCheckDigit } from '../../shared/domain/nuban';
import { legitimateCorpus, PUBLISHED_TEST_CARDS, type Random, seeded, spellingsOf } from '../helpers/card-corpus';
import { PAYSTACK_TEST_CARDS } from '../helpers/paystack-stand-in';

const SEED = 20_261_121;
const report: string[] = [];
// card-brands applies its changes to the library on first use (not when it loads): the tests that ask
// `credit-card-type` itself must see them applied, whichever test runs first.
beforeAll(() => {
  brandTableForTests();
});
afterAll(() => {
  if (process.env.CARD_DETECTOR_REPORT) process.stdout.write(`\n${report.join('\n')}\n`);
});

const pct = (count: number, total: number) => `${((100 * count) / total).toFixed(2)} %`;

/** The test's own Luhn (not the detector's prefix sums). */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** The library's verdict on a whole number: its best-matching brand issues this length, and Luhn holds. */
function libraryCard(digits: string): boolean {
  if (!luhn(digits)) return false; // first: the library is slow (it clones its tables on every call)
  const [match, ...others] = creditCardType(digits);
  return others.length === 0 && match !== undefined && match.lengths.includes(digits.length);
}

/** The test's own NUBAN reading: the digits split into a bank code of the list and a NUBAN whose check digit is right for it. */
function nubanWithCode(digits: string): boolean {
  const k = digits.length - 10;
  if (k < 3 || k > 6) return false;
  const fits = (code: string, account: string) => {
    const bank = NIGERIAN_BANK_CODES[code];
    return bank !== undefined && nubanCheckDigit(bank.nubanCode, account.slice(0, 9)) === Number(account[9]);
  };
  return fits(digits.slice(10), digits.slice(0, 10)) || fits(digits.slice(0, k), digits.slice(k));
}

/** Reference for a run of ASCII digits with no separator: the whole run is a card number, and not a NUBAN with its bank code. */
function libraryCardRun(digits: string): boolean {
  return libraryCard(digits) && !nubanWithCode(digits);
}

/** An earlier detector, for comparison: Luhn alone on whole digit groups joined by one space or dash. */
function oldRuleRefuses(text: string): boolean {
  for (const m of text.matchAll(/\d+(?:[ -]\d+)*/g)) {
    const groups = m[0].split(/[ -]/);
    for (let i = 0; i < groups.length; i += 1) {
      let digits = '';
      for (let j = i; j < groups.length && digits.length <= 19; j += 1) {
        digits += groups[j];
        if (digits.length >= 12 && digits.length <= 19 && luhn(digits)) return true;
      }
    }
  }
  return false;
}

/** Whether some 12–19-digit window of a digit string is a card number per the library. */
function holdsLibraryCard(digits: string): boolean {
  for (let length = 12; length <= 19; length += 1)
    for (let s = 0; s + length <= digits.length; s += 1) if (libraryCard(digits.slice(s, s + length))) return true;
  return false;
}

/** The library as published (a fresh copy of the module, without card-brands.ts's changes). */
function pristineLibrary(): typeof creditCardType {
  let fresh: typeof creditCardType | undefined;
  jest.isolateModules(() => {
    fresh = jest.requireActual('credit-card-type') as typeof creditCardType;
  });
  return fresh as typeof creditCardType;
}

/** Replaces the last digit so the number passes Luhn. */
function withCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d += 1) if (luhn(body + String(d))) return body + String(d);
  throw new Error('unreachable');
}

describe('brand table', () => {
  test(`every interval of the flattened table is ${CARD_TYPE_LIBRARY}'s own answer (with our changes), at both of its bounds and at random`, () => {
    const { prefixDigits, intervals } = brandTableForTests();
    const r = seeded(SEED);
    const probes: string[] = [];
    for (let i = 0; i < intervals.length; i += 1) {
      const start = (intervals[i] as { start: number }).start;
      const next = i + 1 < intervals.length ? (intervals[i + 1] as { start: number }).start : 10 ** prefixDigits;
      for (const p of [start, next - 1]) probes.push(String(p).padStart(prefixDigits, '0') + r.digits(r.int(12, 19) - prefixDigits));
    }
    for (let i = 0; i < 1_000; i += 1) probes.push(r.digits(r.int(12, 19)));
    for (const pan of probes) {
      const [match, ...others] = creditCardType(pan);
      expect(others).toEqual([]);
      expect(libraryBrandOf(pan)).toBe(match?.type ?? null);
    }
  });

  test('the only changes to the library: Verve gains three IIN ranges, Maestro keeps the lengths 16–19, JCB keeps 3528–3589', () => {
    const pristine = pristineLibrary();
    const brands = Object.values(creditCardType.types);
    for (const brand of brands) {
      const ours = creditCardType.getTypeInfo(brand);
      const theirs = pristine.getTypeInfo(brand);
      if (brand === 'verve') expect(ours).toEqual({ ...theirs, patterns: [...theirs.patterns, ...VERVE_ADDED_RANGES.map((r) => [...r])] });
      else if (brand === 'maestro') expect(ours).toEqual({ ...theirs, lengths: [...MAESTRO_LENGTHS] });
      else if (brand === 'jcb') expect(ours).toEqual({ ...theirs, patterns: JCB_RANGES.map((r) => [...r]) });
      else expect(ours).toEqual(theirs);
    }
    expect(pristine.getTypeInfo('maestro').lengths).toEqual([12, 13, 14, 15, 16, 17, 18, 19]);
    expect(pristine.getTypeInfo('jcb').patterns).toEqual([2131, 1800, [3528, 3589]]);
    expect(libraryBrandOf(withCheckDigit('180012345678901'))).toBeNull(); // the library: jcb
    expect(pristine(withCheckDigit('180012345678901')).map((m) => m.type)).toEqual(['jcb']);
  });
});

describe('brands of card summaries (Verve vs Discover pinned)', () => {
  const pristine = pristineLibrary();

  test("6500xx: the library says Discover; Verve's 650002–650027 reads verve, the rest of 65xxxx stays discover", () => {
    const verve6500 = withCheckDigit('650002' + '123456789');
    const lastVerve = withCheckDigit('650027' + '000000000');
    const after = withCheckDigit('650028' + '000000000');
    expect(pristine(verve6500).map((m) => m.type)).toEqual(['discover']);
    expect(detectBrand(verve6500)).toBe('verve');
    expect(detectBrand(lastVerve)).toBe('verve');
    expect(detectBrand(after)).toBe('discover');
    expect(detectBrand(withCheckDigit('650001' + '000000000'))).toBe('discover');
    expect(detectBrand('6011111111111117')).toBe('discover');
  });

  test("Paystack's and Flutterwave's Verve test cards read verve (the library alone calls Paystack's Maestro), and so do their summaries", () => {
    for (const pan of ['5060666666666666666', '507850785078507812', '5061460410120223210', '5060990000000000019']) {
      expect(detectBrand(pan)).toBe('verve');
      expect(summarizeCard({ card_number: pan, card_exp_month: '09', card_exp_year: '32', card_cvc: '123' }, 'fp_x').brand).toBe('verve');
    }
    expect(pristine('5060666666666666666').map((m) => m.type)).toEqual(['maestro']);
  });

  test("the other brands are the library's, under their API names", () => {
    const cases: Array<[string, string]> = [
      ['4242424242424242', 'visa'],
      ['5555555555554444', 'mastercard'],
      ['2223003122003222', 'mastercard'],
      ['378282246310005', 'amex'],
      ['36227206271667', 'diners'],
      ['3566002020360505', 'jcb'],
      ['6200000000000005', 'unionpay'],
      ['2200000000000004', 'mir'],
      ['6759649826438453', 'maestro'],
      ['9999999999999995', 'unknown'],
      ['0000000000000000', 'unknown'],
    ];
    for (const [pan, brand] of cases) expect(detectBrand(pan)).toBe(brand);
  });
});

describe('the rule', () => {
  test('Luhn is checked for every brand, UnionPay included', () => {
    const r = seeded(SEED + 3);
    for (const [prefix, length] of [
      ['62', 16],
      ['62', 19],
      ['8110', 17],
      ['4', 16],
      ['51', 16],
      ['34', 15],
      ['36', 14],
      ['6011', 16],
      ['5061', 19],
      ['3528', 16],
      ['2200', 16],
    ] as const) {
      let checked = 0;
      for (let i = 0; i < 20; i += 1) {
        let pan: string;
        do pan = withCheckDigit(prefix + r.digits(length - prefix.length - 1));
        while (!libraryCard(pan)); // a number of the brand's range (e.g. 8172… is not UnionPay's)
        expect(containsCardNumber(pan)).toBe(true);
        // Any other check digit: not a card number.
        for (const wrong of [...'0123456789'].map((d) => pan.slice(0, -1) + d).filter((n) => n !== pan)) {
          expect(containsCardNumber(wrong)).toBe(false);
          checked += 1;
        }
      }
      expect(checked).toBe(20 * 9);
    }
  });

  test('a Luhn-valid number no brand issues at its length is not a card number', () => {
    for (const body of ['9000123412341', '7000123412341234', '0000123412341234', '42424242424242', '55555555555544', '3782822463100']) {
      const n = withCheckDigit(body);
      expect(libraryCard(n)).toBe(false);
      expect(containsCardNumber(n)).toBe(false);
    }
  });

  test('Maestro: 16–19 digits are card numbers; 12–15 digits with a Maestro prefix are not (the accepted risk)', () => {
    for (let length = 12; length <= 19; length += 1) {
      const n = withCheckDigit(`6759${'1'.repeat(length - 5)}`);
      expect(detectBrand(n)).toBe('maestro');
      expect(containsCardNumber(n)).toBe(length >= 16);
    }
  });

  test('letters end a run; a card number is whole groups of digits, never part of a group', () => {
    expect(containsCardNumber('4242a4242a4242a4242')).toBe(false);
    expect(containsCardNumber('x4242424242424242y')).toBe(true);
    // A digit glued to a card number makes a number no brand issues: not a card number.
    for (const glued of ['14242424242424242', '42424242424242421', '142424242424242429', '1378282246310005']) {
      expect(libraryCard(glued)).toBe(false);
      expect(containsCardNumber(glued)).toBe(false);
    }
    // Separated from it, the same digit leaves the card number whole.
    for (const separated of ['1 4242424242424242', '4242424242424242 1', '1-4242 4242 4242 4242-9', '1 378282246310005']) {
      expect(containsCardNumber(separated)).toBe(true);
    }
    expect(containsCardNumber([...'4242424242424242'].join(' '))).toBe(true); // one digit per group
  });

  test('a NUBAN written with its bank code is not a card number, even where the digits read as one', () => {
    // 4012345678 (GTB's check digit at 000013, GTB's NIP code) + 000013: a Luhn-valid 16-digit Visa number.
    const r = seeded(SEED + 5);
    let seen = 0;
    for (let i = 0; i < 20_000 && seen < 50; i += 1) {
      const code = r.pick(['000013', '090267', '100004', '50211']);
      const serial = `4${r.digits(8)}`;
      const account = serial + String(nubanCheckDigit(NIGERIAN_BANK_CODES[code]!.nubanCode, serial));
      for (const text of [account + code, `${account} ${code}`]) {
        if (!libraryCard(text.replace(' ', ''))) continue;
        seen += 1;
        expect(containsCardNumber(text)).toBe(false);
        // The same digits with a wrong NUBAN check digit are a card number again, unless another split fits.
        const wrong = `${account.slice(0, 9)}${(Number(account[9]) + 1) % 10}${code}`;
        if (!nubanWithCode(wrong) && libraryCard(wrong)) expect(containsCardNumber(wrong)).toBe(true);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(10);
  });

  test('every Unicode decimal digit script is read as digits', () => {
    const isNd = (cp: number) => /^\p{Nd}$/u.test(String.fromCodePoint(cp));
    let scripts = 0;
    for (let cp = 0; cp <= 0x1ffff; cp += 1) {
      // Planes 0 and 1 hold every decimal digit (the last: U+1FBF9, segmented digit nine).
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (!isNd(cp) || (isNd(cp - 1) && (cp - firstOfRun(cp)) % 10 !== 0)) continue;
      scripts += 1;
      const text = [...'4242424242424242'].map((d) => String.fromCodePoint(cp + Number(d))).join('');
      expect({ zero: cp.toString(16), found: containsCardNumber(text) }).toEqual({ zero: cp.toString(16), found: true });
      expect(containsCardNumber([...'4242424242424241'].map((d) => String.fromCodePoint(cp + Number(d))).join(''))).toBe(false);
    }
    expect(scripts).toBeGreaterThan(50);
    function firstOfRun(cp: number): number {
      let first = cp;
      while (isNd(first - 1)) first -= 1;
      return first;
    }
  });

  test('findCardNumbers: sorted, merged ranges of the original text, UTF-16 offsets', () => {
    const text = 'a ４２４２４２４２４２４２４２４２ b 𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐 c 5555 5555 5555 4444 12/29';
    const ranges = findCardNumbers(text);
    expect(ranges.map(([a, b]) => text.slice(a, b))).toEqual([
      '４２４２４２４２４２４２４２４２',
      '𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐𝟒𝟐',
      '5555 5555 5555 4444',
    ]);
  });
});

describe('test cards: 100 % found, in every spelling', () => {
  const pans = [
    ...Object.keys(SANDBOX_TEST_CARDS),
    ...Object.values(PAYSTACK_TEST_CARDS)
      .filter((c) => c.source === 'paystack')
      .map((c) => c.number),
    ...PUBLISHED_TEST_CARDS,
  ];

  test('each is a card number of a real brand (Luhn, IIN range and length per the library)', () => {
    for (const pan of pans) expect({ pan, card: libraryCard(pan) }).toEqual({ pan, card: true });
  });

  test('at least 30 spellings each; every one is refused, and the range found covers all of its digits', () => {
    let total = 0;
    const missed: string[] = [];
    for (const pan of new Set(pans)) {
      const spellings = spellingsOf(pan);
      expect(spellings.length).toBeGreaterThanOrEqual(30);
      for (const s of spellings) {
        total += 1;
        const covered = findCardNumbers(s.text).some(([a, b]) => a <= s.start && b >= s.end);
        if (!containsCardNumber(s.text) || !covered) missed.push(`${pan} ${s.name}: ${JSON.stringify(s.text)}`);
      }
    }
    report.push(
      `test cards: ${new Set(pans).size} numbers × ≥ 30 spellings = ${total} texts, ${total - missed.length} refused (${pct(total - missed.length, total)})`,
    );
    expect(missed).toEqual([]);
  });
});

describe('legitimate values: false refusals ≤ 0.1 %', () => {
  test('a generated corpus of ≥ 10,000 values no brand issues (timestamps, phones of NG/GH/KE/ZA, NUBAN + bank code, e-mails, UUIDs, amounts, order ids)', () => {
    const corpus = legitimateCorpus(SEED, 1_000);
    expect(corpus.length).toBeGreaterThanOrEqual(10_000);
    const byCategory = new Map<string, { total: number; refused: string[]; oldRule: number }>();
    for (const { category, value } of corpus) {
      const entry = byCategory.get(category) ?? { total: 0, refused: [], oldRule: 0 };
      entry.total += 1;
      if (containsCardNumber(value)) entry.refused.push(value);
      if (oldRuleRefuses(value)) entry.oldRule += 1;
      byCategory.set(category, entry);
    }
    const refused = [...byCategory.values()].reduce((n, e) => n + e.refused.length, 0);
    const oldRule = [...byCategory.values()].reduce((n, e) => n + e.oldRule, 0);
    report.push(
      `corpus: ${corpus.length} values, ${refused} refused (${pct(refused, corpus.length)}; the old rule: ${pct(oldRule, corpus.length)})`,
    );
    for (const [category, e] of byCategory) {
      report.push(
        `  ${category}: ${e.refused.length}/${e.total} (old rule ${e.oldRule})${e.refused.length ? ` e.g. ${JSON.stringify(e.refused.slice(0, 3))}` : ''}`,
      );
    }
    // Each refusal is a card number the library recognizes inside the value, never a Luhn-only match.
    for (const e of byCategory.values())
      for (const value of e.refused)
        for (const [a, b] of findCardNumbers(value)) expect(holdsLibraryCard(value.slice(a, b).replace(/\D/g, ''))).toBe(true);
    expect(refused / corpus.length).toBeLessThanOrEqual(0.001);
  });
});

describe('our own ids', () => {
  test('documented: how often a generated id (prefix + 32 hex digits) holds a digit run that reads as a card number', () => {
    const r = seeded(SEED + 4);
    const N = 100_000;
    let holding = 0;
    for (let i = 0; i < N; i += 1)
      if (containsCardNumber(`cus_${Array.from({ length: 32 }, () => '0123456789abcdef'[r.int(0, 15)]).join('')}`)) holding += 1;
    report.push(`ids of our own shape holding a card-like digit run: ${holding}/${N} (${pct(holding, N)})`);
    expect(holding / N).toBeLessThan(0.002); // rare, but not never: ids of that shape are exempt (shared/schemas/common.ts)
  });
});

describe('uniformly random ids: only those that are a card number of a real brand are refused', () => {
  /** Share of uniformly random n-digit strings that are a card number: the brand table's coverage at length n, over 10 (Luhn). */
  function expectedCardShare(n: number): number {
    const { prefixDigits, intervals } = brandTableForTests();
    let covered = 0;
    intervals.forEach((iv, i) => {
      const next = i + 1 < intervals.length ? (intervals[i + 1] as { start: number }).start : 10 ** prefixDigits;
      if (iv.lengths.includes(n)) covered += next - iv.start;
    });
    return covered / 10 ** prefixDigits / 10;
  }

  test('12–19 digits: refused exactly when the id itself is a card number per the library (and not a NUBAN with its bank code); the share matches the brand table', () => {
    const r: Random = seeded(SEED + 2);
    const N = 1_500;
    for (let n = 12; n <= 19; n += 1) {
      let isCard = 0;
      let refused = 0;
      let luhnOnly = 0;
      const mismatches: string[] = [];
      for (let i = 0; i < N; i += 1) {
        const id = r.digits(n);
        const detected = containsCardNumber(id);
        const whole = libraryCard(id);
        if (detected !== libraryCardRun(id)) mismatches.push(id);
        if (detected) refused += 1;
        if (whole) isCard += 1;
        if (passesLuhn(id)) luhnOnly += 1;
      }
      expect(mismatches).toEqual([]);
      const expected = expectedCardShare(n);
      const sigma = Math.sqrt((expected * (1 - expected)) / N);
      expect(Math.abs(isCard / N - expected)).toBeLessThanOrEqual(5 * sigma + 1e-9);
      if (n <= 16) expect(refused).toBeLessThan(luhnOnly); // the old Luhn-only rule refused one in ten
      report.push(
        `random ${n}-digit ids: is a card ${pct(isCard, N)} (table: ${(100 * expected).toFixed(2)} %), refused ${pct(refused, N)}, Luhn-only rule ${pct(luhnOnly, N)}`,
      );
    }
  });
});

describe('speed: linear in the text', () => {
  test.each([
    ['64 KiB of one digit', () => '7'.repeat(65_536)],
    ['64 KiB of random digits', () => seeded(1).digits(65_536)],
    ['64 KiB of digits each followed by a separator', () => [...seeded(2).digits(32_768)].join(' ')],
    [
      '64 KiB of groups of four',
      () =>
        seeded(3)
          .digits(52_428)
          .replace(/(\d{4})/g, '$1-'),
    ],
    [
      '64 KiB of full-width digits and spaces',
      () => [...seeded(4).digits(32_768)].map((d) => String.fromCodePoint(0xff10 + Number(d))).join('\u3000'),
    ],
    ['64 KiB of card numbers', () => '4242 4242 4242 4242 '.repeat(3_277)],
  ])('%s: in well under 2 s (a quadratic scan would take minutes)', (_name, make) => {
    const text = make();
    const started = performance.now();
    containsCardNumber(text);
    findCardNumbers(text);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
