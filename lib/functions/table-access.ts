import type { TableAccess } from '../../shared/api/routes';

/**
 * Table access levels: the route table's (shared/api/routes.ts, `none` included) plus `settle`, the
 * background reconciler's, and `deliver`, the webhook delivery function's.
 */
export type TableAccessLevel = TableAccess | 'settle' | 'deliver';

/**
 * DynamoDB actions per access level: exactly what the repositories call (no wildcards); `none`
 * grants nothing (no table statement at all: the API reference routes).
 * `settle` is the background reconciler's: it reads and queries (its open-operations index,
 * GSI5, included), and settles with conditional puts, updates and deletes, some inside
 * TransactWriteItems, which IAM authorizes per item action (Put/Update/Delete/ConditionCheckItem;
 * DynamoDB developer guide, "Using IAM with DynamoDB transactions"). Not to be confused with
 * `reconcile`, the API's own retrieve-with-`force_sync`. `deliver` is the webhook delivery
 * function's: it reads events and endpoints (GetItem, Query, indexes included) and records
 * deliveries and endpoint state with PutItem/UpdateItem; it never deletes and writes no
 * transactions.
 */
export const TABLE_ACTIONS: Readonly<Record<TableAccessLevel, readonly string[]>> = {
  none: [],
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  reconcile: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
  settle: [
    'dynamodb:GetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
  deliver: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
};
