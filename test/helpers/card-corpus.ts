/**
 * Generators for measuring the card-number detector (shared/domain/card.ts): a seeded random
 * source, a corpus of legitimate values no card brand issues, uniformly random digit ids, the
 * processors' published test cards, and the ways a person (or a careless integration) spells a
 * card number in free text. Used by test/unit/card-detector.test.ts (the measurement) and
 * test/http/property-based-suite.ts (the same spellings through the API).
 */
import * as fc from 'fast-check';
import { NIGERIAN_BANK_CODES, nubanCheckDigit } from '../../shared/domain/nuban';

/** `digits` followed by its Luhn check digit (ISO/IEC 7812-1 annex B): a number that passes the Luhn check. */
export function withLuhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

/** A deterministic random source (mulberry32): the same seed, the same values, on every machine. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** `n` uniformly random ASCII digits (leading zeros included). */
  digits(n: number): string;
}

/** A {@link Random} from a 32-bit seed. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T,
    digits: (n: number) => {
      let s = '';
      for (let i = 0; i < n; i += 1) s += String(int(0, 9));
      return s;
    },
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Groups a digit string by the given sizes (the last size repeats), joined by `sep`. */
function grouped(digits: string, sizes: readonly number[], sep: string): string {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; at < digits.length; i += 1) {
    const size = sizes[Math.min(i, sizes.length - 1)] as number;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(sep);
}

// ---------------------------------------------------------------------------
// Legitimate values
// ---------------------------------------------------------------------------

const FROM_2015 = Date.UTC(2015, 0, 1);
const TO_2035 = Date.UTC(2035, 11, 31);

function msTimestamp(r: Random): string {
  const ms = r.int(FROM_2015, TO_2035);
  return r.pick([String(ms), `${Math.floor(ms / 1000)}.${pad(ms % 1000, 3)}`, `ts=${ms}`]);
}

function sTimestamp(r: Random): string {
  const s = Math.floor(r.int(FROM_2015, TO_2035) / 1000);
  return r.pick([String(s), `${s}`, `@${s}`]);
}

/** Nigerian mobile prefixes (NCC number plan: MTN, Airtel, Glo, 9mobile), without the trunk 0. */
const NG_PREFIXES = [
  '703',
  '706',
  '803',
  '806',
  '810',
  '813',
  '814',
  '816',
  '903',
  '906',
  '913',
  '916',
  '701',
  '708',
  '802',
  '808',
  '812',
  '901',
  '902',
  '907',
  '912',
  '705',
  '805',
  '807',
  '811',
  '815',
  '905',
  '915',
  '809',
  '817',
  '818',
  '908',
  '909',
];
/** Ghanaian mobile prefixes (NCA: MTN, Telecel, AirtelTigo). */
const GH_PREFIXES = ['20', '23', '24', '25', '26', '27', '28', '50', '53', '54', '55', '56', '57', '59'];
/** Kenyan mobile prefixes (CA: Safaricom 7xx and 11x, Airtel 73x/75x/78x/10x, Telkom 77x). */
const KE_PREFIXES = [
  '700',
  '701',
  '702',
  '703',
  '704',
  '705',
  '706',
  '707',
  '708',
  '709',
  '710',
  '711',
  '712',
  '713',
  '714',
  '715',
  '716',
  '717',
  '718',
  '719',
  '720',
  '721',
  '722',
  '723',
  '724',
  '725',
  '726',
  '727',
  '728',
  '729',
  '730',
  '731',
  '732',
  '733',
  '734',
  '735',
  '736',
  '737',
  '738',
  '739',
  '740',
  '741',
  '742',
  '743',
  '745',
  '746',
  '748',
  '750',
  '751',
  '752',
  '753',
  '754',
  '755',
  '756',
  '757',
  '758',
  '759',
  '762',
  '763',
  '768',
  '769',
  '770',
  '771',
  '772',
  '773',
  '774',
  '775',
  '776',
  '777',
  '778',
  '779',
  '780',
  '781',
  '782',
  '783',
  '784',
  '785',
  '786',
  '787',
  '788',
  '789',
  '790',
  '791',
  '792',
  '793',
  '794',
  '795',
  '796',
  '797',
  '798',
  '799',
  '100',
  '101',
  '102',
  '110',
  '111',
  '112',
  '113',
  '114',
  '115',
];
/** South African mobile prefixes (ICASA: 06x, 07x, 08x). */
const ZA_PREFIXES = [
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '67',
  '68',
  '71',
  '72',
  '73',
  '74',
  '76',
  '78',
  '79',
  '81',
  '82',
  '83',
  '84',
];

