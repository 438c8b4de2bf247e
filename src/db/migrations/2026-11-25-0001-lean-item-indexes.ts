import { sql, type Kysely } from 'kysely';

/*
 * Drops the status, type and is_completed filter indexes of items (docs/decisions/0031). A toggle
 * changes status and is_completed, so on SQLite each of those indexes cost it one more randomly
 * placed page written per change, and on PostgreSQL one more index entry per updated row; every
 * capture paid one entry in each of the three. The filters walk the newest-first index instead and
 * stop after a page, which is as fast while the asked-for value is common (both types, open and
 * done items). Archived items are the rare value (the web app's Archived view): they keep a partial
 * index that only archiving and unarchiving write, since neither database touches a partial index
 * for a row outside its condition.
 */
type AnyDb = Kysely<any>;

const DROPPED: Array<[string, string]> = [
  ['items_status_idx', 'status'],
  ['items_type_idx', 'type'],
  ['items_completed_idx', 'is_completed'],
];

export async function up(db: AnyDb): Promise<void> {
  for (const [name] of DROPPED) await db.schema.dropIndex(name).execute();
  await sql`create index items_archived_idx on items (user_id, created_at, id) where status = 'archived'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('items_archived_idx').execute();
  for (const [name, column] of DROPPED) {
    await db.schema.createIndex(name).on('items').columns(['user_id', column, 'created_at', 'id']).execute();
  }
}
