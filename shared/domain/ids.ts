import { randomUUID } from 'node:crypto';

/** Prefixes of the opaque identifiers the API hands out. */
export const ID_PREFIXES = {
  payment: 'pay',
  customer: 'cus',
  refund: 'ref',
  merchant: 'mer',
  attempt: 'att',
  event: 'evt',
  webhookEndpoint: 'we',
  connectorAccount: 'mca',
  routingAlgorithm: 'routing',
  paymentMethod: 'pm',
  subscription: 'sub',
  invoice: 'in',
  testClock: 'clock',
  dispute: 'dp',
  file: 'file',
  payout: 'po',
} as const;

/** A resource kind that has an identifier. */
export type IdKind = keyof typeof ID_PREFIXES;

/**
 * A new opaque identifier, `<prefix>_<32 lowercase hex chars>` (122 random bits
 * from a v4 UUID), e.g. `pay_3f2b…`.
 */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomUUID().replace(/-/g, '')}`;
}

/**
 * @returns true when `value` has the shape of an identifier of `kind`; a
 * well-formed id may still not exist. Used to answer 404 without a read for junk ids.
 */
export function isIdOf(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_[A-Za-z0-9]{1,64}$`).test(value);
}
