/**
 * The versions a request announces: the API version the types were generated from
 * (`Switchyard-Version`) and this package's own (`User-Agent`).
 */
import type { ApiVersion } from './types.js';

/**
 * The API version these types were generated from: `info.version` of `docs/openapi.json`
 * (a dated version, as Stripe dates its own). Sent as `Switchyard-Version` on every request. A
 * jest check (`clients/typescript/test/generated.test.ts`) fails when it differs from the spec the
 * committed types were generated from, and `satisfies ApiVersion` (the spec's enum of accepted
 * versions) stops the build when the regenerated types no longer accept it.
 */
export const API_VERSION = '2026-11-24' satisfies ApiVersion;

/** This package's version, sent in `User-Agent` (`switchyard-typescript/<version>`). */
export const SDK_VERSION = '0.1.0';

/** The request (and response) header naming the API version. */
export const API_VERSION_HEADER = 'Switchyard-Version';
