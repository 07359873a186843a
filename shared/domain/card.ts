/**
 * Card rules: Luhn check, brand detection from the BIN, expiry, the summary that is the only
 * card data ever stored or returned (last4, brand, expiry), and the detector that keeps card
 * numbers out of every other field and out of logs. Brands and IIN ranges come from Braintree's
 * `credit-card-type` 10.3.0 through shared/domain/card-brands.ts.
 * The PAN and CVC live only in memory for the duration of a connector call.
 */
import {
  isIssuedLength as issuedLength,
  type LibraryBrand,
  libraryBrandOf,
  MAX_PAN_LENGTH as PAN_MAX,
  MIN_PAN_LENGTH as PAN_MIN,
} from './card-brands';
import { isNubanWithBankCode } from './nuban';

// Local copies for the scanner's inner loops (a module namespace access can be a getter call).
const MIN_PAN_LENGTH = PAN_MIN;
const MAX_PAN_LENGTH = PAN_MAX;
const isIssuedLength = issuedLength;
/** Longest NUBAN written with its bank's code: 10 digits and a 6-digit code. */
const MAX_NUBAN_WITH_CODE = 16;

/** Card details as the client sends them (PAN and CVC included: never persist this). */
export interface CardDetails {
  card_number: string;
  card_exp_month: string;
  card_exp_year: string;
  card_cvc: string;
}

/**
 * Card brands, as `credit-card-type` names them (shared/domain/card-brands.ts), with the short
 * names Stripe uses for two of them (`amex` for `american-express`, `diners` for `diners-club`);
 * `unknown` when no brand claims the number's prefix.
 */
export type CardBrand =
  | 'visa'
  | 'mastercard'
  | 'amex'
  | 'diners'
  | 'discover'
  | 'jcb'
  | 'unionpay'
  | 'maestro'
  | 'verve'
  | 'elo'
  | 'mir'
  | 'hiper'
  | 'hipercard'
  | 'troy'
  | 'naranja'
  | 'unknown';

/**
 * The storable, returnable part of a card. `exp_month` is 1–12, `exp_year` four
 * digits, `fingerprint` a keyed hash of the PAN (same card, same fingerprint).
 */
export interface CardSummary {
  last4: string;
  brand: CardBrand;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
}

/** The fields of a {@link CardSummary}, in the order responses list them. */
export const CARD_SUMMARY_FIELDS: readonly (keyof CardSummary)[] = ['last4', 'brand', 'exp_month', 'exp_year', 'fingerprint'];

/**
 * Luhn (mod 10) check, ISO/IEC 7812-1 annex B.
 * @param digits a string of digits only
 * @returns true when the check digit is valid
 */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

const BRAND_NAMES: Readonly<Record<LibraryBrand, CardBrand>> = {
  visa: 'visa',
  mastercard: 'mastercard',
  'american-express': 'amex',
  'diners-club': 'diners',
  discover: 'discover',
  jcb: 'jcb',
  unionpay: 'unionpay',
  maestro: 'maestro',
  verve: 'verve',
  elo: 'elo',
  mir: 'mir',
  hiper: 'hiper',
  hipercard: 'hipercard',
  troy: 'troy',
  naranja: 'naranja',
};

/**
 * Brand from the issuer identification number: the most specific IIN range of
 * `credit-card-type` 10.3.0 that the number starts with, with this service's changes
 * (shared/domain/card-brands.ts: 506000–506198, 507800–507964 and 650002–650027 are Verve;
 * other 65xxxx numbers keep the library's brand, mostly Discover). The length is not checked: a summary names the brand of
 * whatever Luhn-valid number the processor accepted.
 * @param pan the card number, ASCII digits only (12–19 of them)
 * @returns the brand, or `unknown` when no brand claims the prefix (or `pan` is not 12+ digits)
 */
export function detectBrand(pan: string): CardBrand {
  const brand = libraryBrandOf(pan);
  return brand ? BRAND_NAMES[brand] : 'unknown';
}

/**
 * Normalizes a 2- or 4-digit expiry year to four digits (`"30"` → 2030).
 */
export function fullExpiryYear(year: string): number {
  const n = Number(year);
  return year.length === 2 ? 2000 + n : n;
}

/**
 * @param month 1–12
 * @param year four digits
 * @param now the instant to compare with (default: the current time)
 * @returns true when the card's last valid day (end of its expiry month, UTC) is before `now`
 */
export function isExpired(month: number, year: number, now: Date = new Date()): boolean {
  const firstDayAfterExpiry = Date.UTC(year, month, 1); // month is 1-based: Date.UTC(y, 12) = Jan 1 of y+1
  return firstDayAfterExpiry <= now.getTime();
}

/**
 * Reduces card details to what may be stored and returned.
 * @param card validated card details (number digits only)
 * @param fingerprint the card's keyed fingerprint (see shared/security/keyed-hash.ts)
 * @returns last4, brand, expiry month (1–12), four-digit year and the fingerprint
 */
