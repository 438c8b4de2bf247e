import { sql, type Kysely } from 'kysely';

/*
 * The filters' indexes (issue 48, decisions 0074 and 0087): open items by due date, and open items
 * of a project by due date. A filter without `done`, `archived` or `all` picks only open items in due
 * order (contract "Filters and saved views"), so these serve `today | overdue`, `#Work & @calls`,
 * `7 days` and most saved filters with a walk that stops after a page, where `items_due_idx` walked
 * every item of the user, done ones included. Partial, so done and archived items (most of a
 * long-used inbox) are in neither, and a capture of an open item or a toggle writes one entry in each.
 * `id` last in the project index lets a tag's EXISTS probe be decided without reading the item's
 * row; the due index has none, since with it SQLite and PostgreSQL both preferred the full
 * `items_due_idx (user_id, due_at)` for `today | overdue` (filter-indexes.test.ts).
 * The condition is the compiler's `status in ('backlog', 'todo', 'doing')` as written (literals):
 * SQLite uses a partial index only for a query that holds its terms.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`create index items_open_due_idx on items (user_id, due_at) where status in ('backlog', 'todo', 'doing')`.execute(db);
  await sql`create index items_open_project_due_idx on items (user_id, project_id, due_at, id) where status in ('backlog', 'todo', 'doing')`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('items_open_project_due_idx').execute();
  await db.schema.dropIndex('items_open_due_idx').execute();
}
