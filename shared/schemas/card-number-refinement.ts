/**
 * The refinement every stored, logged or echoed free-text field applies (no card number in it) and its
 * message, without zod: the e-mail and phone schemas (./contact-schemas.ts) use them without building the
 * scalar schemas of ./scalar-schemas.ts at import (issue 27).
 */
import { containsCardNumber } from '../domain/card';

/**
 * The message of every field that refuses a card number (shared/domain/card.ts,
 * `containsCardNumber`: any spelling, any separators, Unicode digits). It names what is wrong,
 * never the value; the field is named by `param` (shared/http/zod-errors.ts).
 */
export const NO_CARD_NUMBERS = 'must not contain a card number: card data is only accepted in payment_method_data.card';

/** Refinement shared by every field that is stored, logged or echoed: no card number in it. */
export const noCardNumber = (s: string) => !containsCardNumber(s);
