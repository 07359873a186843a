/**
 * Reads a `multipart/form-data` body (RFC 7578), as `POST /files` takes it (Stripe's `purpose` and `file`
 * fields), with @fastify/busboy (the parser @middy/http-multipart-body-parser wraps). That middleware is not
 * used: the API's handler wrapper (shared/http/api-handler.ts) refuses bodies over 64 KiB before any parser
 * runs, so `POST /files` takes its body off the event first (functions/files/create-file.ts) and parses it
 * here, after authentication; and the middleware answers every malformed body with a generic 415.
 * Every refusal here is a 400 or 415 {@link ApiError} whose message never repeats the body.
 */
import { createHash } from 'node:crypto';
import { Busboy } from '@fastify/busboy';
import { ApiError, invalidRequest } from '../domain/errors';
import { MAX_FILE_BYTES } from '../domain/file';
import { parseMediaType } from './request-body';

/** One file part. */
export interface FormFile {
  field: string;
  /** The part's `filename` (as sent; cleaned by the operation). */
  filename: string | undefined;
  /** The part's declared `content-type`. */
  mediaType: string | undefined;
  content: Buffer;
  /** Whether the content went past {@link MAX_FILE_BYTES} (then it is cut there). */
  truncated: boolean;
}

/** A parsed form: its text fields (the first of each name) and its file parts. */
export interface MultipartForm {
  fields: Map<string, string>;
  files: FormFile[];
}

/** Limits of the parser: one file, a few short fields (a longer field value is cut and refused). */
const LIMITS = { files: 1, fields: 8, parts: 9, fieldSize: 1024, fieldNameSize: 100, headerPairs: 20, fileSize: MAX_FILE_BYTES } as const;

/** 415: not a multipart form. */
export const notMultipart = () =>
  new ApiError(
    415,
    'invalid_request_error',
    'unsupported_media_type',
    'Send the file as multipart/form-data, with the fields purpose and file (e.g. curl -F purpose=dispute_evidence -F file=@evidence.pdf).',
  );

/** 400: a multipart body that cannot be read. */
export const invalidMultipart = (detail: string) =>
  invalidRequest('invalid_multipart', `The multipart/form-data body cannot be read: ${detail}. Send the fields purpose and file.`);

/**
 * Parses a whole multipart body.
 * @param body the raw bytes (base64 already decoded)
 * @param contentType the request's `content-type` header
 * @throws ApiError 415 `unsupported_media_type` when it is not `multipart/form-data` with a boundary;
 *   400 `invalid_multipart` for a malformed body, more than one file, or too many or too long fields
 */
export async function parseMultipartForm(body: Buffer, contentType: string | undefined): Promise<MultipartForm> {
  const type = parseMediaType(contentType);
  if (type?.essence !== 'multipart/form-data') throw notMultipart();
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({ headers: { 'content-type': contentType as string }, limits: LIMITS });
  } catch {
    throw notMultipart(); // no boundary parameter
  }
  return new Promise<MultipartForm>((resolvePromise, reject) => {
    const fields = new Map<string, string>();
    const files: FormFile[] = [];
    const pending: Promise<void>[] = [];
    let failure: ApiError | undefined;
    const fail = (err: ApiError) => {
      failure ??= err;
    };
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      pending.push(
        new Promise<void>((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.push({ field, filename, mediaType: mimeType, content: Buffer.concat(chunks), truncated: stream.truncated === true });
            done();
          });
          stream.on('error', () => done());
        }),
      );
    });
    parser.on('field', (field, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) fail(invalidMultipart(`the field ${/^[a-z_]{1,40}$/.test(field) ? field : 'sent'} is too long`));
      if (!fields.has(field)) fields.set(field, value);
    });
    parser.on('filesLimit', () => fail(invalidMultipart('it holds more than one file')));
    parser.on('fieldsLimit', () => fail(invalidMultipart('it holds too many fields')));
    parser.on('partsLimit', () => fail(invalidMultipart('it holds too many parts')));
    parser.on('error', () => {
      fail(invalidMultipart('it is malformed or cut short'));
      reject(failure);
    });
    parser.on('finish', () => {
      Promise.all(pending).then(() => (failure ? reject(failure) : resolvePromise({ fields, files })));
    });
    parser.end(body);
  });
}

/** What an upload is compared by under one Idempotency-Key ({@link uploadIdentity}). */
export interface UploadIdentity {
  /** The text fields, by name. */
  fields: Record<string, string>;
  /** Each file part: its field name, file name, declared content type and the SHA-256 (hex) of its bytes. */
  files: { field: string; filename: string | null; content_type: string | null; sha256: string; truncated: boolean }[];
}

/**
 * What makes two uploads the same request: their parts — field names and values, file names, declared content
 * types and the SHA-256 of each file's bytes — never the raw body, whose multipart boundary (RFC 7578 §4.1: chosen
 * by the client, and fresh on each retry by most clients, the SDK's FormData included) and part order differ
 * between two sends of the same file.
 */
export function uploadIdentity(form: MultipartForm): UploadIdentity {
  return {
    fields: Object.fromEntries(form.fields),
    files: form.files.map((f) => ({
      field: f.field,
      filename: f.filename ?? null,
      content_type: f.mediaType ?? null,
      sha256: createHash('sha256').update(f.content).digest('hex'),
      truncated: f.truncated,
    })),
  };
}
