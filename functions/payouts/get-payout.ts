import { apiHandler } from '../../shared/http/api-handler';
import { getPayout } from '../../shared/operations/payouts/payout-reads';
import { forceSyncQuerySchema } from '../../shared/schemas/force-sync-schema';

/**
 * `GET /payouts/{payout_id}`: one payout (account number as its last 4 digits); 404 when unknown.
 * `?force_sync=true` first reconciles an open payout with its processor, by our reference (never sends it).
 */
export const handler = apiHandler({ query: forceSyncQuerySchema }, async (req) => ({
  body:
    req.query.force_sync === 'true'
      ? // The processor lookup (connectors) is loaded on the first force_sync only.
        await (await import('../../shared/operations/payouts/payout-sync')).syncPayout(req.operation, req.path.payout_id ?? '')
      : await getPayout(req.merchantId, req.path.payout_id ?? ''),
}));
