import { sql, type Kysely } from 'kysely';

/*
 * The open-items index by due date holds dated items only (issue 46, decision 0100): a toggle or a
 * capture of an undated item (most of them) no longer writes an entry in it. A filter that can only
 * match dated items (a date range, `overdue`, an OR of them) gets `due_at is not null` added to its
 * top-level AND by the compiler (filter-shape.ts `onlyDated`), because SQLite uses a partial index
 * only when the query's WHERE holds the index's condition as written. A filter that can match
 * undated items (`@calls`, `search: word`) reads `items_due_idx` or `items_created_idx` instead.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('items_open_due_idx').execute();
  await sql`create index items_open_due_idx on items (user_id, due_at) where status in ('backlog', 'todo', 'doing') and due_at is not null`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('items_open_due_idx').execute();
  await sql`create index items_open_due_idx on items (user_id, due_at) where status in ('backlog', 'todo', 'doing')`.execute(db);
}