export function summarizeCard(card: CardDetails, fingerprint: string): CardSummary {
  return {
    last4: card.card_number.slice(-4),
    brand: detectBrand(card.card_number),
    exp_month: Number(card.card_exp_month),
    exp_year: fullExpiryYear(card.card_exp_year),
    fingerprint,
  };
}

// ---------------------------------------------------------------------------
// Card numbers in free text
// ---------------------------------------------------------------------------

/** What the scanner makes of a character: its digits (a decimal digit, or a compatibility form of one), `''` for a separator, `null` for a letter or other number that ends a run. */
type CharClass = string | null;

const NON_ASCII_CLASS = new Map<number, CharClass>();
const DECIMAL_DIGIT = /^\p{Nd}$/u;
const ALPHANUMERIC = /^[\p{L}\p{N}]$/u;
const COMPATIBILITY_DIGITS = /^([0-9]+)[.,]?$/;

/**
 * The value of a Unicode decimal digit (general category Nd). Unicode assigns Nd characters in
 * contiguous runs of ten, 0 to 9 (adjacent runs included, e.g. the mathematical digits
 * U+1D7CE–U+1D7FF), so the value is the distance from the start of the run, modulo 10.
 */
function decimalDigitValue(codePoint: number): number {
  let first = codePoint;
  while (first > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(first - 1))) first -= 1;
  return (codePoint - first) % 10;
}

/** {@link CharClass} of a non-ASCII code point (cached, up to 10,000 of them: texts reuse few distinct characters). */
function classifyNonAscii(codePoint: number): CharClass {
  const cached = NON_ASCII_CLASS.get(codePoint);
  if (cached !== undefined) return cached;
  const ch = String.fromCodePoint(codePoint);
  let result: CharClass;
  if (DECIMAL_DIGIT.test(ch)) {
    result = String(decimalDigitValue(codePoint)); // full-width ０-９, Arabic-Indic ٠-٩, Devanagari ०-९, …
  } else {
    // Superscripts, circled and parenthesized digits (², ①, ⑩, ⒈): their compatibility form is ASCII digits.
    const compat = COMPATIBILITY_DIGITS.exec(ch.normalize('NFKC'));
    if (compat) result = compat[1] as string;
    else result = ALPHANUMERIC.test(ch) ? null : ''; // letters and other numbers end a run; anything else separates
  }
  if (NON_ASCII_CLASS.size >= 10_000) NON_ASCII_CLASS.clear(); // bounded, whatever the texts
  NON_ASCII_CLASS.set(codePoint, result);
  return result;
}

/**
 * The digit run being scanned, in buffers reused from call to call (the detector runs on every
 * field and every log line; it is synchronous, so one set of buffers serves every call):
 * `digits[k]` is the k-th digit's value, `from[k]`/`to[k]` the text range of the character it
 * came from, `groupStarts[g]` the index of the first digit of the g-th group.
 */
const run = {
  digits: new Uint8Array(64),
  from: new Int32Array(64),
  to: new Int32Array(64),
  groupStarts: new Int32Array(16),
};

function grow<T extends Uint8Array | Int32Array>(buffer: T, needed: number): T {
  if (needed <= buffer.length) return buffer;
  const bigger = new (buffer.constructor as new (n: number) => T)(Math.max(needed, buffer.length * 2));
  bigger.set(buffer);
  return bigger;
}

