/** The development merchant the local stack seeds, and its documented default API key. */
export const DEV_MERCHANT_ID = 'mer_dev';

/** Default local API key when `API_KEY` is not set. Local only: never valid on a deployed stage. */
export const DEFAULT_DEV_API_KEY = 'sk_test_switchyard_local_dev_key';
