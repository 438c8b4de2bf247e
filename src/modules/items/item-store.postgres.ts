import { sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-query.js';
import type { Db, ItemStatus } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import type { WrittenViewCte } from '../events/events.repository.js';
import type { BuiltEventParams, EventsService, OutboxColumns } from '../events/events.service.js';
import type { TagsService } from '../tags/tags.service.js';
import type { ItemStore } from './item-store.js';
import { ITEM_COLUMNS, parseTagNames, tagNamesJson, toItemView } from './item-view.js';
import { stateChange, toggleNext } from './item-change.js';
import { isPlainItem, plainItemJson } from './item-json.postgres.js';
import { insertItem, patchSet, type NewItemRow, type PatchParams } from './items.repository.js';

/*
 * PostgreSQL: a capture and a state change write the item and its events in one statement (a
 * data-modifying CTE, then the events module's insert), one round trip instead of BEGIN, write,
 * events, COMMIT. A single statement is atomic on its own, so the events are as crash-safe as in a
 * transaction. See docs/decisions/0032-one-statement-writes.md.
 */

export function createPostgresItemStore(deps: { db: Db; events: EventsService; tags: Pick<TagsService, 'setItemTags'>; now: () => string }): ItemStore {
  const { db, events } = deps;

  /** An item as read for an optimistic change: `version` is the row's xmin, which every write of the row changes. */
  const versionedItem = preparedQuery((db, p: { userId: string; id: string }) =>
    db
      .selectFrom('items')
      .select([...ITEM_COLUMNS, tagNamesJson('postgres').as('tag_names'), sql<string>`xmin::text`.as('version')])
      .where('user_id', '=', p.userId)
      .where('id', '=', p.id),
  );

  /**
   * A toggle in one statement (decisions/0107): reads the row as versionedItem does and, when it has
   * no tags, attachments or recurrence and is still the version read, flips it there and then, its
   * event built from the written row. Answers the row as read and whether it was written; when not,
   * the caller goes on as after versionedItem. The flip is toggleState's, in SQL (the store's test
   * holds the two to the same table).
   */
  const toggledInOneStatement = preparedQuery((db, p: { userId: string; id: string; at: string } & BuiltEventParams) => {
    const { userId, id, at, ...event } = p;
    return (
      db
        .with('cur', (qc) =>
          qc
            .selectFrom('items')
            .select([...ITEM_COLUMNS, tagNamesJson('postgres').as('tag_names'), sql<string>`xmin::text`.as('version')])
            .where('user_id', '=', userId)
            .where('id', '=', id),
        )
        .with('written', (qc) =>
          qc
            .updateTable('items')
            .from('cur')
            .set({
              is_completed: sql<number>`not cur.is_completed`,
              status: sql<ItemStatus>`(case when cur.status = 'archived' then cur.status when cur.is_completed then 'todo' else 'done' end)`,
              updated_at: at,
            })
            .whereRef('items.user_id', '=', 'cur.user_id')
            .whereRef('items.id', '=', 'cur.id')
            .where(sql<boolean>`items.xmin = cur.version::xid and ${isPlainItem}`)
            .returning([
              'items.id',
              sql<string>`(case when items.is_completed then 'item.completed' else 'item.uncompleted' end)`.as('event'),
              plainItemJson.as('item_json'),
            ]),
        )
        // The creator also knows `cur`, which Kysely's invariant QueryCreator will not pass as one knowing only `written`.
        .with('event', (qc) => events.insertBuiltAfterWrite(qc as unknown as WrittenViewCte, userId, event))
        .selectFrom('cur')
        .select([...ITEM_COLUMNS, 'tag_names', 'version', sql<boolean>`exists (select 1 from written)`.as('written')])
    );
  });

  const newItemWithEvents = preparedQuery((db, p: NewItemRow & OutboxColumns) => {
    const { outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts, ...row } = p;
    return events.insertAfterWrite(
      db.with('written', (qc) => qc.insertInto('items').values(row).returning('id')),
      row.user_id,
      { outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts },
    );
  });

  /** Compiled once per set of changed columns and number of events; writes only if the row is still at `version`. */
  const updatedAtVersion = preparedQuery((db, p: PatchParams & OutboxColumns & { userId: string; id: string; version: string }) => {
    const { userId, id, version, outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts, ...patch } = p;
    return events
      .insertAfterWrite(
        db.with('written', (qc) =>
          qc
            .updateTable('items')
            .set(patchSet(patch))
            .where('user_id', '=', userId)
            .where('id', '=', id)
            .where(sql<boolean>`xmin = ${version}::text::xid`)
            .returning('id'),
        ),
        userId,
        { outboxIds, outboxEvents, outboxItemIds, outboxPayloads, outboxCreatedAts },
      )
      .returning('id');
  });

  return {
    async insertNew(userId, stamp, tags) {
      if (tags.length > 0) {
        // Tags are rows of their own (and may be new): the item, its tags and its event in one transaction.
        return db.transaction().execute(async (trx) => {
          const row = stamp();
          await insertItem(trx, row);
          const item = toItemView(row, await deps.tags.setItemTags(trx, userId, row.id, tags));
          await events.record(trx, userId, [{ name: 'item.created', item }]);
          return item;
        });
      }
      const row = stamp();
      const item = toItemView(row, []);
      await newItemWithEvents(db, { ...row, ...events.outboxParams(userId, [{ name: 'item.created', item }]) });
      return item;
    },

    // A plain read, then the change and its events in one statement that applies only to the
    // version read: two round trips instead of five. A toggle of a plain item needs only the first.
    async tryStateChange(userId, id, next, precondition) {
      if (!isUuid(id)) throw notFound('item');
      // An If-Match is checked before any write: such a toggle reads first, as the other changes do.
      const oneStatement = next === toggleNext && !precondition;
      const at = deps.now();
      const [found] = oneStatement
        ? await toggledInOneStatement(db, { userId, id, at, ...events.builtEventParams() })
        : await versionedItem(db, { userId, id });
      if (!found) throw notFound('item');
      const { tag_names, version, ...read } = found;
      const { written, ...row } = { written: false, ...read };
      const tags = parseTagNames(tag_names);
      if (written) return toItemView({ ...row, ...stateChange(row, next, at)?.patch, updated_at: at }, tags);
      if (precondition) precondition(toItemView(row, tags));
      const change = stateChange(row, next, at);
      if (!change) return toItemView(row, tags);
      // Completing a recurring item records the completion and moves the item: the locked path does that.
      if (row.recurrence_rule !== null && change.events.includes('item.completed')) return undefined;
      const patch = { ...change.patch, updated_at: at };
      const view = toItemView({ ...row, ...patch }, tags);
      const outbox = events.outboxParams(
        userId,
        change.events.map((name) => ({ name, item: view })),
      );
      const applied = await updatedAtVersion(db, { ...patch, userId, id: row.id, version, ...outbox });
      return applied.length > 0 ? view : undefined;
    },
  };
}
