import type { Readable } from 'node:stream';
import type { Db, Executor, Plan } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { AttachmentView, ItemView } from '../../schemas/item.js';
import type { ItemLoader } from '../items/item-loader.js';
import type { ItemWrites } from '../items/write-changes.js';
import type { ItemRow } from '../items/item-view.js';
import { FileTooLarge, type BlobStore, type ReceivedFile } from './blob-store.js';
import { cleanFilename, sniffContentType } from './content-type.js';
import {
  claimBlob,
  deleteAttachment,
  findAttachment,
  insertAttachment,
  listItemAttachments,
  listUserAttachments,
  storageUsed,
  takeUnusedBlobs,
  toAttachmentView,
  userHasContent,
  type AttachmentRow,
} from './attachments.repository.js';

const MIB = 1024 * 1024;
/** The contract's storage per user, each distinct content counted once. */
export const STORAGE_LIMITS: Readonly<Record<Plan, number>> = Object.freeze({ free: 100 * MIB, pro: 10 * 1024 * MIB });
/** A key with only the capture scope may attach files to an item it captured this recently. */
const CAPTURE_WINDOW_MS = 10 * 60 * 1000;

/** Who adds a file: a key with the write scope (or the web), or a capture-only key. */
export interface Adder {
  user: Pick<AuthUser, 'id' | 'plan' | 'keyId'>;
  /** The key holds the write scope, or this is a web session. */
  canWrite: boolean;
}

export interface NewFile {
  source: Readable;
  filename: string | undefined;
}

/** A file received into the store for an item, not yet attached: attach it or discard it. */
export interface StagedFile {
  /** Null while the item is yet to be made (the web's capture of a dropped or shared file): attach() needs one. */
  readonly itemId: string | null;
  readonly filename: string | undefined;
  readonly received: ReceivedFile;
}

export interface AttachmentsService {
  /** FILES_DIR, resolved. */
  readonly filesDir: string;
  /** The largest file the plan may attach. */
  maxBytes(plan: Plan): number;
  /** Streams a file onto an item (contract "Attachments"): 413 past the plan's file limit or storage quota. */
  add(adder: Adder, itemId: string, file: NewFile): Promise<{ attachment: AttachmentView; item: ItemView }>;
  /** The first half of add: the item and the adder's right to it checked (404, 403), the file streamed into the store (413 past the plan's limit). */
  receive(adder: Adder, itemId: string | null, file: NewFile): Promise<StagedFile>;
  /** The second half of add: the quota checked and the staged file attached in one transaction; the staged file is used up either way. */
  attach(adder: Adder, staged: StagedFile): Promise<{ attachment: AttachmentView; item: ItemView }>;
  /** 413 storage_quota_exceeded now if attaching the staged file would pass the storage quota (checked again by attach()). */
  assertRoom(user: Adder['user'], staged: StagedFile): Promise<void>;
  /** Drops a staged file that will not be attached (an Idempotency-Key replay, a refused request). */
  discard(staged: StagedFile): Promise<void>;
  /** A file's bytes for download, or 404 (unknown, malformed, another user's). */
  open(userId: string, id: string): Promise<{ attachment: AttachmentView; stream: Readable }>;
  /** Deletes the attachment; its bytes go when no other attachment uses them. */
  remove(userId: string, id: string): Promise<void>;
  storage(user: Pick<AuthUser, 'id' | 'plan'>): Promise<{ used: number; limit: number }>;
  /** Every attachment of the user (the export's files), oldest first. */
  listForUser(userId: string): Promise<AttachmentView[]>;
  /** Where a content's file is (it may be missing). */
  pathOf(sha256: string): string;
  /** Streams a body to a temporary file of the store (an import's zip); FileTooLarge past maxBytes. The caller discards it. */
  stage(source: Readable, maxBytes: number): Promise<{ path: string; discard(): Promise<void> }>;
  /** Removes contents no attachment uses and temporary files of dead uploads; answers how many contents went. */
  collectGarbage(): Promise<number>;
}

