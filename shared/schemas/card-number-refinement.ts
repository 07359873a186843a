/**
 * The refinements every stored, logged or echoed free-text field and every id given in a request apply (no
 * card number in it) and their message, without zod: the e-mail and phone schemas (./contact-schemas.ts) use
 * them without building the scalar schemas of ./scalar-schemas.ts at import.
 */
import { containsCardNumber } from '../domain/card';

/**
 * The message of every field that refuses a card number (shared/domain/card.ts,
 * `containsCardNumber`: any spelling, any separators, Unicode digits). It names what is wrong,
 * never the value; the field is named by `param` (shared/schemas/zod-errors.ts).
 */
export const NO_CARD_NUMBERS = 'must not contain a card number: card data is only accepted in payment_method_data.card';

/** Refinement shared by every field that is stored, logged or echoed: no card number in it. */
export const noCardNumber = (s: string) => !containsCardNumber(s);

/** The ids this service hands out (shared/domain/ids.ts): a lower-case prefix, `_`, 32 lower-case hex digits. */
export const OWN_ID_SHAPE = /^[a-z]{2,8}_[0-9a-f]{32}$/;

/**
 * Refinement of an id given in a body or a query (`customer_id`, `starting_after`, `payment_method_id`, …):
 * no card number in it, except in an id of exactly our own shape ({@link OWN_ID_SHAPE}). Random hex holds a
 * digit run that reads as a card number about once in 10,000 (test/unit/card-detector.test.ts), which would
 * refuse real ids; such an id that does not exist is answered as unknown, and neither stored nor repeated.
 */
export const noCardNumberInId = (s: string) => OWN_ID_SHAPE.test(s) || !containsCardNumber(s);
