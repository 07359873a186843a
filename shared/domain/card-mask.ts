import { findCardNumbers } from './card';
import { ID_PREFIXES } from './ids';

/**
 * Masking of card numbers in text and in JSON-like values, for everything that is stored or
 * answered and could carry caller input or a processor's words: error messages, processor
 * `error_message`s written to payments and refunds, responses stored for Idempotency-Key
 * replay. The detector is {@link findCardNumbers}; this module only decides what replaces a
 * span it finds.
 */

/** What replaces a masked card number. */
export const CARD_MASK = '[REDACTED]';

/**
 * The prefixes of the tokens this service generates besides its ids ({@link ID_PREFIXES}): card fingerprints
 * `fp_`, the sandbox's transactions `sbx_`, transfers `sbx_tr_` and disputes `sbdp_`, Flutterwave event keys
 * `flw_`; each followed by 32 lower-case hex characters.
 */
const OTHER_TOKEN_PREFIXES = ['fp', 'sbx', 'sbx_tr', 'sbdp', 'flw'];

/**
 * Tokens this service generates itself, wherever they stand in a text (a URL such as a connector account's
 * `webhook_url` ending in its `mca_` id, a payment link's `url`, a message naming a `sub_` or `po_` id):
 * every id prefix of shared/domain/ids.ts and {@link OTHER_TOKEN_PREFIXES}, then 32 lowercase hex
 * characters; webhook signing secrets `whsec_` + base64 of 32 bytes. Their random hex or base64 can hold a
 * digit run that looks like a card number (about 1 in 10,000); masking it would corrupt an id, a URL or a
 * secret in a response. Caller input of that shape cannot hold a card number that is stored or answered:
 * every free-text field a caller sends is refused when it holds one, and an id of that shape that does
 * not exist is answered as unknown (shared/schemas/card-number-refinement.ts `noCardNumberInId`).
 */
const OWN_TOKEN = new RegExp(
  `\\b(?:${[...Object.values(ID_PREFIXES), ...OTHER_TOKEN_PREFIXES].join('|')})_[0-9a-f]{32}\\b|\\bwhsec_[A-Za-z0-9+/]{43}=`,
  'g',
);

/** The `[start, end)` spans of `text` to mask: the detector's findings outside our own tokens, merged. */
function spansToMask(text: string): Array<[number, number]> {
  const found = findCardNumbers(text);
  if (found.length === 0) return [];
  const own = [...text.matchAll(OWN_TOKEN)].map((m) => [m.index, m.index + m[0].length] as const);
  const spans = found
    .map(([start, end]) => [Math.max(0, start), Math.min(text.length, end)] as [number, number])
    .filter(([start, end]) => end > start && !own.some(([a, b]) => start >= a && end <= b))
    .sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/**
 * Replaces every card number in `text` (as {@link findCardNumbers} finds them, whatever their
 * separators) with {@link CARD_MASK}; the rest of the text is kept.
 * @returns the text unchanged when it holds no card number
 */
export function maskCardNumbers(text: string): string {
  const spans = spansToMask(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + CARD_MASK;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * {@link maskCardNumbers} for an optional text (a processor's `errorMessage`/`errorCode`):
 * null and undefined become null.
 */
export function maskOptionalText(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : maskCardNumbers(text);
}

/**
 * A deep copy of a JSON-like value with card numbers masked in every string, every object key,
 * and every integer whose digits form one (replaced by the string {@link CARD_MASK}). Values
 * are masked one by one, so digits of neighbouring fields never join into a false match.
 * Objects are rebuilt as own data properties (a `__proto__` key stays a plain key).
 */
export function maskCardData<T>(value: T): T {
  return maskDeep(value, 0) as T;
}

/** Nesting deeper than this is not walked further but replaced (a JSON body cannot be that deep in practice). */
const MAX_DEPTH = 64;

/**
 * The identifiers this service generates: a lower-case prefix, `_`, 32 lower-case hex characters (`newId`,
 * `idempotentId`, and the ids derived from them: `pm_`, `in_`, `sub_`, the sandbox's `sbx_` transactions).
 * Random hex holds a run of decimal digits the detector takes for a card number now and then (about 1 id
 * in 10,000: docs/security.md): such an id is not a card number, and masking it would corrupt the answer that names it.
 */
const GENERATED_ID = /^[a-z]{2,8}_[0-9a-f]{32}$/;

function maskDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return GENERATED_ID.test(value) ? value : maskCardNumbers(value);
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) >= 1e11 && spansToMask(String(Math.abs(value))).length > 0 ? CARD_MASK : value;
  if (typeof value === 'bigint') return spansToMask(value.toString()).length > 0 ? CARD_MASK : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return CARD_MASK;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskCardNumbers(k), maskDeep(v, depth + 1)]));
}
