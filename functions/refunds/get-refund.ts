import { apiHandler } from '../../shared/http/api-handler';
import { getRefund } from '../../shared/operations/refunds/refund-reads';
import { forceSyncQuerySchema } from '../../shared/schemas/force-sync-schema';

/**
 * `GET /refunds/{refund_id}`: one refund; 404 when unknown. `?force_sync=true`
 * first reconciles a Pending refund with its connector.
 */
export const handler = apiHandler({ query: forceSyncQuerySchema }, async (req) => ({
  body:
    req.query.force_sync === 'true'
      ? // The processor sync (routing, connectors) is loaded on the first force_sync only, so a plain read's cold start carries none of it.
        await (await import('../../shared/operations/refunds/refund-sync')).syncRefund(req.operation, req.path.refund_id ?? '')
      : await getRefund(req.merchantId, req.path.refund_id ?? ''),
}));
