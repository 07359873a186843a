/**
 * Auto-pagination, as Stripe's SDKs do: a list call answers a {@link ListPromise}, which is both the first
 * page (`await client.payments.list()`) and every item of every page in order
 * (`for await (const payment of client.payments.list({ limit: 100 }))`), fetching the next page with
 * `starting_after` set to the last item's id only when the previous one is used up.
 */

/** A page of a list: `data` newest first, and whether more follow. */
export interface ListPage<Item> {
  data: Item[];
  has_more: boolean;
}

/**
 * The first page of a list (a Promise: awaited, it is the page), and all its items (iterated with `for await`). The
 * first page is requested at once, as Stripe's SDKs do.
 */
export class ListPromise<Item, Page extends ListPage<Item>> extends Promise<Page> implements AsyncIterable<Item> {
  /** `then`/`catch` answer plain Promises (not ListPromises). */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #fetchPage: (startingAfter: string | undefined) => Promise<Page>;
  readonly #idOf: (item: Item) => string;

  /**
   * @param fetchPage fetches one page: the first with `undefined`, the next ones after an item id
   * @param idOf the id of an item (its `payment_id`, `refund_id`, …), the next page's `starting_after`
   */
  constructor(fetchPage: (startingAfter: string | undefined) => Promise<Page>, idOf: (item: Item) => string) {
    super((resolve, reject) => {
      fetchPage(undefined).then(resolve, reject);
    });
    this.#fetchPage = fetchPage;
    this.#idOf = idOf;
  }

  /** Every item of every page, in order; each page fetched when the previous one is used up. */
  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page: Page = await this;
    for (;;) {
      for (const item of page.data) yield item;
      const last = page.data.at(-1);
      if (!page.has_more || last === undefined) return;
      page = await this.#fetchPage(this.#idOf(last));
    }
  }
}