/** Whether the run's digits `[start, end)` pass Luhn (the last one is the check digit, undoubled). */
function runPassesLuhn(start: number, end: number): boolean {
  const { digits } = run;
  let sum = 0;
  let double = false;
  for (let k = end - 1; k >= start; k -= 1) {
    const d = digits[k] as number;
    sum += double ? (d > 4 ? d * 2 - 9 : d * 2) : d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The end (exclusive) of the run's group `g`, given `groupCount` groups over `length` digits. */
function groupEnd(g: number, groupCount: number, length: number): number {
  return g + 1 < groupCount ? (run.groupStarts[g + 1] as number) : length;
}

/**
 * Searches the run (its first `length` digits, in `groupCount` groups) for card numbers.
 * Candidates: the digits of one or more consecutive whole groups, never part of a group (a
 * digit glued to a card number makes another number, which is not one). A candidate is a card
 * number when it has 12–19 digits, passes Luhn (every brand, UnionPay included), a brand issues
 * numbers of its length in its IIN range (shared/domain/card-brands.ts), and it is not a
 * Nigerian account number written with its bank's code (shared/domain/nuban.ts). A candidate
 * never exceeds 19 digits, so the work is linear in the run's length.
 * @param found where to add the text range of each card number (first digit's character to
 *   last digit's); `null` to stop at the first one
 * @returns true when a card number was found
 */
function searchRun(length: number, groupCount: number, found: Array<[number, number]> | null): boolean {
  const { digits, groupStarts } = run;
  let any = false;
  for (let i = 0; i < groupCount; i += 1) {
    const s = groupStarts[i] as number;
    for (let j = i; j < groupCount; j += 1) {
      const n = groupEnd(j, groupCount, length) - s;
      if (n > MAX_PAN_LENGTH) break;
      if (n < MIN_PAN_LENGTH || !runPassesLuhn(s, s + n) || !isIssuedLength(digits, s, n)) continue;
      if (n <= MAX_NUBAN_WITH_CODE && isNubanWithBankCode(digits, s, n)) continue;
      if (!found) return true;
      found.push([run.from[s] as number, run.to[s + n - 1] as number]);
      any = true;
    }
  }
  return any;
}

/** Appends a digit to the run (`startsGroup`: a separator or the run's start came before it). */
function pushDigit(length: number, groupCount: number, startsGroup: boolean, value: number, from: number, to: number): void {
  if (startsGroup) {
    run.groupStarts = grow(run.groupStarts, groupCount + 1);
    run.groupStarts[groupCount] = length;
  }
  if (length >= run.digits.length) {
    run.digits = grow(run.digits, length + 1);
    run.from = grow(run.from, length + 1);
    run.to = grow(run.to, length + 1);
  }
  run.digits[length] = value;
  run.from[length] = from;
  run.to[length] = to;
}

/**
 * Scans a text for card numbers. The text is cut into digit runs: maximal stretches of digits
 * and non-alphanumeric characters (any spaces, zero-width characters, punctuation, symbols),
 * ended by letters, other numbers or the ends of the text; digits with at least one such
 * character between them are in separate groups. Each run of at least 12 digits is searched
 * ({@link searchRun}).
 * @param found where to add the text range of each card number; `null` to stop at the first one
 * @returns true when a card number was found
 */
function scan(text: string, found: Array<[number, number]> | null): boolean {
  let length = 0;
  let groupCount = 0;
  let separated = true;
  let any = false;
  for (let i = 0; i <= text.length; ) {
    let digits: string | null | undefined; // a character's digits; '' a separator; null ends the run
    let width = 1;
    if (i === text.length) {
      digits = null;
    } else {
      const code = text.charCodeAt(i);
      if (code < 128) {
        if (code >= 48 && code <= 57) {
          pushDigit(length, groupCount, separated, code - 48, i, i + 1);
          if (separated) groupCount += 1;
          separated = false;
          length += 1;
          i += 1;
          continue;
        }
        digits = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ? null : '';
      } else {
        const codePoint = text.codePointAt(i) as number;
        width = codePoint > 0xffff ? 2 : 1;
        digits = classifyNonAscii(codePoint);
      }
    }
    if (digits === null) {
      if (length >= MIN_PAN_LENGTH && searchRun(length, groupCount, found)) {
        if (!found) return true;
        any = true;
      }
      length = 0;
      groupCount = 0;
      separated = true;
    } else if (digits === '') {
      separated = true;
    } else {
      for (let k = 0; k < digits.length; k += 1) {
        pushDigit(length, groupCount, separated, digits.charCodeAt(k) - 48, i, i + width);
        if (separated) groupCount += 1;
        separated = false;
        length += 1;
      }
    }
    i += width;
  }
  return any;
}

/**
 * Whether free text holds a card number, written any way (see {@link findCardNumbers}). Used to
 * refuse card numbers in every field that is stored, logged or echoed.
 * @param text any text
 */
export function containsCardNumber(text: string): boolean {
  return scan(text, null);
}

/**
 * The card numbers in a text, as `[start, end)` UTF-16 offsets of the original text, sorted and
 * merged (overlapping or touching findings become one range). Each range runs from the character
 * of a card number's first digit to that of its last, separators included.
 *
 * The rule (docs/security.md, "Card-number detector"):
 * - Digits are Unicode decimal digits (ASCII, full-width, Arabic-Indic, Devanagari, … normalized
 *   to 0–9) and characters whose compatibility form is digits (², ①).
 * - A run is a stretch of digits and non-alphanumeric characters: spaces of any kind (no-break,
 *   zero-width, tabs, newlines), dots, slashes, underscores, commas, dashes of any kind, any
 *   symbol. Letters (and other numbers, such as Ⅻ or ½) end a run.
 * - In a run, a card number is the whole of one or more consecutive digit groups (never a
 *   part of a group: `14242424242424242` is 17 digits no brand issues), of 12–19 digits, that
 *   passes Luhn and falls in a real brand's IIN range at one of its lengths (Braintree's
 *   `credit-card-type` 10.3.0 with the changes of shared/domain/card-brands.ts), and is not a
 *   NUBAN written with its bank's code (shared/domain/nuban.ts).
 *
 * Linear in the text's length (a 64 KiB body of digits is scanned in milliseconds).
 * @param text any text
 */
export function findCardNumbers(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  scan(text, spans);
  spans.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push(span);
  }
  return merged;
}
