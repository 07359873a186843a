/**
 * The API's version, dated as Stripe dates its versions (`Stripe-Version: 2026-10-28.endive`).
 *
 * Before 1.0 there is one version at a time. A client may send `Switchyard-Version: <this date>`
 * to pin its expectations; every API response carries the version that produced it in the same
 * header. A breaking change ships under a new date, announced in docs/api.md ("Versioning"),
 * and the previous date keeps being served for at least 12 months after 1.0.
 */
export const API_VERSION = '2026-11-24';

/** The request and response header that names the API version (case-insensitive, RFC 9110 §5.1). */
export const API_VERSION_HEADER = 'Switchyard-Version';
