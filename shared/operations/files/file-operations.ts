/**
 * Files (dispute evidence): upload (`POST /files`), metadata (`GET /files/{file_id}`), and the read
 * the dispute operations make to pass a file to a processor. The bytes go to the file store
 * (shared/storage/file-store.ts) before the metadata item is written (shared/storage/files-repository.ts):
 * a failure in between leaves at most an object no item names, which the bucket's lifecycle rule deletes
 * (lib/data-stack.ts); an item never names bytes that were not stored.
 */
import { containsCardNumber } from '../../domain/card';
import { invalidRequest, resourceNotFound } from '../../domain/errors';
import {
  cleanFilename,
  detectFileType,
  FILE_PURPOSES,
  type FileObject,
  type FilePurpose,
  fileExpiry,
  fileTypeOfMediaType,
  GENERIC_MEDIA_TYPES,
  MAX_FILE_BYTES,
  MEDIA_TYPE_OF,
} from '../../domain/file';
import { isIdOf, newId } from '../../domain/ids';
import { NO_CARD_NUMBERS } from '../../schemas/card-number-refinement';
import { fileStore } from '../../storage/file-store';
import * as files from '../../storage/files-repository';
import type { RequestContext } from '../request-context';

/** What an upload carries. */
export interface CreateFileInput {
  /** The form's `purpose` (undefined when absent). */
  purpose: string | undefined;
  /** The file part's `filename`. */
  filename: string | undefined;
  /** The file part's declared `content-type` (checked against the content when it names a type). */
  mediaType: string | undefined;
  bytes: Buffer;
  /** Whether the bytes were cut at {@link MAX_FILE_BYTES} while reading (the file is larger). */
  truncated?: boolean;
}

/** 400 `file_too_large`, param `file`. */
export const fileTooLarge = () =>
  invalidRequest(
    'file_too_large',
    `The file is larger than ${MAX_FILE_BYTES} bytes (4 MiB), the most a file may be. Send a smaller or compressed file.`,
    'file',
  );

/**
 * Checks an upload's `purpose`.
 * @throws ApiError 400 `parameter_missing` when absent, `parameter_invalid` when not `dispute_evidence` (param `purpose`)
 */
export function checkFilePurpose(purpose: string | undefined): FilePurpose {
  if (purpose === undefined || purpose === '') throw invalidRequest('parameter_missing', 'Missing required parameter: purpose.', 'purpose');
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose))
    throw invalidRequest('parameter_invalid', `Invalid purpose: must be one of ${FILE_PURPOSES.join(', ')}.`, 'purpose');
  return purpose as FilePurpose;
}

/** 400 `parameter_missing`, param `file`: the form has no file part. */
export const fileMissing = () =>
  invalidRequest('parameter_missing', 'Missing required parameter: file (a file part, e.g. curl -F file=@evidence.pdf).', 'file');

/**
 * Checks and stores an uploaded file.
 * @returns the new file's metadata
 * @throws ApiError 400 `parameter_missing` (`purpose` or `file` absent), `parameter_invalid` (`purpose` not
 *   `dispute_evidence`), `file_too_large` (over {@link MAX_FILE_BYTES}), `file_empty`,
 *   `file_type_unsupported` (content not PDF, PNG or JPEG, or not the type its part declares), `parameter_invalid`
 *   (`file`: its name holds a card number, as sent or once cleaned), all with the offending field in `param`; the store's or the table's failures as they are (mapped to 503)
 */
export async function createFile(ctx: Pick<RequestContext, 'merchantId'>, input: CreateFileInput): Promise<FileObject> {
  const purpose = checkFilePurpose(input.purpose);
  if (input.truncated || input.bytes.length > MAX_FILE_BYTES) throw fileTooLarge();
  if (input.bytes.length === 0) throw invalidRequest('file_empty', 'The file is empty. Send a PDF, PNG or JPEG file.', 'file');
  const type = detectFileType(input.bytes);
  if (!type)
    throw invalidRequest(
      'file_type_unsupported',
      'The file is not a PDF, PNG or JPEG file (its content is read, not its name). Send one of those types.',
      'file',
    );
  const declared = input.mediaType?.trim().toLowerCase() ?? '';
  if (!GENERIC_MEDIA_TYPES.has(declared) && fileTypeOfMediaType(declared) !== type)
    throw invalidRequest(
      'file_type_unsupported',
      `The file's content is ${MEDIA_TYPE_OF[type]}, not the type its part declares. Declare ${MEDIA_TYPE_OF[type]} (or application/octet-stream), or send a PDF, PNG or JPEG file.`,
      'file',
    );
  const filename = cleanFilename(input.filename, type);
  if (containsCardNumber(input.filename ?? '') || containsCardNumber(filename))
    throw invalidRequest(
      'parameter_invalid',
      `The file's name ${NO_CARD_NUMBERS}. Rename the file (its name is stored and answered) and upload it again.`,
      'file',
    );
  const now = new Date();
  const file: FileObject = {
    file_id: newId('file'),
    purpose,
    filename,
    size: input.bytes.length,
    type,
    created_at: now.toISOString(),
    expires_at: fileExpiry(now).toISOString(),
  };
  await (await fileStore()).put(ctx.merchantId, file.file_id, input.bytes, MEDIA_TYPE_OF[type]);
  await files.putFile(ctx.merchantId, file);
  return file;
}

/**
 * A file's metadata (never its bytes).
 * @throws ApiError 404 `resource_missing` (param `file_id`) when it is not one of this merchant's files
 */
export async function getFile(merchantId: string, fileId: string): Promise<FileObject> {
  const file = isIdOf('file', fileId) ? await files.getFile(merchantId, fileId) : undefined;
  if (!file) throw resourceNotFound('file', 'file_id');
  return file;
}

/** A file as the dispute operations pass it to a processor. */
export interface EvidenceFile {
  fileId: string;
  filename: string;
  /** `application/pdf`, `image/png` or `image/jpeg`. */
  mediaType: string;
  content: Buffer;
}

/**
 * Reads one of the merchant's files, bytes included, for a dispute's evidence.
 * @param param the request field that named the file, for the error (default `evidence`; e.g. `evidence.receipt`)
 * @throws ApiError 400 `resource_missing` (param `evidence`) when the id is not one of this merchant's files,
 *   or its bytes are gone (expired)
 */
export async function readFileForEvidence(merchantId: string, fileId: string, param = 'evidence'): Promise<EvidenceFile> {
  const missing = () =>
    invalidRequest(
      'resource_missing',
      `No such file. Check ${param}: each file must be the id of a file of your account uploaded with POST /files (purpose dispute_evidence), as this API returned it.`,
      param,
    );
  const file = isIdOf('file', fileId) ? await files.getFile(merchantId, fileId) : undefined;
  if (!file || file.purpose !== 'dispute_evidence') throw missing();
  const content = await (await fileStore()).get(merchantId, fileId);
  if (!content) throw missing();
  return { fileId: file.file_id, filename: file.filename, mediaType: MEDIA_TYPE_OF[file.type], content };
}
