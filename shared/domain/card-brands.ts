/**
 * Card brands: the issuer identification number (IIN) ranges and PAN lengths of Braintree's
 * `credit-card-type` 10.3.0 (`src/lib/card-types.ts`; pinned exactly in package.json), with this
 * service's three changes. `credit-card-type`'s `updateCard` changes state for the whole module, so
 * the changes are applied here, once, on first use (not at cold start), and nowhere else; every brand
 * decision of the service (card summaries, the card-number detector) goes through this module.
 * (A library whose patterns were longer than `MIN_PAN_LENGTH` digits would now fail that first lookup rather
 * than the import; the version is pinned and test/unit/card-detector.test.ts builds the table.)
 *
 * The changes (docs/security.md, "Card-number detector"):
 * - **Verve** keeps the library's ranges and gains 506000–506198, 507800–507964 and
 *   650002–650027. The library (10.3) lists only parts of 5060xx–5061xx and 5078xx–5079xx, so
 *   Paystack's published test Verve cards (5060 6666 6666 6666 666, 5078 5078 5078 5078 12) came
 *   back as Maestro; 650002–650027 is Verve's range in the IIN table of Wikipedia's "Payment card
 *   number" (506099–506198, 650002–650027, 507865–507964), where the library says Discover.
 *   Summaries of those cards read `verve`; every other 65xxxx number stays Discover.
 * - **Maestro** keeps its ranges but only the lengths 16–19 (the library: 12–19). With a prefix
 *   as broad as `6` (the library's as-you-type fallback for any 6… number no other brand claims)
 *   and lengths down to 12, about one digit string in seven of 12–15 digits is "a Maestro
 *   prefix" — a 3-digit Nigerian bank code glued to a NUBAN (`058` + 10 digits: `58…` is
 *   Maestro at 12 digits) is refused one time in ten. None of this market's processors
 *   (Paystack, Flutterwave, Stripe) lists Maestro as a brand of its own or publishes a Maestro
 *   test number; a 12–15-digit Maestro number in free text is the risk we accept (measured in
 *   test/unit/card-detector.test.ts).
 * - **JCB** keeps 3528–3589 and loses the library's `1800` and `2131`. Those were JCB's old
 *   15-digit numbers; the library gives them JCB's 16–19 digits, lengths no JCB card of those
 *   prefixes has, and Wikipedia's "Payment card number" IIN table lists JCB as 3528–3589 only.
 *   With them, one 16-digit id in ten thousand that starts with `1` (database and snowflake ids,
 *   millisecond timestamps with a counter) read as a JCB card (1800… passing Luhn).
 */
import creditCardType from 'credit-card-type';
import type { CreditCardType, CreditCardTypeCardBrandId } from 'credit-card-type/dist/types';

/** The library and the version whose tables this module uses (package.json pins it exactly). */
export const CARD_TYPE_LIBRARY = 'credit-card-type@10.3.0';

/** A brand id of `credit-card-type` (`visa`, `mastercard`, `american-express`, `diners-club`, `verve`, …). */
export type LibraryBrand = CreditCardTypeCardBrandId;

/** IIN ranges (first 6 digits, inclusive) added to the library's Verve ranges (see the module comment). */
export const VERVE_ADDED_RANGES: ReadonlyArray<readonly [number, number]> = [
  [506000, 506198],
  [507800, 507964],
  [650002, 650027],
];

/** JCB's IIN range kept (the library also lists 1800 and 2131; see the module comment). */
export const JCB_RANGES: ReadonlyArray<readonly [number, number]> = [[3528, 3589]];

/** The PAN lengths kept for Maestro (the library allows 12–19; see the module comment). */
export const MAESTRO_LENGTHS: readonly number[] = [16, 17, 18, 19];

/** Shortest PAN the brand tables allow (ISO/IEC 7812-1: 8 to 19 digits; every brand here has at least 12). */
export const MIN_PAN_LENGTH = 12;
/** Longest PAN (ISO/IEC 7812-1). */
export const MAX_PAN_LENGTH = 19;

/**
 * The brand table flattened for lookups by prefix. Every pattern of the library is a prefix of at
 * most `prefixDigits` digits (a number or an inclusive range of numbers with the same
 * digit count), so the brand the library names for a number of at least that many digits depends
 * only on its first `prefixDigits` digits, and is the same for every prefix between two
 * consecutive pattern boundaries. Each interval is resolved as `creditCardType(number)` resolves
 * a whole number (credit-card-type/src/index.ts, credit-card-type/lib/add-matching-cards-to-results.ts, credit-card-type/lib/find-best-match.ts):
 * each brand's first matching pattern, the longest such pattern wins, a tie goes to the brand
 * the library tries first (the order `creditCardType('')` lists them in). The data are the
 * library's (`getTypeInfo`), not a copy; test/unit/card-detector.test.ts compares every interval
 * bound, and random numbers, with the library's own answer.
 */
interface BrandTable {
  /** Digits of the longest pattern of any brand (8 in 10.3: Troy’s 65083700…). */
  prefixDigits: number;
  /** Interval starts, ascending, as `prefixDigits`-digit prefix values (leading zeros count as 0s). */
  starts: number[];
  /** The brand of each interval (null: no brand). */
  brands: Array<LibraryBrand | null>;
  /** Bit `n` set when the interval's brand issues PANs of `n` digits. */
  lengthMasks: number[];
}

function patternDigits(pattern: number | number[]): number {
  return String(Array.isArray(pattern) ? pattern[0] : pattern).length;
}

let changed = false;

