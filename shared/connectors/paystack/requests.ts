/**
 * Switchyard's requests → Paystack's request bodies and paths: POST /charge (card, Pay with Transfer and Pesalink,
 * USSD, mobile money), POST /transaction/initialize (hosted card checkout), the submit steps
 * (POST /charge/submit_pin|otp|phone|birthday|address), POST /refund, POST /transaction/charge_authorization
 * and POST /customer/authorization/deactivate (saved cards), and the credential check's GET /balance.
 * PINs, OTPs, card data and authorization codes only live in the returned bodies, serialized once by the caller.
 *
 * Sources:
 * - Charge API: https://paystack.com/docs/api/charge/ and https://paystack.com/docs/payments/payment-channels/
 *   (cards, Pay with Transfer, USSD, mobile money, Pesalink); the `card` object's shape from [DCS]
 *   doc/payments/charge/request/index.json, a sample Paystack removed in commit 2c8a413d59a2 on 2023-05-23, read at
 *   its parent (see {@link buildCardCharge})
 * - Authentication steps: [OAS] PaystackOSS/openapi paths/charge_submit_{pin,otp,phone,birthday,address}.yaml and
 *   components/schemas/ChargeSubmit*.yaml
 * - Transaction initialize: https://paystack.com/docs/api/transaction/; refunds: https://paystack.com/docs/api/refund/
 * - Saved cards: https://paystack.com/docs/payments/recurring-charges/, https://paystack.com/docs/api/errors/; [OAS]
 *   paths/transaction_charge_authorization.yaml, paths/customer_authorization_deactivate.yaml,
 *   components/schemas/{TransactionChargeAuthorization,CustomerDeactivateAuthorization}.yaml; [DCS]
 *   src/doc/payments/recurring-charges/{callback,sample-metadata}/index.json
 * - Credential check: https://paystack.com/docs/api/transfer-control/ (Check Balance); [OAS] paths/balance.yaml
 * [OAS]: PaystackOSS/openapi at commit 9678dea922a900b2485969592055ccf634460352; [DCS]: PaystackOSS/doc-code-snippets.
 */
import type { CardDetails } from '../../domain/card';
import type { Currency } from '../../domain/money';
import type { AuthenticationStep } from '../../domain/payment';
import { type AuthenticateRequest, type AuthorizeRequest, ConnectorRequestError, type SavedMethodCharge } from '../connector';
import { PAYSTACK_CONNECTOR_NAME } from './connector-name';
import { mobileMoneyTarget } from './mobile-money';
import { toPaystackAmount } from './money';
import { paystackReference, refundMerchantNote } from './references';
import { isKey } from './statuses';
import { PAYSTACK_USSD_BANKS, type PaystackUssdType } from './supported-methods';
import type {
  PaystackChargeAuthorizationMetadata,
  PaystackChargeAuthorizationRequest,
  PaystackChargeBase,
  PaystackChargeRequest,
  PaystackDeactivateAuthorizationRequest,
  PaystackInitializeRequest,
  PaystackRefundRequest,
  PaystackSubmitRequest,
} from './wire-types';

/**
 * Authentication step → the Paystack endpoint that takes its answer ([OAS] paths/charge_submit_*.yaml,
 * mounted at these paths by src/assets/openapi/openapi.yaml).
 */
export const PAYSTACK_SUBMIT_PATHS: Readonly<Record<AuthenticationStep, string>> = {
  submit_pin: '/charge/submit_pin',
  submit_otp: '/charge/submit_otp',
  submit_phone: '/charge/submit_phone',
  submit_birthday: '/charge/submit_birthday',
  submit_address: '/charge/submit_address',
};

/**
 * The read of the credential check: Fetch Balance, `GET /balance` ("Check Balance" of the Transfers Control API,
 * https://paystack.com/docs/api/transfer-control/; PaystackOSS/openapi commit 9678dea922a9
 * `src/assets/openapi/openapi.yaml` mounts `/balance` on `paths/balance.yaml`: "Fetch the available balance on your
 * integration", `200` `BalanceCheckResponse`, `401` `Unauthorized`). No parameters, changes nothing.
 */
export const PAYSTACK_BALANCE_PATH = '/balance';