function phoneNg(r: Random): string {
  const p = r.pick(NG_PREFIXES);
  const n = r.digits(7);
  const [a, b] = [n.slice(0, 3), n.slice(3)];
  return r.pick([
    `+234${p}${n}`,
    `+234 ${p} ${a} ${b}`,
    `+234-${p}-${a}-${b}`,
    `234 ${p} ${a} ${b}`,
    `(+234) ${p} ${a} ${b}`,
    `+234 (0) ${p} ${a} ${b}`,
    `0${p}${n}`,
    `0${p} ${a} ${b}`,
    `0${p}-${a}-${b}`,
    `00234 ${p} ${a} ${b}`,
  ]);
}

function phoneGh(r: Random): string {
  const p = r.pick(GH_PREFIXES);
  const n = r.digits(7);
  const [a, b] = [n.slice(0, 3), n.slice(3)];
  return r.pick([
    `+233${p}${n}`,
    `+233 ${p} ${a} ${b}`,
    `233 ${p} ${a} ${b}`,
    `0${p} ${a} ${b}`,
    `0${p}${n}`,
    `00233 ${p} ${a} ${b}`,
    `+233-${p}-${a}-${b}`,
  ]);
}

function phoneKe(r: Random): string {
  const p = r.pick(KE_PREFIXES);
  const n = r.digits(6);
  const [a, b] = [n.slice(0, 3), n.slice(3)];
  return r.pick([
    `+254${p}${n}`,
    `+254 ${p} ${a} ${b}`,
    `254${p}${n}`,
    `0${p} ${a}${b}`,
    `0${p}${n}`,
    `0${p} ${a} ${b}`,
    `+254-${p}-${a}-${b}`,
  ]);
}

function phoneZa(r: Random): string {
  const p = r.pick(ZA_PREFIXES);
  const n = r.digits(7);
  const [a, b] = [n.slice(0, 3), n.slice(3)];
  return r.pick([
    `+27${p}${n}`,
    `+27 ${p} ${a} ${b}`,
    `27 ${p} ${a} ${b}`,
    `0${p} ${a} ${b}`,
    `0${p}${n}`,
    `0027 ${p} ${a} ${b}`,
    `+27-${p}-${a}-${b}`,
  ]);
}

/** A NUBAN (CBN's 10-digit account number: 9-digit serial + check digit) at a bank, by any code it is written with (shared/domain/nuban.ts). */
function nuban(serial: string, bankCode: string): string {
  const bank = NIGERIAN_BANK_CODES[bankCode];
  if (!bank) throw new Error(`no such bank code: ${bankCode}`);
  return serial + String(nubanCheckDigit(bank.nubanCode, serial));
}

/** Every bank code of shared/domain/nuban.ts: 3-digit CBN codes, 5-digit and 6-digit institution codes. */
export const BANK_CODES: readonly string[] = Object.keys(NIGERIAN_BANK_CODES);

/** How a NUBAN and its bank code are written together: code first or last, glued or separated. */
const NUBAN_LAYOUTS: ReadonlyArray<(account: string, code: string, name: string) => string> = [
  (a, c) => `${a}${c}`,
  (a, c) => `${c}${a}`,
  (a, c) => `${a} ${c}`,
  (a, c) => `${c} ${a}`,
  (a, c) => `${c}-${a}`,
  (a, c) => `${a}-${c}`,
  (a, c) => `${a}/${c}`,
  (a, c) => `${c}/${a}`,
  (a, c) => `${c}:${a}`,
  (a, c) => `${a} (${c})`,
  (a, c, n) => `${n}: ${a} (${c})`,
  (a, c, n) => `${n} ${c} ${a}`,
];

