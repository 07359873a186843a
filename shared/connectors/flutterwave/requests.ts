/**
 * Switchyard's requests → Flutterwave's request bodies and paths: `POST /v3/charges?type=…` (card, encrypted;
 * bank transfer; USSD; Ghana mobile money; M-Pesa), the card re-sent with a PIN or an address, `POST
 * /v3/validate-charge`, capture and refund bodies (a preauthorized charge's too), `POST /v3/tokenized-charges`
 * (saved cards) and the credential check's `GET /v3/balances`. Card data only lives inside the encrypted `client`
 * value, built once and sent.
 *
 * Sources (the tags cited on each export):
 * - [DC] Direct charge guides: https://developer.flutterwave.com/docs/direct-charge/overview (card, bank-transfer, ussd, ghana-mobile-money, mpesa pages)
 * - [CARD] Card charge guide: https://developer.flutterwave.com/docs/direct-charge/card/ (current copy:
 *   https://developer.flutterwave.com/docs/collections-inflow/cards): initiate → `meta.authorization.mode`
 *   (`pin`, `avs_noauth`, `redirect`, `otp`) → re-send the same charge with `authorization` → validate with the OTP.
 * - [VAL] Validate a charge, `POST /v3/validate-charge` `{otp, flw_ref, type}`:
 *   https://developer.flutterwave.com/reference/endpoints/validate-charge/ (200 sample "Charge validated"; the 400
 *   example is printed as `{}`: Flutterwave publishes no body for a wrong OTP).
 * - [PRF] Refund a preauthorized charge, `POST /v3/charges/{flw_ref}/refund` `{amount}`:
 *   https://developer.flutterwave.com/v3.0.0/reference/refund-preauth-charge and
 *   https://flutterwaveinc.mintlify.app/api-reference/preauthorization/create-a-refund (answer: the charge, "Charge refunded").
 * - [USSD] USSD guide, "Supported Banks": https://developer.flutterwave.com/docs/collections-inflow/ussd (updated 13 September 2026;
 *   the same 18 banks on https://developer.flutterwave.com/v3.0/docs/ussd and /docs/direct-charge/ussd/).
 * - [ENC] Encryption: https://developer.flutterwave.com/docs/integration-guides/encryption/ (3DES, `{ client }`)
 * - [PRE] Preauthorization: https://developer.flutterwave.com/docs/preauthorization and
 *   https://developer.flutterwave.com/v3.0.0/reference/capture-preauth-charge (…/void-preauth-charge)
 * - [REF] Refunds: https://developer.flutterwave.com/v3.0.0/docs/refunds (status table) and GET /v3/refunds/{id}
 * - [SDK] The official Node SDK flutterwave-node-v3 1.4.1 (repo Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c):
 *   services/charge/encryp.js (3DES-ECB), services/schema/create.js and base.js (the joi request schemas the
 *   contract tests validate every body against), documentation/collections.md and documentation/transactions.md
 *   (sample responses for bank transfer, USSD, M-Pesa, Ghana MoMo, verify, refund)
 * - [TOK] Card tokenization: https://developer.flutterwave.com/docs/tokenization (the same text at
 *   https://developer.flutterwave.com/v3.0/docs/tokenization and /docs/recurring-payments/tokenization): "In the
 *   verification response, you'll find a token field in the data.card object"; "Customer card tokens are valid for
 *   one year only"; "The token is tied to the email address you specified on the first charge"; subsequent charges
 *   use 3D Secure by default (NOAUTH only on request).
 * - [TC] Create a tokenized charge, `POST /v3/tokenized-charges`: https://developer.flutterwave.com/reference/endpoints/tokenized-charge/
 *   (body `token`, `email`, `currency`, `country` "the ISO country code of the merchant", `amount`, `tx_ref`,
 *   `narration`, `preauthorize`, …), https://flutterwaveinc.mintlify.app/api-reference/tokenized-charges/create-a-tokenized-charge
 *   (required: token, currency, amount, email, tx_ref; 200 sample "Charge successful" with `data.card.token`), the 3DS
 *   answer of https://flutterwaveinc.mintlify.app/other-features/recurring-payments/tokenization (`status: "pending"`,
 *   `data.meta.authorization.mode: "redirect"`), and the SDK's `tokenSchema` (services/schema/create.js: `narration`
 *   required, `redirect_url`, `preauthorize`) and documentation/tokenization.md ("Charge with token" sample). The
 *   tokenization endpoints are create, bulk create, bulk status, bulk transactions and update token details
 *   (`PUT /v3/tokens/{token}`): none revokes a token.
 */
