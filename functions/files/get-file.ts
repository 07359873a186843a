import { apiHandler } from '../../shared/http/api-handler';
import { getFile } from '../../shared/operations/files/file-operations';

/** `GET /files/{file_id}`: a file's metadata (`File`); 404 when it is not one of the merchant's files. The bytes are never served. */
export const handler = apiHandler({}, async (req) => ({ body: await getFile(req.merchantId, req.path.file_id ?? '') }));
