/**
 * The merchant connector account as the API answers it (OpenAPI components `ConnectorAccount`,
 * `EnabledPaymentMethod`, `DeletedConnectorAccount`), apart from the request bodies: handlers never build it.
 */
import * as z from 'zod';
import { CONNECTOR_ACCOUNT_STATUSES, CONNECTOR_NAMES } from '../domain/connector-account';
import { PAYMENT_METHODS } from '../domain/payment';
import { CurrencyResource, deletedAnswer, idField, MetadataResource, timestampField } from './resource-fields';

/** Component `EnabledPaymentMethod`. */
export const EnabledPaymentMethodResource = z
  .strictObject({
    payment_method: z.enum(PAYMENT_METHODS).describe('The payment method.'),
    currencies: z.array(CurrencyResource).describe('Currencies this account may be routed for this method.'),
    minimum_amount: z.int().min(0).nullable().optional().describe('Smallest amount routed here, minor units (null: none).'),
    maximum_amount: z.int().min(1).nullable().optional().describe('Largest amount routed here, minor units (null: none).'),
  })
  .meta({ id: 'EnabledPaymentMethod', description: 'A payment method this account may be routed, with its currencies and amount bounds.' });

/** Component `ConnectorAccount`: a merchant connector account as the API shows it (credentials masked). */
export const ConnectorAccountResource = z
  .strictObject({
    merchant_connector_id: idField('mca', 'The connector account'),
    connector_name: z.enum(CONNECTOR_NAMES).describe('The processor.'),
    connector_label: z.string().describe('Your name for the account, unique among your accounts (case-insensitive).'),
    connector_account_details: z
      .strictObject({
        api_key: z.string().describe('The secret key, masked: its prefix and last 4 characters only.'),
        key1: z.string().nullable().describe("Flutterwave's encryption key, masked; null when none."),
      })
      .describe('The credentials, masked. They are write-only: never answered in clear.'),
    connector_webhook_details: z
      .strictObject({ merchant_secret_set: z.boolean().describe('Whether a webhook signing secret is held (it is never shown).') })
      .describe('Webhook verification settings.'),
    payment_methods_enabled: z.array(EnabledPaymentMethodResource).describe('What routing may send to this account.'),
    disabled: z
      .boolean()
      .describe('A disabled account takes no new payments; it still captures, voids, refunds and reconciles those it holds.'),
    status: z.enum(CONNECTOR_ACCOUNT_STATUSES).describe('`active`, or `inactive` while disabled.'),
    test_mode: z.boolean().describe("Whether the credentials are the processor's test keys."),
    webhook_url: z
      .string()
      .describe("Where to point the processor's webhooks for this account (`…/webhooks/{connector_name}/{merchant_connector_id}`)."),
    metadata: MetadataResource,
    created_at: timestampField('When the account was connected.'),
    updated_at: timestampField('When the account last changed.'),
  })
  .meta({
    id: 'ConnectorAccount',
    description: 'A processor account of yours (merchant connector account): routing sends your payments to it, with its own credentials.',
  });

/** Component `DeletedConnectorAccount`: the answer of `DELETE /connector_accounts/{id}`. */
export const DeletedConnectorAccountResource = deletedAnswer(
  'merchant_connector_id',
  'mca',
  'connector account',
  'DeletedConnectorAccount',
);
