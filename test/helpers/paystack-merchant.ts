import type { LocalApi } from './local-api';
import type { PaystackStandIn } from './paystack-stand-in';

/** A new merchant of the local API, its key there, and its one connector account's id and key at the Paystack stand-in. */
export interface PaystackMerchant {
  key: string;
  secret: string;
  accountId: string;
}

/**
 * A new merchant whose one connector account is a fresh account of the Paystack stand-in (its own ledger and circuit).
 * @throws when the connector account is not created (an `expect` on its 200)
 */
export async function paystackMerchant(api: LocalApi, paystack: PaystackStandIn): Promise<PaystackMerchant> {
  const key = await api.newMerchantKey();
  const secret = paystack.addAccount().secretKey;
  const res = await api.request('POST', '/connector_accounts', {
    key,
    body: { connector_name: 'paystack', connector_account_details: { api_key: secret } },
  });
  expect(res.status).toBe(200);
  return { key, secret, accountId: res.body.merchant_connector_id as string };
}
