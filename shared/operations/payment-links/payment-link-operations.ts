/**
 * The payment links API: create, read, list, deactivate (docs/api.md "Payment links"). The checkout page that pays a
 * link is in ./checkout.ts.
 */
import { resourceNotFound } from '../../domain/errors';
import { isIdOf, newId } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import { checkoutPath, type PaymentLink } from '../../domain/payment-link';
import type { CreatePaymentLinkBody } from '../../schemas/payment-link-schemas';
import {
  listPaymentLinks as queryLinks,
  getPaymentLink as readLink,
  deactivatePaymentLink as storeDeactivation,
  createPaymentLink as storeLink,
} from '../../storage/payment-links-repository';
import { cursorItem } from '../list-cursor';
import type { RequestContext } from '../request-context';

/**
 * Creates a link (active, no payment yet). Its `url` is the checkout page under the API's public base URL as the
 * request reached it.
 * @param body validated by `createPaymentLinkBodySchema` (amount or amount_min/amount_max, a future expires_at)
 */
export async function createPaymentLink(ctx: RequestContext, body: CreatePaymentLinkBody): Promise<PaymentLink> {
  const now = new Date().toISOString();
  const id = newId('paymentLink');
  const link: PaymentLink = {
    payment_link_id: id,
    url: `${ctx.publicBaseUrl}${checkoutPath(id)}`,
    active: true,
    status: 'active',
    amount: body.amount ?? null,
    amount_min: body.amount === undefined ? (body.amount_min ?? null) : null,
    amount_max: body.amount === undefined ? (body.amount_max ?? null) : null,
    currency: body.currency,
    description: body.description ?? null,
    payment_methods: body.payment_methods ?? null,
    expires_at: body.expires_at ?? null,
    max_payments: body.max_payments ?? null,
    payments_count: 0,
    return_url: body.return_url ?? null,
    customer_fields: body.customer_fields ?? [],
    metadata: body.metadata ?? {},
    created_at: now,
    updated_at: now,
  };
  return storeLink(ctx.merchantId, link, ctx.listShards?.write);
}

/**
 * One link of the merchant, its status as of now.
 * @throws ApiError 404 when the merchant has no such link (another merchant's included)
 */
export async function getPaymentLink(merchantId: string, paymentLinkId: string): Promise<PaymentLink> {
  const link = isIdOf('paymentLink', paymentLinkId) ? await readLink(merchantId, paymentLinkId) : undefined;
  if (!link) throw resourceNotFound('payment link', 'payment_link_id');
  return link;
}

/**
 * The merchant's links, newest first, optionally only the active or the deactivated ones.
 * @throws ApiError 400 `resource_missing` for an unknown cursor
 */
export async function listPaymentLinks(
  merchantId: string,
  query: ListQuery,
  filters: { active?: boolean },
): Promise<ListPage<PaymentLink>> {
  const after = await cursorItem(query, 'paymentLink', { noun: 'payment link', idPhrase: 'a payment link id' }, (id) =>
    readLink(merchantId, id),
  );
  return queryLinks(merchantId, query, filters, after);
}

/**
 * Deactivates a link for good: its page answers 410 and creates nothing; payments already made are untouched.
 * Deactivating an inactive link answers it unchanged (no second event).
 * @throws ApiError 404 when the merchant has no such link
 */
export async function deactivatePaymentLink(ctx: RequestContext, paymentLinkId: string): Promise<PaymentLink> {
  const link = isIdOf('paymentLink', paymentLinkId)
    ? await storeDeactivation(ctx.merchantId, paymentLinkId, ctx.listShards?.write)
    : undefined;
  if (!link) throw resourceNotFound('payment link', 'payment_link_id');
  return link;
}