function nubanWithBankCode(r: Random): string {
  const code = r.pick(BANK_CODES);
  return (r.pick(NUBAN_LAYOUTS) as (a: string, c: string, n: string) => string)(
    nuban(r.digits(9), code),
    code,
    NIGERIAN_BANK_CODES[code]?.name ?? '',
  );
}

/**
 * fast-check arbitraries of the values the detector must never refuse (test/unit/card-detector-precision.test.ts),
 * each a population a merchant's free text is full of.
 */
export const LEGITIMATE_NUMBERS = {
  /** 16-digit numeric ids that start with `1` (database sequences, snowflake-style ids), uniformly drawn. */
  sixteenDigitIds: fc.bigInt({ min: 1_000_000_000_000_000n, max: 1_999_999_999_999_999n }).map(String),
  /** Millisecond Unix timestamps of 13 digits (September 2001 to 2286), plain or as seconds and milliseconds. */
  msTimestamps: fc
    .tuple(fc.integer({ min: 1_000_000_000_000, max: 9_999_999_999_999 }), fc.boolean())
    .map(([ms, dotted]) => (dotted ? `${Math.floor(ms / 1000)}.${pad(ms % 1000, 3)}` : String(ms))),
  /** Nigerian mobile numbers (NCC prefixes, 11 digits with the trunk 0), with `+234`, `234`, `00234` or `0`, spaced or not. */
  nigerianPhones: fc
    .tuple(fc.constantFrom(...NG_PREFIXES), fc.stringMatching(/^[0-9]{7}$/), fc.integer({ min: 0, max: 9 }))
    .map(([p, n, form]) => {
      const [a, b] = [n.slice(0, 3), n.slice(3)];
      return [
        `+234${p}${n}`,
        `0${p}${n}`,
        `234${p}${n}`,
        `+234 ${p} ${a} ${b}`,
        `+234-${p}-${a}-${b}`,
        `(+234) ${p} ${a} ${b}`,
        `+234 (0) ${p} ${a} ${b}`,
        `0${p} ${a} ${b}`,
        `0${p}-${a}-${b}`,
        `00234 ${p} ${a} ${b}`,
      ][form] as string;
    }),
  /** A NUBAN with a right check digit and its bank's code (3, 5 or 6 digits), code first or last, glued or separated. */
  nubansWithBankCode: fc
    .tuple(fc.constantFrom(...BANK_CODES), fc.stringMatching(/^[0-9]{9}$/), fc.constantFrom(...NUBAN_LAYOUTS))
    .map(([code, serial, layout]) => layout(nuban(serial, code), code, NIGERIAN_BANK_CODES[code]?.name ?? '')),
} as const;

const NAMES = [
  'ada',
  'chidi',
  'ngozi',
  'emeka',
  'kwame',
  'akosua',
  'wanjiru',
  'otieno',
  'thabo',
  'naledi',
  'tunde',
  'amaka',
  'kofi',
  'zanele',
  'amina',
];
const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'example.ng', 'mail.co.za', 'company.co.ke'];

function digitEmail(r: Random): string {
  const name = `${r.pick(NAMES)}${r.pick(['.', '_', ''])}${r.pick(NAMES)}`;
  const digits = r.pick([
    () => String(r.int(1960, 2010)),
    () => r.digits(r.int(1, 6)),
    () => `0${r.pick(NG_PREFIXES)}${r.digits(7)}`,
    () => `234${r.pick(NG_PREFIXES)}${r.digits(7)}`,
    () => `254${r.pick(KE_PREFIXES)}${r.digits(6)}`,
    () => String(r.int(FROM_2015, TO_2035)),
  ])();
  const local = r.pick([`${name}${digits}`, `${name}.${digits}`, `${name}+${digits}`, digits]);
  return `${local}@${r.pick(DOMAINS)}`;
}

