/**
 * `POST /payouts/resolve_account`: the name of a bank account's holder, from a processor. Changes nothing.
 */
import { ConnectorRequestError, ConnectorTechnicalError } from '../../connectors/connector';
import { ApiError, invalidRequest } from '../../domain/errors';
import type { Currency } from '../../domain/money';
import { callWithinBudget } from '../../processor-call/connector-call';
import type { RequestContext } from '../request-context';
import { payoutNotSupported, routePayout } from './payout-routing';

/** The payout currency of a bank account's country (the processors resolve accounts of their own countries). */
const COUNTRY_CURRENCY: Readonly<Record<string, Currency>> = { NG: 'NGN', GH: 'GHS', KE: 'KES', ZA: 'ZAR' };

/** What `POST /payouts/resolve_account` answers. */
export interface ResolvedAccountView {
  account_number: string;
  bank_code: string;
  country: string;
  account_name: string;
  connector: string;
  merchant_connector_id: string | null;
}

/**
 * `POST /payouts/resolve_account`: the name of a bank account's holder, from the processor payouts would be sent with
 * (routed as a bank payout in the country's currency, or the pinned account), so the merchant can check it before
 * sending (Paystack `GET /bank/resolve`, Flutterwave `POST /v3/accounts/resolve`). Changes nothing.
 * @throws ApiError 400 `parameter_invalid` (param `country`) for a country without payouts; the routing errors;
 *   400 `account_not_resolved` when the bank knows no such account; 502 `connector_error` when the processor cannot
 *   be asked
 */
export async function resolvePayoutAccount(
  ctx: Pick<RequestContext, 'merchantId' | 'deadlineMs'>,
  body: { country: string; bank_code: string; account_number: string; merchant_connector_id?: string | undefined },
): Promise<ResolvedAccountView> {
  const currency = COUNTRY_CURRENCY[body.country];
  if (!currency) {
    throw invalidRequest('parameter_invalid', `Accounts can be resolved in ${Object.keys(COUNTRY_CURRENCY).join(', ')}.`, 'country');
  }
  const connector = await routePayout(ctx.merchantId, currency, 'bank', body.merchant_connector_id);
  const resolve = connector.payouts.resolveAccount?.bind(connector.payouts);
  if (!resolve) throw payoutNotSupported(connector.name);
  try {
    const resolved = await callWithinBudget(ctx, connector, 'resolve_account', () =>
      resolve({ country: body.country, bankCode: body.bank_code, accountNumber: body.account_number }),
    );
    return {
      account_number: body.account_number,
      bank_code: body.bank_code,
      country: body.country,
      account_name: resolved.accountName,
      connector: connector.name,
      merchant_connector_id: connector.merchantConnectorId,
    };
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      throw invalidRequest(
        'account_not_resolved',
        `${connector.name} could not resolve this account: check account_number and bank_code.`,
        'account_number',
      );
    }
    if (err instanceof ConnectorTechnicalError) {
      throw new ApiError(
        502,
        'connector_error',
        'connector_unreachable',
        `Could not reach ${connector.name} to resolve the account; retry later.`,
      );
    }
    throw err;
  }
}
