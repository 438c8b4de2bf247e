import type { ColumnType } from 'kysely';

/** The tables of attachments (src/modules/attachments/, decision 0084). */

/** One stored content under FILES_DIR, named by its SHA-256 (hex); many attachments may use it. */
export interface AttachmentBlobsTable {
  sha256: string;
  /** PostgreSQL returns bigint as a string. */
  size: ColumnType<number | string, number, number>;
  created_at: string;
}

/** A file on an item: its name and type as the user gave and the bytes showed, its content by hash. */
export interface AttachmentsTable {
  id: string;
  user_id: string;
  item_id: string;
  filename: string;
  content_type: string;
  size: ColumnType<number | string, number, number>;
  sha256: string;
  created_at: string;
}