export function createAttachmentsService(deps: {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  loader: ItemLoader;
  writes: ItemWrites;
  store: BlobStore;
  maxBytes: { free: number; pro: number };
}): AttachmentsService {
  const { db, loader, writes, store } = deps;
  const now = () => toTimestamp(deps.clock.now());

  /** Writes the item's list of attachments into its row (and its updated_at, and item.updated): its ETag changes. */
  async function refreshItem(trx: Executor, userId: string, row: ItemRow): Promise<ItemView> {
    const list = (await listItemAttachments(trx, userId, row.id)).map(toAttachmentView);
    const views = await writes.commit(trx, userId, [{ row, patch: { attachments_json: JSON.stringify(list) }, events: ['item.updated'] }], writes.now());
    return views.get(row.id)!;
  }

  /** Removes the files of these contents if no attachment uses them, holding the lock that keeps uploads of them out (decision 0084). */
  async function collect(only?: readonly string[]): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const unused = await takeUnusedBlobs(trx, only);
      await store.remove(unused);
      return unused.length;
    });
  }

  async function forget(file: ReceivedFile): Promise<void> {
    await db.transaction().execute(async (trx) => {
      await claimBlob(trx, file.sha256, file.size, now());
      await store.remove(await takeUnusedBlobs(trx, [file.sha256]));
    });
  }

  /** 413 storage_quota_exceeded when the content would take the user past the plan's storage (a content they have adds nothing). */
  async function assertRoom(trx: Executor, user: Adder['user'], received: ReceivedFile): Promise<void> {
    if (await userHasContent(trx, user.id, received.sha256)) return;
    const used = await storageUsed(trx, user.id);
    const quota = STORAGE_LIMITS[user.plan];
    if (used + received.size > quota) {
      throw new AppError('storage_quota_exceeded', `this file would take your storage past ${formatBytes(quota)} (${formatBytes(used)} used)`, {
        fields: { used, limit: quota },
      });
    }
  }

  function mayAttach(adder: Adder, row: ItemRow): boolean {
    if (adder.canWrite) return true;
    const key = adder.user.keyId;
    return key !== null && row.captured_by_key === key && deps.clock.now().getTime() - Date.parse(row.created_at) <= CAPTURE_WINDOW_MS;
  }

  async function requireRow(userId: string, id: string): Promise<AttachmentRow> {
    const row = isUuid(id) ? await findAttachment(db, userId, id) : undefined;
    if (!row) throw notFound('attachment');
    return row;
  }

  const maxBytes = (plan: Plan) => deps.maxBytes[plan];

  const service: AttachmentsService = {
    filesDir: store.dir,
    maxBytes,

    async add(adder, itemId, file) {
      return service.attach(adder, await service.receive(adder, itemId, file));
    },

    async receive(adder, itemId, file) {
      const { user } = adder;
      const item = itemId === null ? null : await loader.requireRow(db, user.id, itemId);
      if (item && !mayAttach(adder, item)) {
        throw new AppError(
          'insufficient_scope',
          'a key with only the capture scope may attach files to an item it captured in the last 10 minutes; this needs the write scope',
          { fields: { required_scope: 'write' } },
        );
      }
      const limit = maxBytes(user.plan);
      try {
        return { itemId, filename: file.filename, received: await store.receive(file.source, limit) };
      } catch (error) {
        if (error instanceof FileTooLarge) throw fileTooLarge(limit);
        throw error;
      }
    },

    discard: (staged) => store.discard(staged.received),
    assertRoom: (user, staged) => assertRoom(db, user, staged.received),

    async attach(adder, { itemId, filename, received }) {
      const { user } = adder;
      let placed = false;
      try {
        if (itemId === null) throw new Error('a staged file is attached to an item: give it one');
        const contentType = await sniffContentType(received.head);
        const attachment: AttachmentRow = {
          id: deps.newId(),
          user_id: user.id,
          item_id: itemId,
          filename: cleanFilename(filename),
          content_type: contentType,
          size: received.size,
          sha256: received.sha256,
          created_at: now(),
        };
        const item = await db.transaction().execute(async (trx) => {
          const row = await loader.requireLockedRow(trx, user.id, itemId);
          await assertRoom(trx, user, received);
          // The blob row first: from here until the commit no collector can take this content.
          await claimBlob(trx, received.sha256, received.size, attachment.created_at);
          await store.place(received);
          placed = true;
          await insertAttachment(trx, attachment);
          return refreshItem(trx, user.id, row);
        });
        return { attachment: toAttachmentView(attachment), item };
      } catch (error) {
        // Placed but not committed: claim the content (a row again if it was new) and collect it if unused.
        if (placed) await forget(received).catch(() => undefined);
        else await store.discard(received);
        throw error;
      }
    },

    async open(userId, id) {
      const row = await requireRow(userId, id);
      const stream = await store.open(row.sha256);
      if (!stream) throw new AppError('internal_error', 'the stored file is missing');
      return { attachment: toAttachmentView(row), stream };
    },

    async remove(userId, id) {
      const found = await requireRow(userId, id);
      await db.transaction().execute(async (trx) => {
        const item = await loader.requireLockedRow(trx, userId, found.item_id);
        // Gone already (a concurrent delete): 404 as for any unknown attachment.
        if (!(await findAttachment(trx, userId, id))) throw notFound('attachment');
        await deleteAttachment(trx, userId, id);
        await refreshItem(trx, userId, item);
      });
      await collect([found.sha256]);
    },

    async storage(user) {
      return { used: await storageUsed(db, user.id), limit: STORAGE_LIMITS[user.plan] };
    },

    listForUser: async (userId) => (await listUserAttachments(db, userId)).map(toAttachmentView),

    pathOf: (sha256) => store.pathOf(sha256),
    async stage(source, max) {
      const file = await store.receive(source, max);
      return { path: file.tempPath, discard: () => store.discard(file) };
    },

    async collectGarbage() {
      const removed = await collect();
      await store.sweepTemp(deps.clock.now().getTime());
      return removed;
    },
  };
  return service;
}

function formatBytes(bytes: number): string {
  return bytes >= MIB ? `${Math.round((bytes / MIB) * 10) / 10} MiB` : `${bytes} bytes`;
}

export function fileTooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `the file is larger than your plan's limit of ${formatBytes(limit)} (${limit} bytes)`, {
    headers: { connection: 'close' },
  });
}
