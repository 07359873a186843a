/**
 * Text a JSON parser anywhere can read: no NUL (U+0000) and no UTF-16 surrogate that is not half of a
 * pair. With the `u` flag a lone surrogate is one code point in D800–DFFF (a pair is one code point
 * above FFFF), so the class refuses exactly those; the same pattern is written into the OpenAPI
 * document (ajv and other JSON Schema validators read patterns with `u`). Such strings would be stored
 * and sent out in events and webhooks, where strict parsers reject them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character refused.
export const WELL_FORMED_TEXT = /^[^\u0000\uD800-\uDFFF]*$/u;

/** The message of a string holding NUL or a lone surrogate: what to fix, never the value. */
export const WELL_FORMED_TEXT_MESSAGE =
  'must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates (U+D800 to U+DFFF not in a pair): send valid Unicode text';

/** Whether a string holds NUL or a lone UTF-16 surrogate ({@link WELL_FORMED_TEXT}). */
export const isWellFormedText = (s: string): boolean => WELL_FORMED_TEXT.test(s);
