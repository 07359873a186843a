import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { submitDisputeEvidence } from '../../shared/operations/disputes/dispute-operations';
import { readFileForEvidence } from '../../shared/operations/files/file-operations';
import { disputeEvidenceBodySchema } from '../../shared/schemas/dispute-schemas';

/**
 * `POST /disputes/{dispute_id}/evidence`: relays evidence (its files read from the file store) to the processor, and
 * submits it when `submit`. 200 with the dispute.
 */
export const handler = apiHandler({ body: disputeEvidenceBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await submitDisputeEvidence(req.operation, req.path.dispute_id ?? '', req.body, (merchantId, fileIds) =>
    Promise.all(fileIds.map((id) => readFileForEvidence(merchantId, id))),
  ),
}));
