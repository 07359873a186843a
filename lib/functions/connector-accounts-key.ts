import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { isConnectorWebhookRoute, type RouteDefinition } from '../../shared/api/routes';

/** Environment variable naming the connector-accounts KMS key (key ARN) in the functions that use it. */
export const CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE = 'CONNECTOR_ACCOUNTS_KMS_KEY_ARN';

/**
 * KMS actions on the connector-accounts key ({@link connectorAccountsKeyStatement}): exactly what the AWS
 * Encryption SDK's KMS keyring calls with one key, the generator (shared/security/credential-encryption.ts:
 * `KmsKeyringNode` with `generatorKeyId`). Encrypt calls `GenerateDataKey` on the generator key and
 * `Encrypt` only on *additional* keys of the keyring, of which there are none; decrypt calls `Decrypt`.
 * Sources: AWS Encryption SDK developer guide, "AWS KMS keyrings", section "Required permissions for
 * AWS KMS keyrings" ("To encrypt with an AWS KMS keyring, you need kms:GenerateDataKey permission on
 * the generator key. You need kms:Encrypt permission on all additional keys … To decrypt …
 * kms:Decrypt", https://docs.aws.amazon.com/encryption-sdk/latest/developer-guide/use-kms-keyring.html),
 * and the keyring itself, @aws-crypto/kms-keyring 5.0.2 `KmsKeyringClass._onEncrypt` (generateDataKey
 * for the generator, encrypt for `keyIds`) and `_onDecrypt` (decrypt). `kms:Encrypt` is therefore not
 * granted: a keyring given additional keys would need it on those keys, not on this one.
 */
export const CONNECTOR_ACCOUNTS_KEY_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'] as const;

/**
 * The encryption context every use of the key must carry: whose account the credentials are
 * (shared/security/credential-encryption.ts, `CredentialContext`).
 */
export const CONNECTOR_ACCOUNTS_CONTEXT_KEYS = ['merchant_id', 'merchant_connector_id'] as const;

/**
 * Encryption-context keys the Encryption SDK adds itself: its default algorithm suite signs (ECDSA
 * P-384), and the SDK then puts the verification key under `aws-crypto-public-key` in the context it
 * sends to KMS with GenerateDataKey and Decrypt (Encryption SDK developer guide, "Concepts",
 * #encryption-context; @aws-crypto/material-management-node 5.0.2
 * `NodeDefaultCryptographicMaterialsManager._initializeEncryptionMaterial`, `ENCODED_SIGNER_KEY` of
 * @aws-crypto/serialize).
 */
export const ENCRYPTION_SDK_CONTEXT_KEYS = ['aws-crypto-public-key'] as const;

/**
 * The statement a function's role gets on the connector-accounts key: {@link CONNECTOR_ACCOUNTS_KEY_ACTIONS}
 * on that key only, and only when the request's encryption context names both an account's merchant and
 * its id (`Null` … `false` on `kms:EncryptionContext:merchant_id` and `…:merchant_connector_id`) and holds
 * no other key than those and the SDK's own (`ForAllValues:StringEquals` on `kms:EncryptionContextKeys`).
 * Both are KMS condition keys for GenerateDataKey and Decrypt (KMS developer guide, "AWS KMS condition
 * keys", kms:EncryptionContext:context-key and kms:EncryptionContextKeys,
 * https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html). `ForAllValues` alone would
 * also pass a request without any context (an empty set satisfies it), hence the `Null` checks.
 */
export function connectorAccountsKeyStatement(keyArn: string): PolicyStatement {
  return new PolicyStatement({
    actions: [...CONNECTOR_ACCOUNTS_KEY_ACTIONS],
    resources: [keyArn],
    conditions: {
      Null: Object.fromEntries(CONNECTOR_ACCOUNTS_CONTEXT_KEYS.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
      'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...CONNECTOR_ACCOUNTS_CONTEXT_KEYS, ...ENCRYPTION_SDK_CONTEXT_KEYS] },
    },
  });
}

/**
 * Whether a route's function gets the connector-accounts key (its ARN and {@link connectorAccountsKeyStatement}):
 * routes that call connectors (`connectors: true` in shared/api/routes.ts: they use a merchant's account,
 * and the account routes store its credentials) and the processors' webhook receiver. The reconciler and the renewal worker get
 * it too (lib/background/background-work.ts); no other function does.
 */
export const usesConnectorAccountsKey = (route: Pick<RouteDefinition, 'connectors' | 'connectorWebhook'>): boolean =>
  route.connectors || isConnectorWebhookRoute(route);
