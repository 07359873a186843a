/**
 * Uploaded files (dispute evidence): Stripe's File object, the subset Switchyard needs, and the
 * limits an upload must keep. The shape is shared/schemas/file-schemas.ts (`FileResource`, component `File`).
 *
 * Sources:
 * - Stripe, "File upload guide" (https://docs.stripe.com/file-upload, table of purposes): `dispute_evidence`
 *   takes PDF, JPEG and PNG, at most 5 MB a file, and Stripe keeps it 9 months. The limit is per file
 *   (the table's "Max size"), not a total over a dispute's evidence.
 * - AWS Lambda, `Invoke` API reference and "Lambda quotas": a synchronous invocation's payload is at most
 *   6 MB. API Gateway HTTP APIs hand a `multipart/form-data` body to Lambda base64-encoded
 *   (`isBase64Encoded: true`, scripts/local/gateway.ts), 4/3 of its size: a 5 MB file is a 6.7 MB event
 *   and never reaches the function (API Gateway answers its own 5xx). Hence {@link MAX_FILE_BYTES} is
 *   4 MiB: its base64 form, the multipart framing and the event's other fields stay under 6 MB, and every
 *   file accepted here is also within Stripe's 5 MB.
 */

/**
 * A file as the API returns it (component `File`, shared/schemas/file-schemas.ts): metadata only; the bytes are
 * never served. `size` in bytes; timestamps ISO 8601 UTC.
 */
export interface FileObject {
  /** `file_…` */
  file_id: string;
  purpose: FilePurpose;
  filename: string;
  size: number;
  type: FileType;
  created_at: string;
  expires_at: string;
}

/** What a file may be uploaded for (Stripe's `purpose`; only dispute evidence here). */
export const FILE_PURPOSES = ['dispute_evidence'] as const;
/** One of {@link FILE_PURPOSES}. */
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/** The file types accepted (Stripe's `type` values), each with its media type. */
export const FILE_TYPES = ['pdf', 'png', 'jpg'] as const;
/** One of {@link FILE_TYPES}. */
export type FileType = (typeof FILE_TYPES)[number];

/** The media type of each {@link FileType}. */
export const MEDIA_TYPE_OF: Readonly<Record<FileType, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
};

/** Largest file accepted: 4 MiB (4,194,304 bytes); see the module comment for why not Stripe's 5 MB. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Largest `POST /files` body read: the file plus room for the multipart framing and the `purpose` field.
 * A larger body is refused as `file_too_large` before it is parsed.
 */
export const MAX_UPLOAD_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024;

/** Longest file name kept (characters); a longer one is cut, keeping its extension. */
export const MAX_FILENAME_LENGTH = 200;

/**
 * How long a file is kept: 400 days from its upload, then the bucket's lifecycle rule deletes the bytes
 * and the table's TTL the metadata (`expires_at`). Longer than Stripe's 9 months so evidence outlives a
 * dispute's whole life: a chargeback may be raised up to 120 days after the charge (Visa and Mastercard
 * time limits), then pre-arbitration and arbitration each add their own response windows.
 */
export const FILE_RETENTION_DAYS = 400;

/**
 * The file's type read from its first bytes (its "magic number"), never from its name or declared media type:
 * - PDF: `%PDF-` (ISO 32000-1 §7.5.2, the file header);
 * - PNG: the 8-byte signature `89 50 4E 47 0D 0A 1A 0A` (PNG specification §5.2);
 * - JPEG: `FF D8 FF`, the SOI marker followed by the first segment's marker (ITU T.81 Annex B).
 *
 * Three fixed prefixes are domain code here rather than a dependency: `file-type`, the well-kept detector
 * on npm, is ESM-only while the tests run as CommonJS (ts-jest), and these three types are all an evidence
 * file may be.
 * @returns undefined for anything else (an empty file included)
 */
export function detectFileType(bytes: Uint8Array): FileType | undefined {
  const starts = (prefix: readonly number[]) => bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpg';
  return undefined;
}

/**
 * The file type a declared media type names (`image/jpg`, a common misspelling, included), or undefined
 * for another or a generic one (`application/octet-stream`), which declares nothing to check.
 */
export function fileTypeOfMediaType(mediaType: string | undefined): FileType | undefined {
  switch (mediaType?.trim().toLowerCase()) {
    case 'application/pdf':
      return 'pdf';
    case 'image/png':
      return 'png';
    case 'image/jpeg':
    case 'image/jpg':
    case 'image/pjpeg':
      return 'jpg';
    default:
      return undefined;
  }
}

/** Media types that declare nothing about the content (a client that does not know the type sends them). */
export const GENERIC_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/octet-stream', 'binary/octet-stream', '']);

/**
 * A file name safe to store and return: its last path segment (`C:\docs\a.pdf` → `a.pdf`), without control
 * characters, NUL, lone surrogates or the bidirectional overrides, at most {@link MAX_FILENAME_LENGTH}
 * code points (the end, with the extension, kept); `file.<ext>` when nothing is left.
 */
export function cleanFilename(name: string | undefined, type: FileType): string {
  const last = (name ?? '').split(/[/\\]/).pop() ?? '';
  let clean = '';
  // for…of walks code points: a lone surrogate comes out alone (0xD800–0xDFFF) and is dropped.
  for (const ch of last) {
    const code = ch.codePointAt(0) ?? 0;
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    const bidi = (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
    const lone = code >= 0xd800 && code <= 0xdfff;
    if (!control && !bidi && !lone) clean += ch;
  }
  clean = clean.trim();
  if (clean === '' || clean === '.' || clean === '..') return `file.${type}`;
  const points = Array.from(clean);
  if (points.length > MAX_FILENAME_LENGTH) clean = points.slice(points.length - MAX_FILENAME_LENGTH).join('');
  return clean;
}

/** When a file uploaded at `createdAt` expires: {@link FILE_RETENTION_DAYS} later, in whole seconds (it is also the item's TTL). */
export function fileExpiry(createdAt: Date): Date {
  return new Date(Math.floor(createdAt.getTime() / 1000) * 1000 + FILE_RETENTION_DAYS * 86_400_000);
}
