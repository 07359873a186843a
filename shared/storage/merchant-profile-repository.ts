/**
 * The merchant profile in the table: one item per merchant (`PROFILE`) holding its checkout display. Read by the
 * checkout pages (one strongly consistent GetItem), written whole by `PUT /merchant_profile`.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type CheckoutDisplay, DEFAULT_CHECKOUT_DISPLAY } from '../domain/merchant-profile';
import { documentClient } from './client';
import { primaryKey } from './item-keys';
import { tableName } from './table-definition';

/** The merchant's checkout display; the default (nothing set, never framed) when it has none. */
export async function getCheckoutDisplay(merchantId: string): Promise<CheckoutDisplay> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.merchantProfile(merchantId), ConsistentRead: true }),
  );
  const item = out.Item;
  if (!item) return DEFAULT_CHECKOUT_DISPLAY;
  return {
    display_name: typeof item.display_name === 'string' ? item.display_name : null,
    logo_url: typeof item.logo_url === 'string' ? item.logo_url : null,
    brand_color: typeof item.brand_color === 'string' ? item.brand_color : null,
    allowed_domains: Array.isArray(item.allowed_domains) ? (item.allowed_domains as string[]) : [],
  };
}

/**
 * Replaces the merchant's checkout display (one PutItem: the last write wins, as a settings page does).
 * @param nowIso ISO 8601 UTC, kept as `updated_at`
 */
export async function putCheckoutDisplay(merchantId: string, display: CheckoutDisplay, nowIso: string): Promise<void> {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(display)) if (v !== null && !(Array.isArray(v) && v.length === 0)) fields[k] = v;
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...primaryKey.merchantProfile(merchantId),
        entity: 'merchant_profile',
        merchant_id: merchantId,
        ...fields,
        updated_at: nowIso,
      },
    }),
  );
}
