/**
 * Saved payment methods: one item per method, `PK = MERCHANT#m#PAYMENT_METHOD#pm`,
 * `SK = PAYMENT_METHOD`, listed per customer on GSI1 (`MERCHANT#m#CUSTOMER#c#PAYMENT_METHODS`,
 * `created_at#id`) while attached. Attributes: the API fields (`PaymentMethodResource`) plus
 * `token_ciphertext` (the processor's reusable token, encrypted with the credentials' envelope
 * encryption: shared/security/credential-encryption.ts; never in clear), `processor_customer_id` and
 * `token_email` (what a charge of the token needs). A guard item per (customer, connector account,
 * fingerprint) keeps one saved method per card per customer: saving the same card again updates the
 * existing method's token instead of adding a second one (Paystack's `signature`, Stripe's
 * `fingerprint`).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ListPage, ListQuery } from '../domain/list-query';
import type { PaymentMethodResource } from '../domain/payment-method';
import { registerBillingMerchant } from './billing-directory-repository';
import { documentClient } from './client';
import { conditionalTransaction } from './conditional-write';
import { eventWrite } from './events-repository';
import { billingDue, listPartition, listSortKey, primaryKey } from './item-keys';
import { listPage } from './list-items';
import { queryPage } from './query-pages';
import { ConditionFailedError, LinkedCustomerMissingError } from './storage-errors';
import { tableName } from './table-definition';

/** The API fields, in the order answers list them. */
export const PAYMENT_METHOD_FIELDS: readonly (keyof PaymentMethodResource)[] = [
  'payment_method_id',
  'customer_id',
  'type',
  'card',
  'connector',
  'merchant_connector_id',
  'recurring_enabled',
  'status',
  'default',
  'payment_id',
  'created_at',
  'last_used_at',
  'expires_at',
];

/** A saved method with what charging it needs (never returned by the API). */
export interface StoredPaymentMethod {
  method: PaymentMethodResource;
  /** The encrypted token (base64 Encryption SDK message); null once detached. */
  tokenCiphertext: string | null;
  /** The processor's customer id under the issuing account (Stripe `cus_…`); null when none. */
  processorCustomerId: string | null;
  /** The e-mail the processor tied the token to; null when none. */
  tokenEmail: string | null;
}

const toResource = (item: Record<string, unknown>): PaymentMethodResource => {
  const out: Record<string, unknown> = {};
  for (const f of PAYMENT_METHOD_FIELDS) out[f] = item[f] ?? null;
  out.default = Boolean(item.default);
  out.recurring_enabled = Boolean(item.recurring_enabled);
  // DynamoDB keeps no order inside a map: the card's fields in the documented order.
  const c = (item.card ?? {}) as Record<string, unknown>;
  out.card = {
    brand: c.brand,
    last4: c.last4,
    exp_month: c.exp_month,
    exp_year: c.exp_year,
    fingerprint: c.fingerprint,
    bin: c.bin ?? null,
    issuer_country: c.issuer_country ?? null,
  };
  return out as unknown as PaymentMethodResource;
};

const toStored = (item: Record<string, unknown>): StoredPaymentMethod => ({
  method: toResource(item),
  tokenCiphertext: (item.token_ciphertext as string | undefined) ?? null,
  processorCustomerId: (item.processor_customer_id as string | undefined) ?? null,
  tokenEmail: (item.token_email as string | undefined) ?? null,
});

/** The account key a fingerprint is scoped to: the merchant connector account, or the stage's connector. */
const accountKey = (m: Pick<PaymentMethodResource, 'merchant_connector_id' | 'connector'>) =>
  m.merchant_connector_id ?? `platform:${m.connector}`;

/** What attaching needs: the resource as it will be and the secret parts. */
export interface NewPaymentMethod {
  method: PaymentMethodResource & { customer_id: string };
  tokenCiphertext: string;
  processorCustomerId: string | null;
  tokenEmail: string | null;
  /** The test clock its customer lives on (its expiry notice is then due by that clock), if any. */
  testClock?: string | null;
}

/** How long before a saved method stops working its `payment_method.expiring` event is sent: 30 days, in ms. */
export const EXPIRING_NOTICE_MS = 30 * 86_400_000;

/** When a method's expiry notice is due (ISO 8601 UTC): 30 days before it expires. */
export const expiringNoticeAt = (expiresAt: string): string => new Date(new Date(expiresAt).getTime() - EXPIRING_NOTICE_MS).toISOString();

/**
 * Saves a method on its customer with its `payment_method.attached` event (one transaction), unless the
 * customer already has this card under this account (the fingerprint guard) or this method exists (a
 * retried attach: its id is derived from the payment that saved it). Then the existing method gets the
 * new token (the processor issued a fresh one for the same card) and is answered.
 * @returns the method, and whether it was created now
 * @throws LinkedCustomerMissingError when the customer does not exist or is being deleted (nothing saved); storage errors
 */