/** What every request builder needs besides the method-specific part. */
function chargeBase(request: AuthorizeRequest, email: string): PaystackChargeBase {
  return {
    email,
    amount: toPaystackAmount(request.amount),
    currency: request.currency,
    reference: paystackReference(request.paymentId),
  };
}

/**
 * POST /charge with a `card` object (`PaystackCard` (./wire-types.ts): number, cvv, expiry_month, expiry_year as
 * strings, the year in two digits as in Paystack's sample `"99"`). A documented exception to Paystack's
 * current schema, for integrations Paystack approved for card data (PCI-DSS); an integration that is
 * not approved gets a 4xx → ConnectorRequestError. The PAN and CVC only live in the returned object,
 * which the caller serializes once and drops; never log it.
 */
export function buildCardCharge(request: AuthorizeRequest, email: string, card: CardDetails): PaystackChargeRequest {
  const year = card.card_exp_year.length === 4 ? card.card_exp_year.slice(2) : card.card_exp_year.padStart(2, '0');
  return {
    ...chargeBase(request, email),
    card: {
      number: card.card_number,
      cvv: card.card_cvc,
      expiry_month: card.card_exp_month.padStart(2, '0'),
      expiry_year: year,
    },
  };
}

/**
 * POST /transaction/initialize for a card payment without card details: Paystack's hosted
 * checkout limited to cards, returning the payer to `returnUrl` (Initialize Transaction:
 * email, amount, currency, reference, callback_url, channels).
 */
export function buildCardCheckout(request: AuthorizeRequest, email: string): PaystackInitializeRequest {
  return { ...chargeBase(request, email), callback_url: request.returnUrl, channels: ['card'] };
}

/** Bounds of `bank_transfer.account_expires_at`, in minutes from now, per currency. */
export const BANK_TRANSFER_EXPIRY_BOUNDS: Readonly<Partial<Record<Currency, { min: number; max: number }>>> = {
  /** Pay with Transfer: "Minimum is 15 minutes from now; maximum is 8 hours." */
  NGN: { min: 15, max: 8 * 60 },
  /** Pesalink: "less than 25 minutes from now", the account "is valid for 25 minutes". */
  KES: { min: 1, max: 24 },
};

/**
 * POST /charge with `bank_transfer.account_expires_at` (Pay with Transfer, NGN; Pesalink, KES).
 * @param expiryMinutes wanted validity, clamped to {@link BANK_TRANSFER_EXPIRY_BOUNDS}
 * @param now the current instant (injected for tests)
 */
export function buildBankTransferCharge(request: AuthorizeRequest, email: string, expiryMinutes: number, now: Date): PaystackChargeRequest {
  const bounds = BANK_TRANSFER_EXPIRY_BOUNDS[request.currency] ?? { min: 15, max: 8 * 60 };
  const minutes = Math.min(bounds.max, Math.max(bounds.min, Math.floor(expiryMinutes)));
  const expiresAt = new Date(now.getTime() + minutes * 60_000).toISOString();
  return { ...chargeBase(request, email), bank_transfer: { account_expires_at: expiresAt } };
}

/**
 * POST /charge with `ussd.type` = the payer's bank's code in {@link PAYSTACK_USSD_BANKS} ([OAS]
 * components/schemas/USSD.yaml enum 737/919/822/966).
 * @throws ConnectorRequestError `ussd_bank_required` without `request.ussdBankCode`, `ussd_bank_not_supported`
 *   for a bank Paystack does not serve (the message names the allowed CBN codes) — nothing is sent then
 */
export function buildUssdCharge(request: AuthorizeRequest, email: string): PaystackChargeRequest {
  return { ...chargeBase(request, email), ussd: { type: paystackUssdType(request.ussdBankCode) } };
}

/**
 * The Paystack USSD `type` of a payer's bank.
 * @param ussdBankCode CBN bank code (e.g. `058`)
 * @throws ConnectorRequestError `ussd_bank_required` / `ussd_bank_not_supported` (see {@link buildUssdCharge})
 */
export function paystackUssdType(ussdBankCode: string | undefined): PaystackUssdType {
  const allowed = Object.keys(PAYSTACK_USSD_BANKS).sort().join(', ');
  if (!ussdBankCode)
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'ussd_bank_required',
      `A USSD payment through Paystack needs the payer's bank (one of ${allowed}).`,
    );
  if (!Object.hasOwn(PAYSTACK_USSD_BANKS, ussdBankCode)) {
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'ussd_bank_not_supported',
      `Paystack offers USSD only for the banks ${allowed}.`,
    );
  }
  return PAYSTACK_USSD_BANKS[ussdBankCode] as PaystackUssdType;
}

