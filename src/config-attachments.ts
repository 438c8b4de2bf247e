import { Type } from 'typebox';

/*
 * The attachment settings (operations.md, docs/attachments.md), apart from config.ts so that file
 * stays small: where the bytes live, the same folder for every process of one service, and the
 * largest file each plan may attach.
 */
export const ATTACHMENT_SETTINGS = {
  FILES_DIR: Type.String({ minLength: 1, default: './data/files' }),
  ATTACHMENT_MAX_BYTES_FREE: Type.Integer({ minimum: 1, default: 5 * 1024 * 1024 }),
  ATTACHMENT_MAX_BYTES_PRO: Type.Integer({ minimum: 1, default: 25 * 1024 * 1024 }),
};

export interface AttachmentsConfig {
  /** FILES_DIR, as given (relative to the working directory). */
  readonly filesDir: string;
  /** Per file, by plan. */
  readonly maxBytes: { readonly free: number; readonly pro: number };
}

export function attachmentsConfig(raw: { FILES_DIR: string; ATTACHMENT_MAX_BYTES_FREE: number; ATTACHMENT_MAX_BYTES_PRO: number }): AttachmentsConfig {
  return Object.freeze({ filesDir: raw.FILES_DIR, maxBytes: Object.freeze({ free: raw.ATTACHMENT_MAX_BYTES_FREE, pro: raw.ATTACHMENT_MAX_BYTES_PRO }) });
}