export async function attachPaymentMethod(
  merchantId: string,
  input: NewPaymentMethod,
): Promise<{ method: PaymentMethodResource; created: boolean }> {
  const m = input.method;
  const guardKey = primaryKey.paymentMethodFingerprint(merchantId, m.customer_id, accountKey(m), m.card.fingerprint);
  const out = await conditionalTransaction([
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...primaryKey.paymentMethod(merchantId, m.payment_method_id),
          GSI1PK: listPartition.paymentMethodsOfCustomer(merchantId, m.customer_id),
          GSI1SK: listSortKey(m.created_at, m.payment_method_id),
          // Its expiry notice, due 30 days before it expires (the renewal worker, or its test clock's advance).
          ...(m.expires_at ? billingDue.keys(merchantId, m.payment_method_id, expiringNoticeAt(m.expires_at), input.testClock) : {}),
          ...(input.testClock ? { test_clock: input.testClock } : {}),
          entity: 'payment_method',
          merchant_id: merchantId,
          ...m,
          token_ciphertext: input.tokenCiphertext,
          ...(input.processorCustomerId ? { processor_customer_id: input.processorCustomerId } : {}),
          ...(input.tokenEmail ? { token_email: input.tokenEmail } : {}),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...guardKey, entity: 'payment_method_fingerprint', merchant_id: merchantId, payment_method_id: m.payment_method_id },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    // Only on a customer that exists and is not being deleted (a delete detaches its methods).
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: primaryKey.customer(merchantId, m.customer_id),
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleting_since)',
      },
    },
    eventWrite(merchantId, 'payment_method.attached', m, m.created_at).put,
  ]);
  if (out.written) {
    // Its expiry notice is billing work: the renewal worker finds the merchant through the directory.
    if (m.expires_at && !input.testClock) await registerBillingMerchant(merchantId).catch(() => undefined);
    return { method: m, created: true };
  }
  if (out.conditionFailed[0]) {
    const existing = await getStoredPaymentMethod(merchantId, m.payment_method_id);
    if (existing) return { method: existing.method, created: false };
  }
  if (out.conditionFailed[1]) {
    const guard = await documentClient().send(new GetCommand({ TableName: tableName(), Key: guardKey, ConsistentRead: true }));
    const existingId = guard.Item?.payment_method_id as string | undefined;
    if (existingId) {
      const refreshed = await refreshToken(merchantId, existingId, input);
      if (refreshed) return { method: refreshed.method, created: false };
    }
  }
  if (out.conditionFailed[2]) throw new LinkedCustomerMissingError(m.customer_id);
  throw out.error;
}

/** Gives an active saved method the newest token the processor issued for the same card. */
async function refreshToken(
  merchantId: string,
  paymentMethodId: string,
  input: NewPaymentMethod,
): Promise<StoredPaymentMethod | undefined> {
  // A fresh token's expiry moves the notice (a notice already sent for the old one is not repeated for it).
  const expiresAt = input.method.expires_at;
  const due = expiresAt ? billingDue.keys(merchantId, paymentMethodId, expiringNoticeAt(expiresAt), input.testClock) : undefined;
  try {
    const out = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: primaryKey.paymentMethod(merchantId, paymentMethodId),
        // A card saved again for off-session use becomes chargeable off-session; never the other way.
        UpdateExpression: `SET token_ciphertext = :t, expires_at = :e${input.method.recurring_enabled ? ', recurring_enabled = :r' : ''}${due ? ', GSI5PK = :duePk, GSI5SK = :dueSk' : ''}`,
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':t': input.tokenCiphertext,
          ':e': input.method.expires_at,
          ...(due ? { ':duePk': due.GSI5PK, ':dueSk': due.GSI5SK } : {}),
          ...(input.method.recurring_enabled ? { ':r': true } : {}),
          ':active': 'active',
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toStored(out.Attributes ?? {});
  } catch {
    return undefined;
  }
}

/**
 * One consistent read of a saved method of the merchant.
 * @returns undefined when it does not exist for this merchant
 */
export async function getStoredPaymentMethod(merchantId: string, paymentMethodId: string): Promise<StoredPaymentMethod | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.paymentMethod(merchantId, paymentMethodId), ConsistentRead: true }),
  );
  return out.Item ? toStored(out.Item) : undefined;
}

/** A page of a customer's attached methods, newest first (Query on GSI1). */
export async function listCustomerPaymentMethods(
  merchantId: string,
  customerId: string,
  query: ListQuery,
): Promise<ListPage<PaymentMethodResource>> {
  return listPage({ indexName: 'GSI1', partitionValue: listPartition.paymentMethodsOfCustomer(merchantId, customerId) }, query, toResource);
}

