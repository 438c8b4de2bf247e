import { unwrap, type Api } from './transport.js';
import type { Attachment } from './types.js';

/** What a file can be uploaded from: a Blob or File, bytes (a Node Buffer is one), a stream, or (Node) a path. */
export type AttachmentSource = Blob | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | { path: string };

/** A Blob of the source; a path is read lazily by Node's `openAsBlob`, a stream is gathered (at most the plan's file limit). */
async function blobOf(source: AttachmentSource): Promise<Blob> {
  if (source instanceof Blob) return source;
  if (source instanceof Uint8Array) return new Blob([source as Uint8Array<ArrayBuffer>]);
  if ('path' in source) {
    // Node only, loaded when used so the SDK stays usable in browsers.
    const moduleName = 'node:fs';
    const fs = (await import(moduleName)) as { openAsBlob(path: string): Promise<Blob> };
    return fs.openAsBlob(source.path);
  }
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const iterable: AsyncIterable<Uint8Array> = Symbol.asyncIterator in source ? source : (source as unknown as AsyncIterable<Uint8Array>);
  for await (const chunk of iterable) parts.push(chunk as Uint8Array<ArrayBuffer>);
  return new Blob(parts);
}

const baseName = (path: string): string => path.split(/[/\\]/).pop() || 'file';

/** Files on items (contract "Attachments"): upload, download, delete. */
export function attachmentsApi(api: Api) {
  return {
    /**
     * Attaches a file to an item. `filename` defaults to the File's or the path's base name. ApiError
     * 413 `payload_too_large` past the plan's file limit, `storage_quota_exceeded` past the storage.
     */
    upload: async (itemId: string, source: AttachmentSource, options: { filename?: string } = {}): Promise<Attachment> => {
      const blob = await blobOf(source);
      const filename =
        options.filename ??
        (typeof File !== 'undefined' && blob instanceof File ? blob.name : 'path' in (source as object) ? baseName((source as { path: string }).path) : 'file');
      const form = new FormData();
      form.append('file', blob, filename);
      const answer = await unwrap(
        api.POST('/api/v1/items/{id}/attachments', {
          params: { path: { id: itemId } },
          // The generated body type describes the form's fields; the wire body is the FormData itself.
          body: form as unknown as { file: string },
          bodySerializer: (body) => body,
        }),
      );
      return answer.attachment;
    },
    /** The file's bytes, with the type and name the server gives them. */
    download: async (id: string): Promise<{ blob: Blob; contentType: string; filename: string | null }> => {
      const { data, error, response } = await api.GET('/api/v1/attachments/{id}', { params: { path: { id } }, parseAs: 'blob' });
      if (!response.ok) await unwrap(Promise.resolve({ data, error, response }));
      return {
        blob: data as Blob,
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
        filename: filenameOf(response.headers.get('content-disposition')),
      };
    },
    delete: async (id: string): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/attachments/{id}', { params: { path: { id } } }));
    },
  };
}

/** The name of a Content-Disposition header: `filename*` (RFC 5987) when present, else `filename`. */
function filenameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!);
    } catch {
      // fall through to the ASCII name
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? null;
}
