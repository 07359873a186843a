/**
 * Payment links in the table: one item each (`PAYMENT_LINK`), listed on GSI1 (all of a merchant's) and GSI2 (by
 * `active`), found by id alone on GSI4 (the public checkout page knows only the id). Places under `max_payments` are
 * taken by a conditional write in the transaction that creates the payment ({@link linkPlaceReservation}), and given
 * back at most once per payment ({@link releaseLinkPlace}).
 *
 * The link's expiry is stored as `link_expires_at`: `expires_at` is the table's TTL attribute.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../domain/ids';
import type { ListPage, ListQuery } from '../domain/list-query';
import type { PaymentLinkOfPayment } from '../domain/payment';
import { checkoutPath, DEFAULT_SESSION_EXPIRY_SECONDS, type PaymentLink, paymentLinkStatus } from '../domain/payment-link';
import { documentClient } from './client';
import { eventWrite } from './events-repository';
import { idLookup, listPartition, listSortKey, primaryKey } from './item-keys';
import { type ListLocation, queryListPage } from './list-items';
import type { TransactionItem } from './payments-repository';
import { orderedMap, storableMap } from './storable-map';
import { tableName } from './table-definition';

/** A link as the API answers it from its item, its status computed at `nowMs`. */
function toLink(item: Record<string, unknown>, nowMs = Date.now()): PaymentLink {
  const stored = {
    payment_link_id: String(item.payment_link_id),
    url: String(item.url),
    active: item.active === true,
    amount: (item.amount as number | undefined) ?? null,
    amount_min: (item.amount_min as number | undefined) ?? null,
    amount_max: (item.amount_max as number | undefined) ?? null,
    currency: item.currency as PaymentLink['currency'],
    description: (item.description as string | undefined) ?? null,
    payment_methods: (item.payment_methods as PaymentLink['payment_methods'] | undefined) ?? null,
    expires_at: (item.link_expires_at as string | undefined) ?? null,
    max_payments: (item.max_payments as number | undefined) ?? null,
    payments_count: Number(item.payments_count ?? 0),
    return_url: (item.return_url as string | undefined) ?? null,
    customer_fields: (item.customer_fields as PaymentLink['customer_fields'] | undefined) ?? [],
    metadata: orderedMap(item.metadata as Record<string, string> | undefined),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
  };
  const { payment_link_id, url, active, ...rest } = stored;
  return { payment_link_id, url, active, status: paymentLinkStatus(stored, nowMs), ...rest };
}

/** The item's attributes of a link (nulls left out, so conditions can test `attribute_not_exists`). */
function linkAttributes(link: PaymentLink): Record<string, unknown> {
  const { status: _status, expires_at, metadata, ...rest } = link;
  const out: Record<string, unknown> = { metadata: storableMap(metadata) };
  for (const [k, v] of Object.entries(rest)) if (v !== null) out[k] = v;
  if (expires_at !== null) out.link_expires_at = expires_at;
  return out;
}

/**
 * Writes a new link and its `payment_link.created` event in one transaction (the outbox).
 * @param eventShards how many list shards the event may go to (the request's `write` count); default 1
 */
export async function createPaymentLink(merchantId: string, link: PaymentLink, eventShards = 1): Promise<PaymentLink> {
  const sk = listSortKey(link.created_at, link.payment_link_id);
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...primaryKey.paymentLink(merchantId, link.payment_link_id),
              GSI1PK: listPartition.paymentLinks(merchantId),
              GSI1SK: sk,
              GSI2PK: listPartition.paymentLinksByActive(merchantId, true),
              GSI2SK: sk,
              ...idLookup.paymentLink(link.payment_link_id),
              entity: 'payment_link',
              merchant_id: merchantId,
              ...linkAttributes(link),
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        eventWrite(merchantId, 'payment_link.created', link, link.created_at, eventShards).put,
      ],
    }),
  );
  return link;
}

/** One strongly consistent read of a link's item (either kind). */
async function readLinkItem(merchantId: string, paymentLinkId: string): Promise<Record<string, unknown> | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.paymentLink(merchantId, paymentLinkId), ConsistentRead: true }),
  );
  return out.Item;
}

/**
 * One strongly consistent read of a (reusable) link of the merchant.
 * @param nowMs the time its status is computed at (epoch ms)
 * @returns undefined when the merchant has no such link (a payment's single-use link included: it is shown on its payment)
 */
