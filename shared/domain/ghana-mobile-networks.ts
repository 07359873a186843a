/**
 * Ghana's mobile-money networks and the numbering plan that names them: the first two digits of
 * the national number (after +233 / the leading 0) identify the operator (National Communications
 * Authority numbering plan). MTN 24/25/53/54/55/59; Telecel, formerly Vodafone, 20/50; AT, formerly
 * AirtelTigo, 26/27/56/57. Our API carries a phone, not a network, so every adapter (and the
 * sandbox) reads the network from here and maps it to its processor's own code. A number ported to
 * another network is charged on its original one and fails there.
 */

/** The Ghanaian mobile-money networks. */
export type GhanaMobileNetwork = 'mtn' | 'telecel' | 'at';

/** Two-digit national prefix → network. */
export const GHANA_NETWORK_PREFIXES: Readonly<Record<string, GhanaMobileNetwork>> = {
  '24': 'mtn',
  '25': 'mtn',
  '53': 'mtn',
  '54': 'mtn',
  '55': 'mtn',
  '59': 'mtn',
  '20': 'telecel',
  '50': 'telecel',
  '26': 'at',
  '27': 'at',
  '56': 'at',
  '57': 'at',
};

/**
 * The network of a Ghanaian mobile number.
 * @param phone E.164, e.g. `+233201234567`
 * @returns the network, or undefined when the number is not `+233` and 9 digits or its prefix is no mobile-money network
 */
export function ghanaMobileNetwork(phone: string | null | undefined): GhanaMobileNetwork | undefined {
  const match = typeof phone === 'string' ? /^\+233(\d{9})$/.exec(phone) : null;
  return match ? GHANA_NETWORK_PREFIXES[match[1]!.slice(0, 2)] : undefined;
}
