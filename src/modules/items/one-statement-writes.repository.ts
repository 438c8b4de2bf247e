import { sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Executor } from '../../db/schema.js';
import { OUTBOX_INSERT_COLUMNS, outboxColumns, outboxRowsIfWritten, type OutboxColumns, type OutboxRow } from '../events/events.repository.js';
import { ITEM_COLUMNS, parseTagNames, tagNamesJson, type ItemRow } from './item-view.js';
import { patchSet, type ItemPatch, type NewItemRow, type PatchParams } from './items.repository.js';

/*
 * PostgreSQL only: writes of one item that carry their events in the same statement (a
 * data-modifying CTE), so a capture or a toggle is one round trip instead of BEGIN, write, events,
 * COMMIT. A single statement is atomic on its own, so the events are as crash-safe as in a
 * transaction. See docs/decisions/0032-one-statement-writes.md.
 */

/** An item as read for an optimistic change: `version` is the row's xmin, which every write of the row changes. */
export type VersionedItem = ItemRow & { tags: string[]; version: string };

const versionedItem = preparedQuery((db, p: { userId: string; id: string }) =>
  db
    .selectFrom('items')
    .select([...ITEM_COLUMNS, tagNamesJson('postgres').as('tag_names'), sql<string>`xmin::text`.as('version')])
    .where('user_id', '=', p.userId)
    .where('id', '=', p.id),
);

export async function findVersionedItem(db: Executor, userId: string, id: string): Promise<VersionedItem | undefined> {
  const [found] = await versionedItem(db, { userId, id });
  if (!found) return undefined;
  const { tag_names, ...row } = found;
  return { ...row, tags: parseTagNames(tag_names) };
}

const newItemWithEvents = preparedQuery((db, p: NewItemRow & OutboxColumns) => {
  const { outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts, ...row } = p;
  return db
    .with('written', (qc) => qc.insertInto('items').values(row).returning('id'))
    .insertInto('outbox_events')
    .columns(OUTBOX_INSERT_COLUMNS)
    .expression(outboxRowsIfWritten(row.user_id, { outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts }));
});

/** Inserts a new item (no tags) and its events in one statement. */
export async function insertNewItemWithEvents(db: Executor, row: NewItemRow, events: readonly OutboxRow[]): Promise<void> {
  await newItemWithEvents(db, { ...row, ...outboxColumns(events) });
}

/** Compiled once per set of changed columns and number of events. */
const itemUpdatedAtVersion = preparedQuery((db, p: PatchParams & OutboxColumns & { userId: string; id: string; version: string }) => {
  const { userId, id, version, outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts, ...patch } = p;
  return db
    .with('written', (qc) =>
      qc
        .updateTable('items')
        .set(patchSet(patch))
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where(sql<boolean>`xmin = ${version}::text::xid`)
        .returning('id'),
    )
    .insertInto('outbox_events')
    .columns(OUTBOX_INSERT_COLUMNS)
    .expression(outboxRowsIfWritten(userId, { outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts }))
    .returning('id');
});

/**
 * Writes `patch` and the change's events (at least one) in one statement, if the row is still at
 * `version`; answers false, writing nothing, when the row was changed or deleted since it was read.
 */
export async function updateItemAtVersion(
  db: Executor,
  userId: string,
  id: string,
  version: string,
  patch: ItemPatch,
  events: readonly OutboxRow[],
): Promise<boolean> {
  if (events.length === 0) throw new Error('updateItemAtVersion needs the events of the change: they are what says it was written');
  const rows = await itemUpdatedAtVersion(db, { ...patch, userId, id, version, ...outboxColumns(events) });
  return rows.length > 0;
}