import { createCipheriv } from 'node:crypto';
import { type CardDetails, fullExpiryYear } from '../../domain/card';
import { ghanaMobileNetwork } from '../../domain/ghana-mobile-networks';
import type { Currency } from '../../domain/money';
import type { AuthenticationAddress } from '../../domain/payment';
import { type AuthenticateRequest, type AuthorizeRequest, ConnectorRequestError } from '../connector';
import { FLUTTERWAVE_CONNECTOR_NAME } from './connector-name';
import { FLUTTERWAVE_NETWORK_OF, nationalNumber } from './mobile-money';
import { minorToMajor } from './money';
import { refundComment } from './references';
import { type FlutterwaveChargeType, flutterwaveChargeType } from './supported-methods';
import { FLUTTERWAVE_USSD_BANKS, isFlutterwaveUssdBank } from './ussd-banks';
import type {
  FlutterwaveAvsAuthorization,
  FlutterwaveBankTransferCharge,
  FlutterwaveCaptureBody,
  FlutterwaveCardPayload,
  FlutterwaveEncryptedCharge,
  FlutterwaveGhanaMobileMoneyCharge,
  FlutterwaveMpesaCharge,
  FlutterwavePinAuthorization,
  FlutterwavePreauthRefundBody,
  FlutterwaveRefundBody,
  FlutterwaveTokenizedCharge,
  FlutterwaveUssdCharge,
  FlutterwaveValidateChargeBody,
} from './wire-types';

/**
 * The read of the credential check: Get all wallet balances, `GET /v3/balances`
 * (https://developer.flutterwave.com/v3.0.0/reference/get-all-wallet-balances, "Query the balances for your wallet in
 * all currencies", authorised by the secret key as a bearer token; the SDK's `Misc.bal()`, flutterwave-node-v3 1.4.1
 * `services/misc/rave.balances.js`: `GET /v3/balances`). No parameters, changes nothing.
 */
export const FLUTTERWAVE_BALANCES_PATH = '/v3/balances';

/**
 * Encrypts the card payload as Flutterwave documents [ENC][SDK services/charge/encryp.js]:
 * JSON → 3DES (`des-ede3`, ECB, PKCS#7 padding) with the dashboard's 24-character
 * encryption key → base64, sent as `{ "client": "<base64>" }`.
 * @param encryptionKey the merchant's encryption key (24 bytes)
 * @returns the base64 ciphertext
 */
export function encryptCardPayload(encryptionKey: string, payload: FlutterwaveCardPayload): string {
  const cipher = createCipheriv('des-ede3', Buffer.from(encryptionKey, 'utf8'), null);
  return Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]).toString('base64');
}

/** Seconds a generated bank-transfer account stays valid (`expires` in the charge body [SDK collections.md]). */
export const BANK_TRANSFER_EXPIRES_SECONDS = 3600;

/** What building a charge needs besides the request. */
export interface ChargeBuildOptions {
  /** The dashboard's 24-character encryption key (3DES key of card payloads). */
  encryptionKey: string;
}

/** A charge to send: `POST /v3/charges?type=<type>` with `body` (JSON). */
export interface FlutterwaveChargeRequest {
  type: FlutterwaveChargeType;
  body: string;
}

function requestProblem(code: string, message: string): ConnectorRequestError {
  return new ConnectorRequestError(FLUTTERWAVE_CONNECTOR_NAME, code, message);
}

/** What a card charge is built from: the payment (amounts in minor units) and the card, held in memory only. */
export interface CardChargeInput {
  paymentId: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  captureMethod: AuthorizeRequest['captureMethod'];
  email: string;
  /** Where Flutterwave sends the payer back after 3DS (Switchyard's return route for the payment). */
  returnUrl: string;
  phone?: string | undefined;
  card: CardDetails;
  /** Only when the charge is sent again for a `pin` or `avs_noauth` mode [CARD]. */
  authorization?: FlutterwavePinAuthorization | FlutterwaveAvsAuthorization;
}

/**
 * The card payload of `POST /v3/charges?type=card` [CARD][SDK `cardChargeSchema`]: our payment id as `tx_ref`
 * (the same on every re-send), the amount in major units, two-digit expiry month and year, `preauthorize: true`
 * for manual capture [PRE], and `authorization` when the charge is sent again with a PIN or an address.
 */
