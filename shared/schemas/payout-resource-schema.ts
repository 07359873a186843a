/**
 * The payout resource as the API answers it (`POST /payouts`, `GET /payouts/{id}`, the payout actions, `GET
 * /payouts`, `payout.*` events): the one definition of its shape, built from the domain's lists
 * (shared/domain/payout.ts; test/types/resource-shapes.ts checks that `Payout` is its output). docs/api.md "Payouts".
 */
import * as z from 'zod';
import { MOBILE_MONEY_NETWORKS, PAYOUT_STATUSES, PAYOUT_TYPES } from '../domain/payout';
import { listEnvelope } from './list-envelope-schema';
import { PendingOperationResource } from './pending-operation-resource-schema';
import {
  CurrencyResource,
  connectorField,
  idField,
  MetadataResource,
  merchantConnectorIdField,
  minorUnitsField,
  nullableText,
  timestampField,
} from './resource-fields';

/** Component `PayoutStatus`. */
export const PayoutStatusResource = z.enum(PAYOUT_STATUSES).meta({
  id: 'PayoutStatus',
  description:
    '`RequiresConfirmation` (created, nothing sent), `RequiresAction` (the processor asks for your OTP: see `next_action`), `Processing` (sent; the outcome is not known yet), then `Succeeded`, `Failed` (nothing left the balance), `Cancelled` (cancelled before it was sent) or `Reversed` (the receiving bank returned it after it succeeded).',
});

/** Component `PayoutMethod`: where the payout goes, never the whole account number or phone. */
export const PayoutMethodResource = z
  .union([
    z.strictObject({
      bank: z.strictObject({
        last4: z.string().describe('The last 4 digits of the account number.'),
        bank_code: z.string().describe('The bank code as given.'),
        country: z.string().describe('ISO 3166-1 alpha-2, as given.'),
        account_name: nullableText('The account name as given, or null.'),
      }),
    }),
    z.strictObject({
      mobile_money: z.strictObject({
        last4: z.string().describe("The last 4 digits of the wallet's phone number."),
        network: z.enum(MOBILE_MONEY_NETWORKS).describe('The mobile money network.'),
      }),
    }),
  ])
  .meta({
    id: 'PayoutMethod',
    description: 'The destination of a payout as shown: the bank account or wallet, its number only as its last 4 digits.',
  });

/** Component `PayoutNextAction`. */
export const PayoutNextActionResource = z
  .strictObject({
    type: z
      .literal('submit_otp')
      .describe('The processor sent an OTP to your business phone: send it with `POST /payouts/{payout_id}/authenticate`.'),
    attempts_remaining: z.int().min(0).describe('Wrong OTPs still accepted before the payout fails (3 in all).'),
  })
  .meta({ id: 'PayoutNextAction', description: 'What the processor needs before it sends the payout.' });

/** Component `Payout`. */
export const PayoutResource = z
  .strictObject({
    payout_id: idField('po', 'The payout'),
    amount: minorUnitsField('The amount sent.', 1),
    currency: CurrencyResource,
    status: PayoutStatusResource,
    payout_type: z.enum(PAYOUT_TYPES).describe('`bank` or `mobile_money`.'),
    payout_method: PayoutMethodResource,
    description: z.string().describe('Echoed from the request: the narration the processor shows.'),
    reference: nullableText('Your own reference, unique among your payouts, or null.'),
    customer_id: nullableText('The customer it concerns, when given, or null.'),
    connector: connectorField('The processor that sends it.'),
    merchant_connector_id: merchantConnectorIdField('The connector account whose balance pays it'),
    connector_payout_id: nullableText(
      "The processor's id of the transfer (Paystack `transfer_code`, the sandbox's `sbx_tr_…`), or null until it has one.",
    ),
    fee: z.int().min(0).nullable().describe("The processor's fee in minor units, when it says; else null."),
    error_code: nullableText("Why it failed (the processor's code), or a note on a payout still open; null otherwise."),
    error_message: nullableText('The reason in words, or null.'),
    next_action: PayoutNextActionResource.nullable().describe('Set while `RequiresAction`; null otherwise.'),
    pending_operation: PendingOperationResource.nullable().describe(
      'The send (or OTP) whose answer is not recorded yet (the reconciler finds the payout at the processor by its id, our reference), or null.',
    ),
    metadata: MetadataResource,
    created_at: timestampField('When the payout was created.'),
    updated_at: timestampField('When the payout last changed.'),
  })
  .meta({
    id: 'Payout',
    description:
      "Money sent from your processor account's balance to a bank account or a mobile money wallet. Sent once: a payout whose send has an unknown outcome is never sent again, it is reconciled with the processor by its id.",
  });

/** Component `ResolvedAccount`: the answer of `POST /payouts/resolve_account`. */
export const ResolvedAccountResource = z
  .strictObject({
    account_number: z.string().describe('The account number as given.'),
    bank_code: z.string().describe('The bank code as given.'),
    country: z.string().describe('ISO 3166-1 alpha-2, as given.'),
    account_name: z.string().describe("The account holder's name as the bank has it."),
    connector: connectorField('The processor that resolved it.'),
    merchant_connector_id: merchantConnectorIdField('The connector account that resolved it'),
  })
  .meta({
    id: 'ResolvedAccount',
    description: "A bank account's holder name, from the processor (Paystack `GET /bank/resolve`).",
  });

/** Component `PayoutList`: a page of `GET /payouts`. */
export const PayoutListResource = listEnvelope(PayoutResource, 'PayoutList', 'payouts');
