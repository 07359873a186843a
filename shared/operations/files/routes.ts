/**
 * The file routes (`/files…`): dispute evidence files, kept private and passed to processors only when a
 * dispute is answered. Data read by shared/api/routes.ts: schemas, the domain and shared/api's route types only.
 */
import { AUTHENTICATED, IDEMPOTENT, JSON_ROUTE, mergeErrors, NOT_FOUND } from '../../api/operation-errors';
import { json, replayed } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { createFileBodySchema, FileResource } from '../../schemas/file-schemas';

/** The file routes, in the route table's order. */
export const FILE_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/files',
    entry: 'functions/files/create-file.ts',
    name: 'CreateFile',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'createFile',
      tag: 'Disputes',
      summary: 'Upload a file',
      description:
        'Uploads a dispute evidence file (Stripe’s `POST /v1/files`): `multipart/form-data` with `purpose` (`dispute_evidence`) and `file`, a PDF, PNG or JPEG of at most 4 MiB (Lambda’s 6 MB payload, base64-encoded). The type is read from the content, not the name. Answers the metadata; the bytes are kept private (never served back) and are passed to the processor only when a dispute is answered with the file’s id. Kept 400 days.',
      body: {
        schema: createFileBodySchema,
        required: true,
        mediaType: 'multipart/form-data',
        description: 'The purpose and the file.',
        fields: {
          purpose: 'What the file is for: `dispute_evidence`.',
          file: 'The file: a PDF, PNG or JPEG, at most 4 MiB.',
        },
      },
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: replayed(json(FileResource, 'The file.')) },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, IDEMPOTENT, {
        400: ['parameter_missing', 'parameter_invalid', 'file_too_large', 'file_empty', 'file_type_unsupported', 'invalid_multipart'],
        415: ['unsupported_media_type'],
      }),
    },
  },
  {
    method: 'GET',
    path: '/files/{file_id}',
    entry: 'functions/files/get-file.ts',
    name: 'GetFile',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getFile',
      tag: 'Disputes',
      summary: 'Retrieve a file',
      description: 'A file’s metadata. The bytes are never served.',
      pathParams: { file_id: 'The file id (`file_…`).' },
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(FileResource, 'The file.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
];
