/**
 * The Flutterwave adapter's name, apart from `supported-methods.ts` so that only the adapter's own files load it: the
 * capability table imports `supported-methods.ts` into every connector-account handler, which never needs the name.
 */
/** Connector name: routing rules, a payment's `connector` field and `POST /webhooks/flutterwave`. */
export const FLUTTERWAVE_CONNECTOR_NAME = 'flutterwave';