export async function getPaymentLink(merchantId: string, paymentLinkId: string, nowMs = Date.now()): Promise<PaymentLink | undefined> {
  const item = await readLinkItem(merchantId, paymentLinkId);
  return item && item.payment_id === undefined ? toLink(item, nowMs) : undefined;
}

/** A payment's single-use link as stored: the payment it pays, until when, and the payment's `return_url` as created. */
export interface SingleUseLink {
  link: PaymentLinkOfPayment;
  paymentId: string;
  returnUrl: string | null;
  createdAt: string;
}

/** A link of either kind, as the public checkout page reads it. */
export type AnyPaymentLink = { kind: 'reusable'; link: PaymentLink } | { kind: 'payment'; single: SingleUseLink };

/**
 * A link of either kind of the merchant, in one strongly consistent read: for the public checkout page.
 * @param nowMs the time a reusable link's status is computed at (epoch ms)
 * @returns undefined when the merchant has no such link
 */
export async function getAnyPaymentLink(
  merchantId: string,
  paymentLinkId: string,
  nowMs = Date.now(),
): Promise<AnyPaymentLink | undefined> {
  const item = await readLinkItem(merchantId, paymentLinkId);
  if (!item) return undefined;
  if (typeof item.payment_id !== 'string') return { kind: 'reusable', link: toLink(item, nowMs) };
  return {
    kind: 'payment',
    single: {
      link: { payment_link_id: String(item.payment_link_id), link: String(item.url), expires_at: String(item.link_expires_at) },
      paymentId: item.payment_id,
      returnUrl: typeof item.return_url === 'string' ? item.return_url : null,
      createdAt: String(item.created_at),
    },
  };
}

/**
 * A payment's single-use link and the write that stores it, for the payment's create transaction (`alsoWrite` of
 * ./payments-repository.ts `createPayment`): one item in the link's partition, found by id alone on GSI4 like a
 * reusable link, on no list of links.
 * @param returnUrl the payment's `return_url` as created (the page sends the payer there, signed, once paid)
 * @param sessionExpirySeconds how long the link takes payment (default {@link DEFAULT_SESSION_EXPIRY_SECONDS})
 */
export function singleUseLink(
  merchantId: string,
  publicBaseUrl: string,
  paymentId: string,
  returnUrl: string | null,
  sessionExpirySeconds = DEFAULT_SESSION_EXPIRY_SECONDS,
): { link: PaymentLinkOfPayment; write: TransactionItem } {
  const id = newId('paymentLink');
  const nowMs = Date.now();
  const link: PaymentLinkOfPayment = {
    payment_link_id: id,
    link: `${publicBaseUrl}${checkoutPath(id)}`,
    expires_at: new Date(nowMs + sessionExpirySeconds * 1000).toISOString(),
  };
  const item = {
    ...primaryKey.paymentLink(merchantId, id),
    ...idLookup.paymentLink(id),
    entity: 'payment_link',
    merchant_id: merchantId,
    payment_link_id: id,
    payment_id: paymentId,
    url: link.link,
    link_expires_at: link.expires_at,
    ...(returnUrl ? { return_url: returnUrl } : {}),
    created_at: new Date(nowMs).toISOString(),
  };
  return { link, write: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } } };
}

/**
 * Which merchant owns a link, from its id alone (Query on GSI4): for the public checkout page.
 * @returns undefined when no link has this id
 */
export async function findPaymentLinkOwner(paymentLinkId: string): Promise<string | undefined> {
  const keys = idLookup.paymentLink(paymentLinkId);
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI4',
      KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK = :sk',
      ExpressionAttributeValues: { ':pk': keys.GSI4PK, ':sk': keys.GSI4SK },
      ProjectionExpression: 'merchant_id',
      Limit: 1,
    }),
  );
  const owner = out.Items?.[0]?.merchant_id;
  return typeof owner === 'string' ? owner : undefined;
}

/**
 * Lists a merchant's links, newest first: Query on GSI1, or on GSI2 for `active` true or false.
 * @param startingAfter the link named by `starting_after`, already read by the caller
 */