function uuid(r: Random): string {
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[r.int(0, 3)]}${hex(3)}-${hex(12)}`;
}

function amount(r: Random): string {
  const minor = Math.floor(10 ** (r.next() * 11)); // log-uniform, 1 to 99,999,999,999 minor units
  const major = Math.floor(minor / 100);
  const cents = pad(minor % 100, 2);
  const thousands = (sep: string) => String(major).replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  return r.pick([
    String(minor),
    `${thousands(',')}.${cents}`,
    `NGN ${thousands(',')}.${cents}`,
    `₦${thousands(',')}.${cents}`,
    `KES ${thousands(' ')},${cents}`,
    `${thousands('.')},${cents} ZAR`,
    `GH₵ ${thousands(',')}.${cents}`,
  ]);
}

/**
 * Order ids of the shapes merchants use, none of which a card brand issues: a date and a
 * sequence, an invoice number, a short counter, a zero-padded counter, a millisecond
 * timestamp, and 12–16-digit numbers starting with a digit no brand uses at that length
 * (0, 7 or 9; Troy's 9792 excluded).
 */
function orderId(r: Random): string {
  const date = new Date(r.int(FROM_2015, TO_2035)).toISOString().slice(0, 10).replace(/-/g, '');
  return r.pick([
    () => `ORD-${date}-${r.digits(6)}`,
    () => `INV/${date.slice(0, 4)}/${r.digits(6)}`,
    () => `#${r.int(1000, 9_999_999)}`,
    () => pad(r.int(1, 99_999_999), 9),
    () => `order_${r.int(FROM_2015, TO_2035)}`,
    () => {
      let id: string;
      do id = r.pick(['0', '7', '9']) + r.digits(r.int(11, 15));
      while (id.startsWith('9792'));
      return id;
    },
  ])();
}

/** The corpus categories: name → one generated value. */
export const CORPUS_CATEGORIES: Readonly<Record<string, (r: Random) => string>> = {
  'timestamp (ms)': msTimestamp,
  'timestamp (s)': sTimestamp,
  'phone NG': phoneNg,
  'phone GH': phoneGh,
  'phone KE': phoneKe,
  'phone ZA': phoneZa,
  'NUBAN + bank code': nubanWithBankCode,
  'e-mail with digits': digitEmail,
  UUID: uuid,
  amount,
  'order id': orderId,
};

/** `perCategory` values of each corpus category, deterministic for a seed. */
export function legitimateCorpus(seed: number, perCategory: number): Array<{ category: string; value: string }> {
  const r = seeded(seed);
  const out: Array<{ category: string; value: string }> = [];
  for (const [category, make] of Object.entries(CORPUS_CATEGORIES))
    for (let i = 0; i < perCategory; i += 1) out.push({ category, value: make(r) });
  return out;
}

// ---------------------------------------------------------------------------
// Test cards
// ---------------------------------------------------------------------------

/**
 * Test card numbers the processors publish, besides the sandbox's own
 * (shared/connectors/sandbox/transformers.ts) and Paystack's (test/helpers/paystack-stand-in.ts):
 * - Stripe, https://docs.stripe.com/testing (cards by brand, declines, 3DS);
 * - Flutterwave v3, "Testing helpers" (https://developer.flutterwave.com/v3.0/docs/testing):
 *   Mastercard PIN, Visa 3DS, Mastercard 3DS, Visa no-auth (AVS), Verve PIN.
 */
export const PUBLISHED_TEST_CARDS: readonly string[] = [
  // Stripe
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '6011981111111113',
  '3056930009020004',
  '36227206271667',
  '6555900000604105',
  '3566002020360505',
  '6200000000000005',
  '6200000000000047',
  '6205500000000000004',
  '4000000000000002',
  '4000000000009995',
  '4000000000003220',
  '4000002500003155',
  '4000002760003184',
  // Flutterwave
  '5531886652142950',
  '4187427415564246',
  '5438898014560229',
  '4556052704172643',
  '5061460410120223210',
];