export function cardPayload(input: CardChargeInput): FlutterwaveCardPayload {
  const card = input.card;
  return {
    card_number: card.card_number,
    cvv: card.card_cvc,
    expiry_month: card.card_exp_month.padStart(2, '0'),
    expiry_year: String(fullExpiryYear(card.card_exp_year) % 100).padStart(2, '0'),
    currency: input.currency,
    amount: minorToMajor(input.amount),
    email: input.email,
    tx_ref: input.paymentId,
    redirect_url: input.returnUrl,
    ...(input.phone ? { phone_number: input.phone } : {}),
    ...(input.captureMethod === 'manual' ? { preauthorize: true as const } : {}),
    ...(input.authorization ? { authorization: input.authorization } : {}),
  };
}

/** @returns the JSON body `{ "client": "<3DES ciphertext of the payload>" }` of a card charge [ENC] */
export function encryptedCardBody(encryptionKey: string, input: CardChargeInput): string {
  const body: FlutterwaveEncryptedCharge = { client: encryptCardPayload(encryptionKey, cardPayload(input)) };
  return JSON.stringify(body);
}

/**
 * Builds the direct-charge request for a payment [DC]: our `paymentId` is the
 * `tx_ref` (unique per transaction at Flutterwave, and what a sync finds the
 * payment by); amounts are major-unit strings ({@link minorToMajor}). Cards are
 * encrypted ({@link encryptCardPayload}); manual capture sends `preauthorize: true`.
 * USSD sends the payer's bank (`request.ussdBankCode`) as `account_bank` [USSD].
 * The PAN and CVC only exist inside the encrypted `client` value.
 * @returns the charge type and JSON body
 * @throws ConnectorRequestError (nothing sent) when the pair is unsupported (`unsupported_payment_method`),
 *   manual capture is asked for a non-card method (`manual_capture_not_supported`), or a required
 *   detail is missing or unusable: card (`card_required`), email (`email_required`, Flutterwave requires one),
 *   USSD bank (`ussd_bank_required`, `unsupported_ussd_bank` for a bank outside {@link FLUTTERWAVE_USSD_BANKS}),
 *   phone for mobile money (`phone_required`, `invalid_phone`, `unknown_mobile_network`)
 */