export async function listPaymentLinks(
  merchantId: string,
  query: ListQuery,
  filters: { active?: boolean },
  startingAfter?: PaymentLink,
): Promise<ListPage<PaymentLink>> {
  const location: ListLocation =
    filters.active === undefined
      ? { indexName: 'GSI1', partitionValue: listPartition.paymentLinks(merchantId) }
      : { indexName: 'GSI2', partitionValue: listPartition.paymentLinksByActive(merchantId, filters.active) };
  if (startingAfter) {
    location.startAfter = {
      key: primaryKey.paymentLink(merchantId, startingAfter.payment_link_id),
      createdAt: startingAfter.created_at,
      id: startingAfter.payment_link_id,
    };
  }
  const page = await queryListPage(location, query);
  const now = Date.now();
  return { data: page.items.map((i) => toLink(i, now)), has_more: page.hasMore };
}

/**
 * Deactivates a link: `active` false, its GSI2 entry moved to the inactive list, and `payment_link.deactivated`, in
 * one transaction conditional on the link being active (so the event is written once). A link already inactive is
 * answered as it is, with no write.
 * @param eventShards how many list shards the event may go to (the request's `write` count); default 1
 * @returns the link after the change, or undefined when the merchant has no such link
 */
export async function deactivatePaymentLink(merchantId: string, paymentLinkId: string, eventShards = 1): Promise<PaymentLink | undefined> {
  const before = await getPaymentLink(merchantId, paymentLinkId);
  if (!before || !before.active) return before;
  const now = new Date().toISOString();
  const after = toLink({ ...linkAttributes(before), metadata: before.metadata, active: false, updated_at: now });
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: primaryKey.paymentLink(merchantId, paymentLinkId),
              UpdateExpression: 'SET active = :false, updated_at = :now, GSI2PK = :inactive',
              ConditionExpression: 'active = :true',
              ExpressionAttributeValues: {
                ':false': false,
                ':true': true,
                ':now': now,
                ':inactive': listPartition.paymentLinksByActive(merchantId, false),
              },
            },
          },
          eventWrite(merchantId, 'payment_link.deactivated', after, now, eventShards).put,
        ],
      }),
    );
  } catch (err) {
    const lost = err instanceof TransactionCanceledException && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed';
    // Deactivated meanwhile by another request: its write (and its event) stand.
    if (lost) return getPaymentLink(merchantId, paymentLinkId);
    throw err;
  }
  // The place count may have moved since the read: the answer shows the stored count.
  return (await getPaymentLink(merchantId, paymentLinkId)) ?? after;
}

/**
 * The conditional write that takes one place of a link for a new payment, for the payment's create transaction
 * (`alsoWrite` of shared/storage/payments-repository.ts `createPayment`): `payments_count + 1`, only while the link
 * is active, not expired at `nowIso`, and below its `max_payments`. Two payers racing for the last place: one
 * transaction wins, the other is cancelled whole (no payment).
 * @param nowIso ISO 8601 UTC, the time expiry is judged at
 */
export function linkPlaceReservation(merchantId: string, paymentLinkId: string, nowIso: string): TransactionItem {
  return {
    Update: {
      TableName: tableName(),
      Key: primaryKey.paymentLink(merchantId, paymentLinkId),
      UpdateExpression: 'SET payments_count = payments_count + :one',
      ConditionExpression:
        'active = :true AND (attribute_not_exists(max_payments) OR payments_count < max_payments) AND (attribute_not_exists(link_expires_at) OR link_expires_at > :now)',
      ExpressionAttributeValues: { ':one': 1, ':true': true, ':now': nowIso },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Gives back the place a payment took, once: the decrement and a mark for the payment in one transaction, the mark
 * conditional on not existing yet. A second call for the same payment (a reload, a race) changes nothing.
 * @returns true when the place was given back now
 */
export async function releaseLinkPlace(merchantId: string, paymentLinkId: string, paymentId: string): Promise<boolean> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...primaryKey.paymentLinkRelease(merchantId, paymentLinkId, paymentId), released_at: new Date().toISOString() },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: primaryKey.paymentLink(merchantId, paymentLinkId),
              UpdateExpression: 'SET payments_count = payments_count - :one',
              ConditionExpression: 'payments_count > :zero',
              ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof TransactionCanceledException && err.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed'))
      return false;
    throw err;
  }
}

/** The link of a cancelled create transaction's reservation item (its `ALL_OLD` image), with its status at `nowMs`. */
export function linkOfReservationImage(image: Record<string, unknown> | undefined, nowMs: number): PaymentLink | undefined {
  return image ? toLink(image, nowMs) : undefined;
}
