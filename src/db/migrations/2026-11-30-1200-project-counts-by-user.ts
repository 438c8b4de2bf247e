import { sql, SqliteIntrospector, type Kysely } from 'kysely';

/*
 * SQLite's project-count triggers (2026-11-30-1100) found the project by `id` alone, and the
 * projects' key is (user_id, id): SQLite walked every user's projects on every capture, toggle and
 * delete (`SCAN projects`; with 10,000 projects in the file a toggle's UPDATE took about 900 µs
 * instead of 38, decision 0106). The same triggers, finding the project by its key. PostgreSQL's
 * triggers append to project_count_deltas and read no project: nothing to do there.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

const OPEN = `('backlog', 'todo', 'doing')`;

async function createTriggers(db: AnyDb, byKey: boolean): Promise<void> {
  const bump = (row: 'new' | 'old', sign: '+' | '-') =>
    `update projects set item_count = item_count ${sign} 1, open_count = open_count ${sign} (${row}.status in ${OPEN}) where ${byKey ? `user_id = ${row}.user_id and ` : ''}id = ${row}.project_id;`;
  for (const trigger of ['items_count_insert', 'items_count_delete', 'items_count_update']) await sql.raw(`drop trigger ${trigger}`).execute(db);
  await sql.raw(`create trigger items_count_insert after insert on items begin ${bump('new', '+')} end`).execute(db);
  await sql.raw(`create trigger items_count_delete after delete on items begin ${bump('old', '-')} end`).execute(db);
  await sql
    .raw(
      `create trigger items_count_update after update of project_id, status on items
       when old.project_id is not new.project_id or old.status is not new.status
       begin ${bump('old', '-')} ${bump('new', '+')} end`,
    )
    .execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  if (db.introspection instanceof SqliteIntrospector) await createTriggers(db, true);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.introspection instanceof SqliteIntrospector) await createTriggers(db, false);
}