/**
 * POST /charge with a `mobile_money` object (`phone`, `provider`; Payment Channels → Mobile Money,
 * https://paystack.com/docs/payments/payment-channels/#mobile-money).
 */
export function buildMobileMoneyCharge(request: AuthorizeRequest, email: string): PaystackChargeRequest {
  return { ...chargeBase(request, email), mobile_money: mobileMoneyTarget(request.currency, request.phone) };
}

/**
 * POST /refund body (https://paystack.com/docs/api/refund/#create: `transaction` "Transaction
 * reference or ID", optional integer `amount` in subunits, `currency`, `merchant_note`): the
 * transaction by its reference, the amount in subunits (integer), the
 * currency, and our refund id in `merchant_note` (Paystack takes no refund reference of ours; the
 * note shows on the Paystack dashboard for reconciliation).
 */
export function buildRefund(connectorTransactionId: string, amount: number, currency: Currency, refundId: string): PaystackRefundRequest {
  return { transaction: connectorTransactionId, amount: toPaystackAmount(amount), currency, merchant_note: refundMerchantNote(refundId) };
}

/**
 * The Paystack call that answers an authentication step: the path of {@link PAYSTACK_SUBMIT_PATHS} and
 * its body ([OAS] ChargeSubmit*.yaml) with the charge `reference` (the one recorded from the charge's
 * answer, else ours from {@link paystackReference}):
 * - `submit_pin` `{pin, reference}`; `submit_otp` `{otp, reference}` (also a Telecel voucher);
 * - `submit_phone` `{phone, reference}` (as typed: Paystack validates it);
 * - `submit_birthday` `{birthday, reference}` (YYYY-MM-DD);
 * - `submit_address` `{address, city, state, zip_code, reference}` from `line1`, `city`, `state`, `zip`
 *   (Paystack takes no country).
 * The PIN and OTP only live in the returned body, serialized once by the caller; never log it.
 * @throws ConnectorRequestError `authentication_value_required` when the step's value is missing or
 *   blank, `invalid_birthday` when it is not YYYY-MM-DD, `authentication_step_not_supported` for a
 *   step Paystack has no endpoint for — nothing is sent then; the messages never contain the value
 */
export function buildSubmitRequest(request: AuthenticateRequest): { path: string; body: PaystackSubmitRequest } {
  const reference = request.connectorTransactionId || paystackReference(request.paymentId);
  const path = isKey(PAYSTACK_SUBMIT_PATHS, request.step) ? PAYSTACK_SUBMIT_PATHS[request.step] : undefined;
  if (!path)
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'authentication_step_not_supported',
      `Paystack has no endpoint for the step ${String(request.step)}.`,
    );
  const required = (value: string | undefined, field: string): string => {
    if (typeof value !== 'string' || value.trim() === '') {
      throw new ConnectorRequestError(PAYSTACK_CONNECTOR_NAME, 'authentication_value_required', `The ${request.step} step needs ${field}.`);
    }
    return value;
  };
  switch (request.step) {
    case 'submit_pin':
      return { path, body: { pin: required(request.pin, 'the pin'), reference } };
    case 'submit_otp':
      return { path, body: { otp: required(request.otp, 'the otp'), reference } };
    case 'submit_phone':
      return { path, body: { phone: required(request.phone, 'the phone'), reference } };
    case 'submit_birthday': {
      const birthday = required(request.birthday, 'the birthday');
      if (!/^\d{4}-\d{2}-\d{2}$/.test(birthday))
        throw new ConnectorRequestError(PAYSTACK_CONNECTOR_NAME, 'invalid_birthday', 'The birthday must be YYYY-MM-DD.');
      return { path, body: { birthday, reference } };
    }
    case 'submit_address': {
      const a = request.address;
      return {
        path,
        body: {
          address: required(a?.line1, 'address.line1'),
          city: required(a?.city, 'address.city'),
          state: required(a?.state, 'address.state'),
          zip_code: required(a?.zip, 'address.zip'),
          reference,
        },
      };
    }
  }
}

