import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { AttachmentsTable, Executor } from '../../db/schema.js';
import type { AttachmentView } from '../../schemas/item.js';

const COLUMNS = ['id', 'user_id', 'item_id', 'filename', 'content_type', 'size', 'sha256', 'created_at'] as const;

export type AttachmentRow = Omit<Selectable<AttachmentsTable>, 'size'> & { size: number };

const toRow = (row: Selectable<AttachmentsTable>): AttachmentRow => ({ ...row, size: Number(row.size) });

export const toAttachmentView = (row: AttachmentRow): AttachmentView => ({
  id: row.id,
  item_id: row.item_id,
  filename: row.filename,
  content_type: row.content_type,
  size: row.size,
  sha256: row.sha256,
  created_at: row.created_at,
});

export async function findAttachment(db: Executor, userId: string, id: string): Promise<AttachmentRow | undefined> {
  const row = await db.selectFrom('attachments').select(COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

/** An item's attachments, oldest first (the order items show them in). */
export async function listItemAttachments(db: Executor, userId: string, itemId: string): Promise<AttachmentRow[]> {
  const rows = await db
    .selectFrom('attachments')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where('item_id', '=', itemId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRow);
}

/** Every attachment of the user, oldest first: the export's files. */
export async function listUserAttachments(db: Executor, userId: string): Promise<AttachmentRow[]> {
  const rows = await db.selectFrom('attachments').select(COLUMNS).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toRow);
}

export async function insertAttachment(db: Executor, row: AttachmentRow): Promise<void> {
  await db.insertInto('attachments').values(row).execute();
}

export async function deleteAttachment(db: Executor, userId: string, id: string): Promise<void> {
  await db.deleteFrom('attachments').where('user_id', '=', userId).where('id', '=', id).execute();
}

/**
 * Records a content as stored, or touches the row when it is: either way the row is now locked
 * (PostgreSQL) or the database's write lock held (SQLite) until the transaction ends, so the
 * collector cannot remove the content under the attachment being added (decision 0084).
 */
export async function claimBlob(db: Executor, sha256: string, size: number, at: string): Promise<void> {
  await db
    .insertInto('attachment_blobs')
    .values({ sha256, size, created_at: at })
    .onConflict((oc) => oc.column('sha256').doUpdateSet({ size }))
    .execute();
}

/** The bytes the user's attachments use, each distinct content counted once. */
export async function storageUsed(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('attachment_blobs as b')
    .select(sql<number | string | null>`sum(b.size)`.as('used'))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('attachments as a')
          .select(sql`1`.as('one'))
          .where('a.user_id', '=', userId)
          .whereRef('a.sha256', '=', 'b.sha256'),
      ),
    )
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

/** Whether the user already has an attachment with this content (it then adds nothing to their storage). */
export async function userHasContent(db: Executor, userId: string, sha256: string): Promise<boolean> {
  const row = await db.selectFrom('attachments').select('id').where('sha256', '=', sha256).where('user_id', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/**
 * The collector's two statements, in one transaction (decision 0084). The first locks the blob rows
 * no attachment used when it started (on SQLite: takes the write lock), so an upload of the same
 * content waits; the second, with a fresh snapshot, deletes those still unused and answers their
 * hashes. The caller removes the files before the transaction commits.
 */
export async function takeUnusedBlobs(db: Executor, only?: readonly string[]): Promise<string[]> {
  if (only !== undefined && only.length === 0) return [];
  const unused = sql<boolean>`not exists (select 1 from attachments where attachments.sha256 = attachment_blobs.sha256)`;
  let lock = db
    .updateTable('attachment_blobs')
    .set({ size: sql`size` })
    .where(unused);
  if (only) lock = lock.where('sha256', 'in', only);
  await lock.execute();
  let take = db.deleteFrom('attachment_blobs').where(unused);
  if (only) take = take.where('sha256', 'in', only);
  const rows = await take.returning('sha256').execute();
  return rows.map((r) => r.sha256);
}
