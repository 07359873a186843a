/**
 * The list envelope of every list endpoint, `{"data": [...], "has_more": bool}`: Stripe's list object
 * (https://docs.stripe.com/api/pagination) without its `object` and `url`; no total count is returned.
 * docs/api.md "Lists";
 * shared/domain/list-query.ts `ListPage`.
 */
import * as z from 'zod';

/**
 * A list envelope component of `item`s.
 * @param item the schema of one element (a component with an `id`)
 * @param id the component id of the list, e.g. `PaymentList`
 * @param noun what the list holds, for the description, e.g. `payments`
 * @returns `z.strictObject({data: z.array(item), has_more: z.boolean()})` with `id` and a description
 */
export function listEnvelope<T extends z.ZodType>(item: T, id: string, noun: string) {
  return z
    .strictObject({
      data: z.array(item).describe(`The ${noun} of this page, newest first (at most \`limit\`).`),
      has_more: z
        .boolean()
        .describe('Whether more items follow this page: ask for the next one with `starting_after` set to the last id of `data`.'),
    })
    .meta({ id, description: `One page of ${noun}, newest first.` });
}
