import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { MAX_UPLOAD_BODY_BYTES } from '../../shared/domain/file';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { invalidMultipart, type MultipartForm, parseMultipartForm, uploadIdentity } from '../../shared/http/multipart-form';
import { checkFilePurpose, createFile, fileMissing, fileTooLarge } from '../../shared/operations/files/file-operations';

/** Each request's multipart body, taken off its event before the shared chain runs (see {@link handler}). */
const uploads = new WeakMap<APIGatewayProxyEventV2, Buffer>();

/** Each request's parsed form, parsed once (by the Idempotency-Key comparison, or by the handler). */
const forms = new WeakMap<APIGatewayProxyEventV2, Promise<MultipartForm>>();

/**
 * The request's form, parsed once, after authentication.
 * @throws ApiError 400 `file_too_large` for a body over the upload limit (unread); the parser's 400/415
 */
function formOf(event: APIGatewayProxyEventV2): Promise<MultipartForm> {
  let form = forms.get(event);
  if (!form) {
    const raw = uploads.get(event) ?? Buffer.alloc(0);
    form = raw.length > MAX_UPLOAD_BODY_BYTES ? Promise.reject(fileTooLarge()) : parseMultipartForm(raw, event.headers?.['content-type']);
    form.catch(() => undefined); // rejected here only once; awaited (and answered) by the caller
    forms.set(event, form);
  }
  return form;
}

/**
 * Uploads under one Idempotency-Key are compared by their parts (shared/http/multipart-form.ts
 * `uploadIdentity`), not by the raw body: a client retrying with a new multipart boundary sends the same request.
 */
const upload = apiHandler(
  { idempotency: () => idempotentRequests({ payload: async (event) => uploadIdentity(await formOf(event)) }) },
  async (req) => {
    const form = await formOf(req.event);
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
  },
);

/**
 * `POST /files` (Stripe's, `multipart/form-data` with `purpose` and `file`): stores a dispute evidence file
 * (PDF, PNG or JPEG, at most 4 MiB, its type read from its content) and answers its metadata (`File`); the
 * bytes are never served back. Runs the shared chain (shared/http/api-handler.ts: version, authentication,
 * rate limit, Idempotency-Key, error mapping, request log), whose 64 KiB JSON body limit an upload would
 * exceed: the body is taken off the event first, kept aside for this request, and replaced by its SHA-256
 * (hex), so nothing in the chain (the event log, the Idempotency-Key's body hash) ever holds the bytes. The form is
 * parsed after authentication, once; a body over the upload limit is refused unread (400 `file_too_large`). Under
 * an Idempotency-Key an upload is compared by its parts (field names and values, file names, content types, the
 * SHA-256 of the file), so a retry that drew a new multipart boundary answers the same file, and the same key with
 * another file is still 422 `idempotency_key_reused`.
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