/** Whether the customer has any attached method (one item read from GSI1). */
export async function customerHasPaymentMethods(merchantId: string, customerId: string): Promise<boolean> {
  const { items } = await queryPage({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': listPartition.paymentMethodsOfCustomer(merchantId, customerId) },
    Limit: 1,
  });
  return items.length > 0;
}

/**
 * The processor's customer id (Stripe `cus_…`) of the customer's saved methods under one account, if any:
 * a second card saved for the same customer reuses it instead of making another processor customer.
 * One Query of the customer's methods (GSI1; a customer has few).
 */
export async function processorCustomerIdOf(
  merchantId: string,
  customerId: string,
  owner: Pick<PaymentMethodResource, 'connector' | 'merchant_connector_id'>,
): Promise<string | null> {
  const { items } = await queryPage({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': listPartition.paymentMethodsOfCustomer(merchantId, customerId) },
    Limit: 50,
  });
  const same = items.find(
    (i) => i.connector === owner.connector && (i.merchant_connector_id ?? null) === owner.merchant_connector_id && i.processor_customer_id,
  );
  return (same?.processor_customer_id as string | undefined) ?? null;
}

/**
 * Detaches an attached method with its `payment_method.detached` event (one transaction): `status:
 * detached`, out of its customer's list, its token destroyed, its fingerprint guard removed.
 * @returns the method after the change
 * @throws ConditionFailedError when it is not attached any more (already detached); storage errors
 */
export async function detachPaymentMethod(merchantId: string, stored: StoredPaymentMethod, at: string): Promise<PaymentMethodResource> {
  const m = stored.method;
  const after: PaymentMethodResource = { ...m, status: 'detached', default: false };
  const out = await conditionalTransaction([
    {
      Update: {
        TableName: tableName(),
        Key: primaryKey.paymentMethod(merchantId, m.payment_method_id),
        UpdateExpression:
          'SET #status = :detached, #default = :false, detached_at = :at REMOVE GSI1PK, GSI1SK, GSI5PK, GSI5SK, token_ciphertext',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status', '#default': 'default' },
        ExpressionAttributeValues: { ':detached': 'detached', ':active': 'active', ':false': false, ':at': at },
      },
    },
    ...(m.customer_id
      ? [
          {
            Delete: {
              TableName: tableName(),
              Key: primaryKey.paymentMethodFingerprint(merchantId, m.customer_id, accountKey(m), m.card.fingerprint),
            },
          },
        ]
      : []),
    eventWrite(merchantId, 'payment_method.detached', after, at).put,
  ]);
  if (out.written) return after;
  if (out.conditionFailed[0]) throw new ConditionFailedError<StoredPaymentMethod>(stored);
  throw out.error;
}

/** Notes that a payment charged the method (`last_used_at`); a missing or detached method is left alone. */
export async function markPaymentMethodUsed(merchantId: string, paymentMethodId: string, at: string): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: primaryKey.paymentMethod(merchantId, paymentMethodId),
        UpdateExpression: 'SET last_used_at = :at',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
  } catch {
    // Best effort: `last_used_at` is informative.
  }
}

/**
 * Sends a method's expiry notice once: removes its due entry (conditional on it still being the one read, and the
 * method active) with a `payment_method.expiring` event, in one transaction.
 * @param dueSk the GSI5 sort key read (`<due>#<id>`)
 * @returns false when the entry changed or the method is not active any more (nothing written)
 * @throws storage errors
 */
export async function sendExpiringNotice(merchantId: string, method: PaymentMethodResource, dueSk: string, at: string): Promise<boolean> {
  const out = await conditionalTransaction([
    {
      Update: {
        TableName: tableName(),
        Key: primaryKey.paymentMethod(merchantId, method.payment_method_id),
        UpdateExpression: 'SET expiring_notified_at = :at REMOVE GSI5PK, GSI5SK',
        ConditionExpression: '#status = :active AND GSI5SK = :sk',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'active', ':sk': dueSk, ':at': at },
      },
    },
    eventWrite(merchantId, 'payment_method.expiring', method, at).put,
  ]);
  if (out.written) return true;
  if (out.conditionFailed[0]) return false;
  throw out.error;
}

/** The GSI5 sort key of a method's expiry notice entry (`<due>#<id>`), or undefined when it has none. */
export async function expiringNoticeEntry(merchantId: string, paymentMethodId: string): Promise<string | undefined> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: primaryKey.paymentMethod(merchantId, paymentMethodId),
      ConsistentRead: true,
      ProjectionExpression: 'GSI5SK',
    }),
  );
  return typeof out.Item?.GSI5SK === 'string' ? out.Item.GSI5SK : undefined;
}