export function buildChargeRequest(request: AuthorizeRequest, options: ChargeBuildOptions): FlutterwaveChargeRequest {
  const type = flutterwaveChargeType(request.currency, request.paymentMethod);
  if (!type)
    throw requestProblem(
      'unsupported_payment_method',
      `Flutterwave does not take ${request.paymentMethod} payments in ${request.currency} here.`,
    );
  if (request.captureMethod === 'manual' && type !== 'card') {
    throw requestProblem(
      'manual_capture_not_supported',
      'Flutterwave can only preauthorize (hold) card payments; use capture_method automatic.',
    );
  }
  const email = request.email?.trim();
  if (!email) throw requestProblem('email_required', "Flutterwave requires the payer's email address for every charge.");
  const amount = minorToMajor(request.amount);
  const phone = request.phone ?? undefined;
  switch (type) {
    case 'card': {
      const card = request.card;
      if (!card) throw requestProblem('card_required', 'A card payment at Flutterwave needs the card details.');
      const body = encryptedCardBody(options.encryptionKey, {
        paymentId: request.paymentId,
        amount: request.amount,
        currency: request.currency,
        captureMethod: request.captureMethod,
        email,
        returnUrl: request.returnUrl,
        phone,
        card,
      });
      return { type, body };
    }
    case 'bank_transfer': {
      const body: FlutterwaveBankTransferCharge = {
        tx_ref: request.paymentId,
        amount,
        currency: 'NGN',
        email,
        ...(phone ? { phone_number: phone } : {}),
        expires: BANK_TRANSFER_EXPIRES_SECONDS,
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'ussd': {
      const bank = request.ussdBankCode;
      if (!bank) throw requestProblem('ussd_bank_required', "A USSD payment at Flutterwave needs the payer's bank (its CBN code).");
      if (!isFlutterwaveUssdBank(bank)) {
        throw requestProblem(
          'unsupported_ussd_bank',
          `Flutterwave does not take USSD payments from bank ${bank}; it takes ${FLUTTERWAVE_USSD_BANKS.join(', ')}.`,
        );
      }
      const body: FlutterwaveUssdCharge = {
        tx_ref: request.paymentId,
        account_bank: bank,
        amount,
        currency: 'NGN',
        email,
        ...(phone ? { phone_number: phone } : {}),
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'mobile_money_ghana': {
      if (!phone) throw requestProblem('phone_required', "Ghana mobile money needs the payer's phone number.");
      const national = nationalNumber(phone, '233', 9);
      if (!national) throw requestProblem('invalid_phone', 'The phone number is not a Ghanaian mobile number (+233 and 9 digits).');
      const ghana = ghanaMobileNetwork(`+233${national}`);
      const network = ghana ? FLUTTERWAVE_NETWORK_OF[ghana] : undefined;
      if (!network)
        throw requestProblem(
          'unknown_mobile_network',
          'The phone number does not belong to a Ghanaian mobile-money network Flutterwave charges (MTN, Telecel, AirtelTigo).',
        );
      const body: FlutterwaveGhanaMobileMoneyCharge = {
        tx_ref: request.paymentId,
        amount,
        currency: 'GHS',
        country: 'GH',
        network,
        email,
        phone_number: `0${national}`,
      };
      return { type, body: JSON.stringify(body) };
    }
    case 'mpesa': {
      if (!phone) throw requestProblem('phone_required', "M-Pesa needs the payer's phone number.");
      const national = nationalNumber(phone, '254', 9);
      if (!national) throw requestProblem('invalid_phone', 'The phone number is not a Kenyan mobile number (+254 and 9 digits).');
      const body: FlutterwaveMpesaCharge = { tx_ref: request.paymentId, amount, currency: 'KES', email, phone_number: `254${national}` };
      return { type, body: JSON.stringify(body) };
    }
  }
}

/**
 * The `authorization` object for an AVS re-send from the payer's address [CARD]: `address` ← `line1`,
 * `zipcode` ← `zip`, `country` upper-cased (ISO 3166-1 alpha-2).
 * @throws ConnectorRequestError `address_required` (nothing sent) when a field is missing or blank
 */
export function avsAuthorization(address: Partial<AuthenticationAddress> | null | undefined): FlutterwaveAvsAuthorization {
  const line1 = address?.line1?.trim();
  const city = address?.city?.trim();
  const state = address?.state?.trim();
  const zip = address?.zip?.trim();
  const country = address?.country?.trim().toUpperCase();
  if (!line1 || !city || !state || !zip || !country || !/^[A-Z]{2}$/.test(country)) {
    throw requestProblem(
      'address_required',
      "Flutterwave needs the card's billing address: line1, city, state, zip and a 2-letter country.",
    );
  }
  return { mode: 'avs_noauth', city, address: line1, state, country, zipcode: zip };
}

/**
 * Whether a billing address given at create is complete enough for Flutterwave's AVS mode
 * ({@link avsAuthorization} would accept it).
 */
export function isCompleteAvsAddress(address: Partial<AuthenticationAddress> | null | undefined): boolean {
  try {
    avsAuthorization(address);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the card charge sent again for a `submit_pin` or `submit_address` step [CARD]: the whole card charge
 * of the payment (same `tx_ref`, amount, currency, `preauthorize`) with `authorization: {mode: "pin", pin}` or
 * `authorization: {mode: "avs_noauth", …address}`, encrypted. The card comes again with the step
 * (`card_required`): Switchyard never keeps it. The PIN is held in memory only and only travels encrypted.
 * @returns the encrypted JSON body of `POST /v3/charges?type=card`
 * @throws ConnectorRequestError (nothing sent) `card_required`, `email_required`, `pin_required`, `address_required`,
 *   or `unsupported_authentication_step` for any other step
 */
export function buildCardStepCharge(request: AuthenticateRequest, options: ChargeBuildOptions): string {
  if (!request.card)
    throw requestProblem(
      'card_required',
      'Flutterwave takes the PIN or the billing address only with the whole card charge: send the card again with this step.',
    );
  const email = request.email?.trim();
  if (!email) throw requestProblem('email_required', "Flutterwave requires the payer's email address for every charge.");
  let authorization: FlutterwavePinAuthorization | FlutterwaveAvsAuthorization;
  if (request.step === 'submit_pin') {
    if (!request.pin) throw requestProblem('pin_required', 'The submit_pin step needs the card PIN.');
    authorization = { mode: 'pin', pin: request.pin };
  } else if (request.step === 'submit_address') {
    authorization = avsAuthorization(request.address);
  } else {
    throw requestProblem('unsupported_authentication_step', `Flutterwave does not re-send a card charge for ${request.step}.`);
  }
  return encryptedCardBody(options.encryptionKey, {
    paymentId: request.paymentId,
    amount: request.amount,
    currency: request.currency,
    captureMethod: request.captureMethod,
    email,
    returnUrl: request.returnUrl,
    card: request.card,
    authorization,
  });
}

/**
 * @returns the body of `POST /v3/validate-charge` [VAL]: the OTP exactly as typed (Flutterwave judges it: its
 *   reference asks for "at least 6 characters", the SDK's schema 5 to 7, its test OTP is `12345`), the charge's
 *   `flw_ref` and `type: "card"`
 * @throws ConnectorRequestError `otp_required` (nothing sent) when the OTP is empty
 */
export function buildValidateChargeBody(otp: string | undefined, flwRef: string): FlutterwaveValidateChargeBody {
  if (!otp) throw requestProblem('otp_required', 'The submit_otp step needs the one-time code.');
  return { otp, flw_ref: flwRef, type: 'card' };
}

/** @returns the body of `POST /v3/charges/{flw_ref}/capture` for `amount` minor units [PRE] */
export function buildCaptureBody(amount: number): FlutterwaveCaptureBody {
  return { amount: minorToMajor(amount) };
}

/** @returns the body of `POST /v3/transactions/{id}/refund` for `amount` minor units, noting our refund id in `comments` [REF] */
export function buildRefundBody(amount: number, refundId: string): FlutterwaveRefundBody {
  return { amount: minorToMajor(amount), comments: refundComment(refundId) };
}

/**
 * @returns the body of `POST /v3/charges/{flw_ref}/refund` for `amount` minor units [PRF]: `amount` is its only
 *   documented field (no note can carry our refund id; see `ourPreauthRefund` (./lookups.ts))
 */
export function buildPreauthRefundBody(amount: number): FlutterwavePreauthRefundBody {
  return { amount: minorToMajor(amount) };
}

/** Path of a tokenized charge, `POST /v3/tokenized-charges` [TC]. */
export const FLUTTERWAVE_TOKENIZED_CHARGE_PATH = '/v3/tokenized-charges';

/**
 * `country` of a tokenized charge, by currency [TC]: Flutterwave's reference calls it "the ISO country code of the
 * merchant" and the SDK's `tokenSchema` defaults it to `NG` (every official sample sends `NG` with `NGN`). Switchyard
 * does not know the merchant's country, so the currency's own country is sent for the four local currencies (an
 * account charging GHS, KES or ZAR is one of that country) and nothing for USD (Flutterwave's default applies).
 */
export const FLUTTERWAVE_TOKEN_CHARGE_COUNTRY: Readonly<Partial<Record<Currency, string>>> = {
  NGN: 'NG',
  GHS: 'GH',
  KES: 'KE',
  ZAR: 'ZA',
};

/** The `narration` of a tokenized charge (the SDK's `tokenSchema` requires one): `Payment <our payment id>`. */
export function tokenizedChargeNarration(paymentId: string): string {
  return `Payment ${paymentId}`;
}

/**
 * Builds the body of `POST /v3/tokenized-charges` for a charge of a saved card (`request.savedMethod`)
 * [TC][TOK][SDK `tokenSchema`]: see {@link FlutterwaveTokenizedCharge}. The e-mail is the one the token is tied to
 * (`savedMethod.email`), else the payment's. `offSession` changes nothing on the wire: Flutterwave's v3 tokenized
 * charge has no such flag (its card-on-file `is_unscheduled`/`trace_id` fields need Flutterwave's approval); a charge
 * Flutterwave wants the payer to authenticate answers a 3DS redirect, mapped to `RequiresAction`.
 * The token is held in memory only: it travels in this body and nowhere else.
 * @returns the body (amount in major units)
 * @throws ConnectorRequestError (nothing sent) `saved_method_required` without a token, `unsupported_payment_method`
 *   for anything but a card in a currency of `FLUTTERWAVE_CHARGE_TYPES.card`, `email_required` without an e-mail
 */
export function buildTokenizedCharge(request: AuthorizeRequest): FlutterwaveTokenizedCharge {
  const token = request.savedMethod?.token?.trim();
  if (!token) throw requestProblem('saved_method_required', 'A charge of a saved card at Flutterwave needs the card token.');
  if (flutterwaveChargeType(request.currency, request.paymentMethod) !== 'card') {
    throw requestProblem(
      'unsupported_payment_method',
      `Flutterwave charges saved cards only (card tokens), not ${request.paymentMethod} payments in ${request.currency}.`,
    );
  }
  const email = (request.savedMethod?.email ?? request.email)?.trim();
  if (!email) throw requestProblem('email_required', 'Flutterwave charges a card token with the e-mail address it is tied to.');
  const country = FLUTTERWAVE_TOKEN_CHARGE_COUNTRY[request.currency];
  return {
    token,
    currency: request.currency,
    ...(country ? { country } : {}),
    amount: minorToMajor(request.amount),
    email,
    tx_ref: request.paymentId,
    narration: tokenizedChargeNarration(request.paymentId),
    redirect_url: request.returnUrl,
    ...(request.captureMethod === 'manual' ? { preauthorize: true as const } : {}),
  };
}
