import { type ApiError, invalidRequest } from '../domain/errors';
import { type IdKind, isIdOf } from '../domain/ids';
import { cursorName, type ListQuery, listCursor } from '../domain/list-query';

/** How a list names the items its cursor may point at, in its error: e.g. `{noun: 'invoice', idPhrase: 'an invoice id'}`. */
export interface CursorNames {
  /** The resource as the error names it (`customer`, `refund of this payment`). */
  noun: string;
  /** What the cursor must be, with its article (`a customer id`, `an event id`). */
  idPhrase: string;
}

/**
 * The error for a list cursor (`starting_after` / `ending_before`) that names no item of the list:
 * 400 `resource_missing` with the cursor's name as `param`, never echoing the value sent.
 */
export function unknownCursorError(query: ListQuery, names: CursorNames): ApiError {
  const param = cursorName(query);
  return invalidRequest(
    'resource_missing',
    `No such ${names.noun} for ${param}: it must be ${names.idPhrase} from a previous page.`,
    param,
  );
}

/**
 * The item a list's cursor names, read with `load` (one read, only when the cursor has the id shape of `kind`).
 * @param kind the id kind the cursor must have (`isIdOf`); any other value is unknown without a read
 * @param load reads the item by id (the merchant's own, else undefined)
 * @param belongs whether a found item is in this list (e.g. an invoice of the subscription listed); default: all are
 * @returns undefined when the query has no cursor
 * @throws ApiError 400 `resource_missing` ({@link unknownCursorError}) when no such item is in the list
 */
export async function cursorItem<T>(
  query: ListQuery,
  kind: IdKind,
  names: CursorNames,
  load: (id: string) => Promise<T | undefined>,
  belongs: (item: T) => boolean = () => true,
): Promise<T | undefined> {
  const id = listCursor(query);
  if (!id) return undefined;
  const item = isIdOf(kind, id) ? await load(id) : undefined;
  if (!item || !belongs(item)) throw unknownCursorError(query, names);
  return item;
}