/**
 * Charge Authorization: charges an `authorization_code` Paystack returned as `reusable` with an earlier
 * successful payment ([OAS] paths/transaction_charge_authorization.yaml, mounted at this path by
 * src/assets/openapi/openapi.yaml; https://paystack.com/docs/api/transaction/#charge-authorization and
 * https://paystack.com/docs/payments/recurring-charges/).
 */
export const PAYSTACK_CHARGE_AUTHORIZATION_PATH = '/transaction/charge_authorization';

/**
 * Deactivate Authorization: makes an `authorization_code` unusable ([OAS]
 * paths/customer_authorization_deactivate.yaml, mounted at `/customer/authorization/deactivate` by
 * src/assets/openapi/openapi.yaml since PaystackOSS/openapi commit ef89553d5bdaf3c87f9ec16777fbd1ba78e5a203
 * (2025-08-26), which moved it from `/customer/deactivate_authorization`; [DCS]
 * src/api/customers/deactivate-authorization/index.sh calls the same URL since commit
 * c04ba177108465c1510514f6e4e700239e30a6e8, 2024-01-22; https://paystack.com/docs/api/customer/#deactivate-authorization).
 */
export const PAYSTACK_DEACTIVATE_AUTHORIZATION_PATH = '/customer/authorization/deactivate';

/**
 * A saved method's Paystack `authorization_code`, checked before it is sent: a non-empty string of at
 * most 100 characters without whitespace (Paystack's codes are `AUTH_` and alphanumerics, e.g.
 * `AUTH_uh8bcl3zbn`, [DCS] src/api/transactions/charge_authorization/response.json). The message of the
 * error never contains the value.
 * @throws ConnectorRequestError `saved_method_invalid` when the token is not such a string (nothing is sent)
 */
export function paystackAuthorizationCode(savedMethod: SavedMethodCharge): string {
  const token = savedMethod.token;
  if (typeof token !== 'string' || !/^\S{1,100}$/.test(token)) {
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'saved_method_invalid',
      'The saved payment method has no usable Paystack authorization code.',
    );
  }
  return token;
}

/**
 * POST /transaction/charge_authorization body ({@link PaystackChargeAuthorizationRequest}) for a saved
 * method: `email` (the one the authorization belongs to: "You can only charge an authorization for the
 * customer who saved it", https://paystack.com/docs/api/errors/), `amount` in subunits (integer,
 * {@link toPaystackAmount}), `authorization_code`, `reference` = {@link paystackReference} of our
 * payment id (the same scheme as every other charge, so sync and the reconciler find a charge whose
 * answer was lost), `currency`, `metadata` (stringified, as the schema types it: our payment id and
 * `cancel_action`) and `callback_url` (our processor return route, where a payer Paystack challenges
 * comes back). Paystack has no "merchant-initiated" flag: an off-session charge is the same call. The
 * optional `queue` ("If you are making a scheduled charge call, it is a good idea to queue them") is not
 * sent: a queued charge answers without an outcome, and the caller spreads its renewals itself.
 * The token only lives in the returned body, serialized once by the caller; never log it.
 * @param email the e-mail the authorization was issued to (the saved method's, else the payment's)
 * @throws ConnectorRequestError `saved_method_invalid` ({@link paystackAuthorizationCode})
 * @throws RangeError when the amount is not a non-negative safe integer
 */
export function buildChargeAuthorization(
  request: AuthorizeRequest,
  savedMethod: SavedMethodCharge,
  email: string,
): PaystackChargeAuthorizationRequest {
  const metadata: PaystackChargeAuthorizationMetadata = { switchyard_payment_id: request.paymentId, cancel_action: request.returnUrl };
  return {
    email,
    amount: toPaystackAmount(request.amount),
    authorization_code: paystackAuthorizationCode(savedMethod),
    reference: paystackReference(request.paymentId),
    currency: request.currency,
    metadata: JSON.stringify(metadata),
    callback_url: request.returnUrl,
  };
}

/**
 * POST /customer/authorization/deactivate body: `{authorization_code}` ([OAS] CustomerDeactivateAuthorization.yaml).
 * @throws ConnectorRequestError `saved_method_invalid` ({@link paystackAuthorizationCode})
 */
export function buildDeactivateAuthorization(savedMethod: SavedMethodCharge): PaystackDeactivateAuthorizationRequest {
  return { authorization_code: paystackAuthorizationCode(savedMethod) };
}
