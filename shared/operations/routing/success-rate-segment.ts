/**
 * The segment a payment falls in for success-rate routing: the values of the algorithm's `dimensions`
 * (docs/routing.md "The algorithm"). An account is scored per segment, so an account that starts declining Verve
 * cards in NGN loses those payments without losing Visa ones.
 *
 * The key is stored (counter items, the attempt that the outcome is counted for) and shown
 * (`GET /routing/success_rates`), so it holds no card data but a BIN: `card_bin` is the card's first 6
 * digits, never more (a BIN identifies the issuer, not the card; PCI DSS allows the first six and last four
 * digits to be shown, PCI DSS v4.0 requirement 3.4.1). Every value is checked against its vocabulary's
 * shape before it is put in the key: a value of another shape becomes `-` (unknown), never copied.
 */
import { SUCCESS_RATE_DIMENSIONS, type SuccessRateDimension } from '../../domain/routing-algorithm';

/** What a segment is read from: the routing facts of a payment (shared/domain/connector-account.ts `RoutingFacts`). */
export interface SegmentFacts {
  currency?: string | null | undefined;
  payment_method?: string | null | undefined;
  card_network?: string | null | undefined;
  billing_country?: string | null | undefined;
  card_bin?: string | null | undefined;
}

/** The value a dimension has in a segment when the payment does not have the fact (no card network yet, no country). */
export const UNKNOWN_SEGMENT_VALUE = '-';

/** The shape each dimension's value must have to be kept in a key (else it is {@link UNKNOWN_SEGMENT_VALUE}). */
const VALUE_SHAPES: Readonly<Record<SuccessRateDimension, RegExp>> = {
  payment_method: /^[a-z_]{1,32}$/,
  card_network: /^[a-z_]{1,32}$/,
  currency: /^[A-Z]{3}$/,
  billing_country: /^[A-Z]{2}$/,
  card_bin: /^[0-9]{6}$/,
};

/**
 * The BIN of a card number: its first 6 digits (spaces and dashes ignored), or null when it holds fewer
 * than 12 digits (not a card number). Never returns more than 6 digits.
 * @param cardNumber a PAN, in memory only; it is not kept
 */
export function cardBinOf(cardNumber: string | null | undefined): string | null {
  if (!cardNumber) return null;
  const digits = cardNumber.replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(digits)) return null;
  return digits.slice(0, 6);
}

/**
 * A payment's segment key for the given dimensions: `name=value` pairs joined by `|`, in the order of
 * {@link SUCCESS_RATE_DIMENSIONS} whatever the order written (so one set of dimensions gives one key), e.g.
 * `payment_method=card|card_network=visa|currency=NGN`. A missing or ill-shaped value is `-`.
 * @param dimensions the algorithm's dimensions (at least one)
 */
export function segmentKey(dimensions: readonly SuccessRateDimension[], facts: SegmentFacts): string {
  return SUCCESS_RATE_DIMENSIONS.filter((d) => dimensions.includes(d))
    .map((d) => {
      const raw = facts[d];
      const value = typeof raw === 'string' && VALUE_SHAPES[d].test(raw) ? raw : UNKNOWN_SEGMENT_VALUE;
      return `${d}=${value}`;
    })
    .join('|');
}

/**
 * A segment key read back as `{dimension: value}` (for `GET /routing/success_rates`). Pairs of another
 * shape are left out.
 */
export function segmentOfKey(key: string): Partial<Record<SuccessRateDimension, string>> {
  const out: Partial<Record<SuccessRateDimension, string>> = {};
  for (const pair of key.split('|')) {
    const [name, value] = pair.split('=');
    if (name && value !== undefined && (SUCCESS_RATE_DIMENSIONS as readonly string[]).includes(name)) {
      out[name as SuccessRateDimension] = value;
    }
  }
  return out;
}
