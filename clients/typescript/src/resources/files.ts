/** `switchyard.files`: dispute evidence files, uploaded as `multipart/form-data` like Stripe's. */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type { FileObject } from '../types.js';
import { pathId } from './path-id.js';

/** What `files.create` uploads. */
export interface FileCreateParams {
  purpose: 'dispute_evidence';
  /** The file: a PDF, PNG or JPEG, at most 4 MiB. */
  file: Blob;
  /** Its name (kept, shown back). */
  filename: string;
}

/** `/files`. */
export class Files {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /files`: uploads it (keyed: a retry answers the same file). The bytes are never served back. */
  create(params: FileCreateParams, options?: RequestOptions): Promise<FileObject> {
    const form = () => {
      const data = new FormData();
      data.append('purpose', params.purpose);
      data.append('file', params.file, params.filename);
      return data;
    };
    return this.client.call(
      (init) =>
        this.client.api.POST('/files', {
          body: { purpose: params.purpose, file: params.filename },
          bodySerializer: form,
          ...init,
        }),
      options,
    );
  }

  /** `GET /files/{file_id}`: the file's metadata. */
  retrieve(fileId: string, options?: RequestOptions): Promise<FileObject> {
    return this.client.call(
      (init) => this.client.api.GET('/files/{file_id}', { params: { path: { file_id: pathId('fileId', fileId) } }, ...init }),
      options,
    );
  }
}
