import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { MAX_UPLOAD_BODY_BYTES } from '../../shared/domain/file';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { checkFilePurpose, createFile, fileMissing, fileTooLarge } from '../../shared/operations/files/file-operations';
import { invalidMultipart, parseMultipartForm } from '../../shared/operations/files/multipart-form';

/** Each request's multipart body, taken off its event before the shared chain runs (see {@link handler}). */
const uploads = new WeakMap<APIGatewayProxyEventV2, Buffer>();

const upload = apiHandler({ idempotency: idempotentRequests }, async (req) => {
  const raw = uploads.get(req.event) ?? Buffer.alloc(0);
  if (raw.length > MAX_UPLOAD_BODY_BYTES) throw fileTooLarge();
  const form = await parseMultipartForm(raw, req.event.headers?.['content-type']);
  const [file] = form.files;
  if (file && file.field !== 'file') throw invalidMultipart('its file part must be named file');
  if (!file) {
    checkFilePurpose(form.fields.get('purpose'));
    throw fileMissing();
  }
  return {
    body: await createFile(req.operation, {
      purpose: form.fields.get('purpose'),
      filename: file.filename,
      mediaType: file.mediaType,
      bytes: file.content,
      truncated: file.truncated,
    }),
  };
});

/**
 * `POST /files` (Stripe's, `multipart/form-data` with `purpose` and `file`): stores a dispute evidence file
 * (PDF, PNG or JPEG, at most 4 MiB, its type read from its content) and answers its metadata (`File`); the
 * bytes are never served back. Runs the shared chain (shared/http/api-handler.ts: version, authentication,
 * rate limit, Idempotency-Key, error mapping, request log), whose 64 KiB JSON body limit an upload would
 * exceed: the body is taken off the event first, kept aside for this request, and replaced by its SHA-256
 * (hex), so nothing in the chain (the event log, the Idempotency-Key's body hash) ever holds the bytes, and a
 * retry with the same key and another file is still told apart (422 `idempotency_key_reused`). The form is
 * parsed after authentication; a body over the upload limit is refused unread (400 `file_too_large`).
 */
export async function handler(event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> {
  if (typeof event.body === 'string' && event.body !== '') {
    const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
    uploads.set(event, raw);
    event.body = createHash('sha256').update(raw).digest('hex');
    event.isBase64Encoded = false;
  }
  return upload(event, context);
}
