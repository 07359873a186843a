/**
 * Conditional writes, and what their refusal says. A single-item write whose `ConditionExpression` fails throws
 * `ConditionalCheckFailedException`, carrying the item as it was when the write asked for it
 * (`ReturnValuesOnConditionCheckFailure: ALL_OLD`); a `TransactWriteItems` that DynamoDB cancels throws
 * `TransactionCanceledException` with one reason per item, in the order of `TransactItems` (`ConditionalCheckFailed`
 * with the item as it was when asked, `TransactionConflict`, `None`, …) and writes nothing (Amazon DynamoDB API
 * Reference, UpdateItem and TransactWriteItems, https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html). The helpers here send
 * the write and answer those refusals as values; every other error is thrown as the SDK threw it. The items they
 * return are plain objects (the SDK leaves the items of these errors in DynamoDB's attribute-value form).
 */

import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DeleteCommandInput,
  PutCommand,
  type PutCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient } from './client';

/** What a conditional single-item write did. */
export type ItemWrite =
  /** Written; `attributes` are what the write returned (`ReturnValues`), if it asked for any. */
  | { written: true; attributes: Record<string, unknown> | undefined }
  /**
   * Refused by its condition (nothing written); `current` is the item as it was, when the write asked for it
   * (`ALL_OLD`) and it exists; `error` is the SDK's, for a caller that answers the refusal as a fault.
   */
  | { written: false; current: Record<string, unknown> | undefined; error: ConditionalCheckFailedException };

/** Options of a single-item write. */
export interface ItemWriteOptions {
  /** Aborts the call (the request's own end). */
  abortSignal?: AbortSignal;
}

const plain = (item: Record<string, AttributeValue> | undefined) => (item ? unmarshall(item) : undefined);

/** Sends one single-item write, answering a failed condition as a value. */
async function itemWrite(send: () => Promise<{ Attributes?: Record<string, unknown> }>): Promise<ItemWrite> {
  try {
    return { written: true, attributes: (await send()).Attributes };
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return { written: false, current: plain(err.Item), error: err };
    throw err;
  }
}

/**
 * One PutItem with a `ConditionExpression`.
 * @returns `written: true`, or `written: false` when the condition failed
 * @throws the SDK's error for anything but a failed condition (storage unavailable)
 */
export function conditionalPut(input: PutCommandInput, options?: ItemWriteOptions): Promise<ItemWrite> {
  return itemWrite(() => documentClient().send(new PutCommand(input), options));
}

/**
 * One UpdateItem with a `ConditionExpression`.
 * @returns `written: true` with the attributes asked by `ReturnValues`, or `written: false` (with the item as it was,
 *   when asked by `ReturnValuesOnConditionCheckFailure: ALL_OLD`) when the condition failed
 * @throws the SDK's error for anything but a failed condition (storage unavailable)
 */
export function conditionalUpdate(input: UpdateCommandInput, options?: ItemWriteOptions): Promise<ItemWrite> {
  return itemWrite(() => documentClient().send(new UpdateCommand(input), options));
}

/**
 * One DeleteItem with a `ConditionExpression`.
 * @returns `written: true`, or `written: false` when the condition failed
 * @throws the SDK's error for anything but a failed condition (storage unavailable)
 */
export function conditionalDelete(input: DeleteCommandInput, options?: ItemWriteOptions): Promise<ItemWrite> {
  return itemWrite(() => documentClient().send(new DeleteCommand(input), options));
}

/** The items of a `TransactWriteItems`, as the document client takes them. */
export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** What a conditional transaction did. */
export type TransactionWrite = { written: true } | CancelledTransaction;

/** A transaction DynamoDB cancelled: nothing was written. */
export interface CancelledTransaction {
  written: false;
  /** Per item of `TransactItems`, in order: whether its condition failed (an index past the reasons reads undefined: no). */
  conditionFailed: boolean[];
  /** Per item: the item as it was, when its condition failed and it asked for it (`ReturnValuesOnConditionCheckFailure: ALL_OLD`). */
  current: (Record<string, unknown> | undefined)[];
  /**
   * The SDK's error, to throw when the cancellation is none the caller answers itself (a conflict with another
   * transaction only: the error mapper answers 409 `concurrent_update`).
   */
  error: TransactionCanceledException;
}

/** Options of a transaction. */
export interface TransactionOptions {
  /**
   * Send it again while DynamoDB cancels it only for a conflict with another transaction on the same item
   * (`TransactionConflict`, no condition failed: nothing was written), after a short random wait (5–40 ms, growing),
   * up to {@link CONFLICT_ATTEMPTS} attempts in all: the normal fate of creates racing for one merchant's counter
   * (shared/storage/limit-counters.ts). The last attempt's cancellation is answered.
   */
  retryConflicts?: boolean;
}

/** Attempts of a transaction cancelled only by conflicts with others, when {@link TransactionOptions.retryConflicts} asks: 6. */
const CONFLICT_ATTEMPTS = 6;

/**
 * One TransactWriteItems whose items carry conditions.
 * @returns `written: true`, or the cancellation: which items' conditions failed and those items as they were
 * @throws the SDK's error for anything but a cancellation (storage unavailable, a malformed transaction)
 */
export async function conditionalTransaction(items: TransactItems, options: TransactionOptions = {}): Promise<TransactionWrite> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return { written: true };
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      const conflictOnly =
        reasons.some((r) => r.Code === 'TransactionConflict') && !reasons.some((r) => r.Code === 'ConditionalCheckFailed');
      if (options.retryConflicts && conflictOnly && attempt < CONFLICT_ATTEMPTS) {
        await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10 * attempt));
        continue;
      }
      return {
        written: false,
        conditionFailed: reasons.map((r) => r.Code === 'ConditionalCheckFailed'),
        current: reasons.map((r) => (r.Code === 'ConditionalCheckFailed' ? plain(r.Item) : undefined)),
        error: err,
      };
    }
  }
}
