/**
 * The Paystack adapter's name, apart from `supported-methods.ts` so that only the adapter's own files load it: the
 * capability table imports `supported-methods.ts` into every connector-account handler, which never needs the name.
 */
/** The connector name used in results, errors, routing rules and `POST /webhooks/paystack`. */
export const PAYSTACK_CONNECTOR_NAME = 'paystack';