/**
 * The library's brands, in the order it tries them (its answer for an empty number lists them so),
 * with this module's changes applied to the library first (once per process, on first use: the
 * library's `updateCard` changes its state for the whole module).
 */
function brandsInLibraryOrder(): CreditCardType[] {
  if (!changed) {
    creditCardType.updateCard('verve', {
      patterns: [...creditCardType.getTypeInfo('verve').patterns, ...VERVE_ADDED_RANGES.map(([lo, hi]) => [lo, hi])],
    });
    creditCardType.updateCard('maestro', { lengths: [...MAESTRO_LENGTHS] });
    creditCardType.updateCard('jcb', { patterns: JCB_RANGES.map(([lo, hi]) => [lo, hi]) });
    changed = true;
  }
  return creditCardType('');
}

/** A pattern as the inclusive range of `prefixDigits`-digit prefixes it matches, and its strength (its digit count). */
interface PrefixRange {
  lo: number;
  hi: number;
  strength: number;
}

function prefixRange(pattern: number | number[], prefixDigits: number): PrefixRange {
  const [lo, hi] = Array.isArray(pattern) ? [pattern[0] as number, pattern[1] as number] : [pattern, pattern];
  const strength = patternDigits(pattern);
  const scale = 10 ** (prefixDigits - strength);
  return { lo: lo * scale, hi: (hi + 1) * scale - 1, strength };
}

function buildTable(): BrandTable {
  const library = brandsInLibraryOrder();
  const prefixDigits = Math.max(...library.flatMap((b) => b.patterns.map(patternDigits)));
  if (prefixDigits > MIN_PAN_LENGTH) throw new Error(`${CARD_TYPE_LIBRARY}: a pattern longer than ${MIN_PAN_LENGTH} digits`);
  const brands = library.map((b) => ({
    type: b.type as LibraryBrand,
    lengthMask: b.lengths.reduce((mask, n) => mask | (1 << n), 0),
    ranges: b.patterns.map((p) => prefixRange(p, prefixDigits)),
  }));
  const bounds = new Set<number>([0]);
  for (const brand of brands) for (const r of brand.ranges) bounds.add(r.lo).add(r.hi + 1);
  const starts = [...bounds].filter((b) => b < 10 ** prefixDigits).sort((a, b) => a - b);
  const table: BrandTable = { prefixDigits, starts, brands: [], lengthMasks: [] };
  for (const start of starts) {
    let best: (typeof brands)[number] | undefined;
    let bestStrength = 0;
    for (const brand of brands) {
      const first = brand.ranges.find((r) => start >= r.lo && start <= r.hi); // the brand's first matching pattern
      if (first && first.strength > bestStrength) {
        best = brand;
        bestStrength = first.strength;
      }
    }
    table.brands.push(best ? best.type : null);
    table.lengthMasks.push(best ? best.lengthMask : 0);
  }
  return table;
}

/** Built on first use (about a millisecond, with the library's changes), not at cold start. */
let TABLE: BrandTable | undefined;

function table(): BrandTable {
  TABLE ??= buildTable();
  return TABLE;
}

/** Index of the interval holding a prefix value (binary search). */
function intervalOf(prefix: number): number {
  const { starts } = table();
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= prefix) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The prefix value of `digits[start…]` (its first `prefixDigits` digits as a number).
 * @param digits digit values 0–9
 * @param start index of the first digit; at least `prefixDigits` digits must follow
 */
function prefixAt(digits: ArrayLike<number>, start: number): number {
  const { prefixDigits } = table();
  let value = 0;
  for (let i = 0; i < prefixDigits; i += 1) value = value * 10 + (digits[start + i] as number);
  return value;
}

/**
 * Whether a brand issues PANs of `length` digits starting with the digits at `digits[start…]`
 * (IIN range and length per {@link CARD_TYPE_LIBRARY} with this module's changes; no Luhn check).
 * @param digits digit values 0–9
 * @param start index of the PAN's first digit
 * @param length the PAN's length; 12–19 (shorter or longer is never a PAN)
 */
export function isIssuedLength(digits: ArrayLike<number>, start: number, length: number): boolean {
  if (length < MIN_PAN_LENGTH || length > MAX_PAN_LENGTH) return false;
  return ((table().lengthMasks[intervalOf(prefixAt(digits, start))] as number) & (1 << length)) !== 0;
}

/**
 * The brand the library names for a card number: the brand of its most specific matching IIN
 * pattern (what `creditCardType(number)` answers for a whole number), whatever its length.
 * @param pan the card number, ASCII digits only
 * @returns the library's brand id, or null when no brand claims the prefix or `pan` is not
 *   at least {@link MIN_PAN_LENGTH} ASCII digits
 */
export function libraryBrandOf(pan: string): LibraryBrand | null {
  if (pan.length < MIN_PAN_LENGTH || !/^[0-9]+$/.test(pan)) return null;
  const { brands, prefixDigits } = table();
  return brands[intervalOf(Number(pan.slice(0, prefixDigits)))] ?? null;
}

/**
 * The flattened table, for tests that compare it with the library: each interval's first
 * prefix value (`prefixDigits` digits), its brand and its lengths.
 */
export function brandTableForTests(): {
  prefixDigits: number;
  intervals: Array<{ start: number; brand: LibraryBrand | null; lengths: number[] }>;
} {
  const { prefixDigits, starts, brands, lengthMasks } = table();
  return {
    prefixDigits,
    intervals: starts.map((start, i) => ({
      start,
      brand: brands[i] ?? null,
      lengths: Array.from({ length: 20 }, (_, n) => n).filter((n) => ((lengthMasks[i] as number) & (1 << n)) !== 0),
    })),
  };
}
