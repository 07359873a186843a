import { apiHandler } from '../../shared/http/api-handler';
import { getRefund, syncRefund } from '../../shared/operations/refund-operations';
import { forceSyncQuerySchema } from '../../shared/schemas/force-sync-schema';

/**
 * `GET /refunds/{refund_id}`: one refund; 404 when unknown. `?force_sync=true`
 * first reconciles a Pending refund with its connector.
 */
export const handler = apiHandler({ query: forceSyncQuerySchema }, async (req) => ({
  body:
    req.query.force_sync === 'true'
      ? await syncRefund(req.operation, req.path.refund_id ?? '')
      : await getRefund(req.merchantId, req.path.refund_id ?? ''),
}));
