/**
 * Free-text fields (descriptions, reasons, labels, names), apart from the other scalars of ./scalar-schemas.ts,
 * so a body holding only text builds no amount, currency or metadata schema at import (cold start).
 */
import * as z from 'zod';
import { WELL_FORMED_TEXT, WELL_FORMED_TEXT_MESSAGE } from '../domain/well-formed-text';
import { NO_CARD_NUMBERS, noCardNumber } from './card-number-refinement';

/** A string refusing NUL and lone surrogates ({@link WELL_FORMED_TEXT}): the base of every free-text field. */
export const wellFormedString = () => z.string().regex(WELL_FORMED_TEXT, { error: WELL_FORMED_TEXT_MESSAGE });

/** Free text of at most `max` characters, well formed ({@link WELL_FORMED_TEXT}), which must not carry a card number (it would be stored). */
export const text = (max: number) =>
  wellFormedString()
    .max(max, { error: `must be at most ${max} characters` })
    .refine(noCardNumber, { error: NO_CARD_NUMBERS });
