/**
 * The customer resource as the API answers it, and the answer of its deletion: the one
 * definition of their shape. shared/domain/customer.ts derives `Customer` from it
 * (`import type`). Fields in the order of `CUSTOMER_FIELDS`; absent values are `null`,
 * metadata `{}`. docs/api.md "Customers".
 */
import * as z from 'zod';
import { deletedAnswer, idField, MetadataResource, nullableText, timestampField } from './resource-fields';

/** Component `Customer`. */
export const CustomerResource = z
  .strictObject({
    customer_id: idField('cus', 'The customer'),
    email: nullableText('E-mail address (at most 254 characters), or null.'),
    name: nullableText('Name (at most 256 characters), or null.'),
    phone: nullableText('Telephone number in E.164 form (`+2348012345678`), or null.'),
    description: nullableText('Description (at most 1000 characters), or null.'),
    test_clock: idField('clock', 'The test clock it lives on')
      .nullable()
      .describe('The test clock it lives on (`clock_…`, non-prod stages; set at create), or null.'),
    metadata: MetadataResource,
    created_at: timestampField('When the customer was created.'),
    updated_at: timestampField('When the customer last changed.'),
  })
  .meta({ id: 'Customer', description: 'A customer of the merchant. Its payments name it in `customer_id`.' });

/** Component `DeletedCustomer`: `{customer_id, deleted: true}` (also the `data` of `customer.deleted`). */
export const DeletedCustomerResource = deletedAnswer('customer_id', 'cus', 'customer', 'DeletedCustomer');
