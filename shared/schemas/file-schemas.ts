/**
 * The file resource (dispute evidence; Stripe's File object, a subset): the one definition of its
 * shape, as `POST /files` and `GET /files/{file_id}` answer it. shared/domain/file.ts derives the type
 * (`import type`). Metadata only: no field ever carries or links to the bytes.
 */
import * as z from 'zod';
import { FILE_PURPOSES, FILE_RETENTION_DAYS, FILE_TYPES, MAX_FILE_BYTES } from '../domain/file';
import { idField, timestampField } from './resource-fields';

/** Component `File`. */
export const FileResource = z
  .strictObject({
    file_id: idField('file', 'The file'),
    purpose: z.enum(FILE_PURPOSES).describe('What the file is for: `dispute_evidence` (name it in a dispute’s evidence).'),
    filename: z.string().describe('The name it was uploaded with (its last path segment; control characters removed).'),
    size: z.int().min(1).max(MAX_FILE_BYTES).describe(`Its size in bytes (at most ${MAX_FILE_BYTES}, 4 MiB).`),
    type: z
      .enum(FILE_TYPES)
      .describe('Its type, read from its content (not its name): `pdf` (application/pdf), `png` (image/png) or `jpg` (image/jpeg).'),
    created_at: timestampField('When it was uploaded.'),
    expires_at: timestampField(
      `When it is deleted: ${FILE_RETENTION_DAYS} days after its upload (the bytes may remain until the next day's lifecycle run).`,
    ),
  })
  .meta({
    id: 'File',
    description:
      'A file uploaded with `POST /files` (Stripe’s File object, a subset): its metadata. The bytes are kept private and passed only to the processor a dispute is answered to; the API never serves them.',
  });

/**
 * Body of `POST /files` as the API documents it (`multipart/form-data`: the form's fields). Documentation only: the
 * handler reads the form itself (functions/files/create-file.ts) and checks the file's bytes.
 */
export const createFileBodySchema = z.strictObject({
  purpose: z.enum(FILE_PURPOSES),
  file: z.string().meta({ format: 'binary', contentMediaType: 'application/octet-stream' }),
});