// ---------------------------------------------------------------------------
// Spellings
// ---------------------------------------------------------------------------

/** A card number written some way: the text, and the `[start, end)` range of its digits in it. */
export interface Spelling {
  name: string;
  text: string;
  start: number;
  end: number;
}

/** The digits of `pan` in another script, from that script's zero. */
function inScript(pan: string, zero: number): string {
  return [...pan].map((d) => String.fromCodePoint(zero + Number(d))).join('');
}

/** Separators between groups of four: every kind the detector must see through. */
const SEPARATORS: Readonly<Record<string, string>> = {
  space: ' ',
  'double space': '  ',
  tab: '\t',
  newline: '\n',
  CRLF: '\r\n',
  dot: '.',
  slash: '/',
  underscore: '_',
  comma: ',',
  dash: '-',
  'en dash': '\u2013',
  'em dash': '\u2014',
  'spaced dash': ' - ',
  'no-break space': '\u00a0',
  'narrow no-break space': '\u202f',
  'zero-width space': '\u200b',
  'ideographic space': '\u3000',
  'soft hyphen': '\u00ad',
  'minus sign': '\u2212',
};

/**
 * At least 30 spellings of a card number: every separator of {@link SEPARATORS} between
 * groups of four, mixed separators, irregular groups, one digit per group, Amex-style groups,
 * after a short number, between letters, full-width, Arabic-Indic,
 * Devanagari and mathematical digits, superscripts, and the number inside a sentence, a JSON
 * string, among an expiry and a CVC, and in an e-mail address.
 */
export function spellingsOf(pan: string): Spelling[] {
  const out: Spelling[] = [];
  const add = (name: string, before: string, body: string, after = '') =>
    out.push({ name, text: before + body + after, start: before.length, end: before.length + body.length });
  for (const [name, sep] of Object.entries(SEPARATORS)) add(`groups of 4, ${name}`, '', grouped(pan, [4], sep));
  add('no separator', '', pan);
  const mixed = ['-', ' ', '.', '\u00a0', '/', '_', '\u2013', '\t'];
  add('mixed separators', '', [...pan].map((d, i) => (i > 0 && i % 4 === 0 ? (mixed[(i / 4) % mixed.length] as string) : '') + d).join(''));
  add('irregular groups', '', grouped(pan, [3, 5, 2, 6, 1], ' '));
  add('one digit per group', '', [...pan].join(' '));
  add('groups of 4, dots and spaces', '', grouped(pan, [4], '. '));
  add('Amex-style groups 4-6-5', '', grouped(pan, [4, 6, 5], ' '));
  add('after a short number', 'ref 12 ', pan);
  add('letters right before and after', 'x', pan, 'y');
  add('full-width digits', '', inScript(pan, 0xff10));
  add('full-width digits and spaces', '', grouped(inScript(pan, 0xff10), [4], '\u3000'));
  add('Arabic-Indic digits', '', inScript(pan, 0x0660));
  add('extended Arabic-Indic digits', '', grouped(inScript(pan, 0x06f0), [4], ' '));
  add('Devanagari digits', '', inScript(pan, 0x0966));
  add('mathematical bold digits', '', inScript(pan, 0x1d7ce));
  add('superscript digits', '', [...pan].map((d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(d)]).join(''));
  add('in a sentence', 'my card is ', grouped(pan, [4], ' '), ', thanks');
  add('in a JSON string', '{"note":"', pan, '"}');
  add('with expiry and CVC', 'card ', grouped(pan, [4], ' '), ' 12/29 123');
  add('after an index', '1. ', pan);
  add('in parentheses', '(', pan, ')');
  add('e-mail local part', 'x.', pan, '@example.com');
  return out;
}
