import { sql, type Kysely } from 'kysely';

/*
 * Done items by last change (decision 0109): Today's "Done today" (status done, changed since the
 * day began, newest first) walked `items_updated_idx` over every item changed today and read each
 * row to find the done ones. After an import, a bulk edit or a sync from another app most of the
 * account changed today and few items are done: 124 ms a Today page on PostgreSQL at 100,000 items.
 * Partial, so only done items are in it; a toggle writes one entry, a capture of an open item none.
 * The query writes `status = 'done'` as a literal: a PostgreSQL generic plan (the server's named
 * statements after five runs) can use a partial index only then.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`create index items_done_updated_idx on items (user_id, updated_at, id) where status = 'done'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('items_done_updated_idx').execute();
}
