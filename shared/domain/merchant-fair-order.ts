/**
 * Fair order across merchants for work that one merchant could otherwise flood (so that one merchant's
 * failing endpoints never delay another's deliveries; docs/api.md "Webhook delivery"): the reconciler hands due webhook retries to the delivery
 * queue in this order, so a merchant with thousands of due retries takes one turn in each round like
 * any other, and a run's cap cuts the flood, not the others.
 */

/**
 * Interleaves items by merchant, round-robin: the first item of each merchant (merchants in the order
 * of their first item), then the second of each, and so on; each merchant's items keep their order.
 * @param items e.g. due deliveries sorted by due time
 * @returns the same items, reordered
 */
export function interleaveByMerchant<T extends { merchantId: string }>(items: readonly T[]): T[] {
  const byMerchant = new Map<string, T[]>();
  for (const item of items) {
    const list = byMerchant.get(item.merchantId);
    if (list) list.push(item);
    else byMerchant.set(item.merchantId, [item]);
  }
  const lists = [...byMerchant.values()];
  const out: T[] = [];
  for (let round = 0; out.length < items.length; round += 1) {
    for (const list of lists) {
      const item = list[round];
      if (item !== undefined) out.push(item);
    }
  }
  return out;
}
