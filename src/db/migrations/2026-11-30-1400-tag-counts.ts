import { sql, SqliteIntrospector, type Kysely } from 'kysely';

/*
 * Each tag keeps its own count of items (decision 0113), as each project does since 2026-11-30-1100
 * (decision 0096): the tag list every web page draws in its sidebar, and `GET /tags`, counted every
 * link of the user at read time (a GROUP BY over 56,000 links took 20–60 ms on PostgreSQL). Kept by
 * triggers on `item_tags`, whichever module writes a link (tagging, the import, a deleted item's
 * cascade).
 * - SQLite: row triggers on the tag's row, found by its key (user_id, id).
 * - PostgreSQL: statement triggers append to `tag_count_deltas` from their transition tables (one
 *   row a tag a statement), folded into the tag's row when the list is read (tags.repository): an
 *   UPDATE of the tag's row in the writer's transaction would queue every concurrent capture with
 *   that tag behind the one before it, as the project counts' did (2026-11-30-1100).
 * Links are only inserted and deleted, never updated.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

async function upSqlite(db: AnyDb): Promise<void> {
  const bump = (row: 'new' | 'old', sign: '+' | '-') =>
    `update tags set item_count = item_count ${sign} 1 where user_id = ${row}.user_id and id = ${row}.tag_id;`;
  await sql.raw(`create trigger item_tags_count_insert after insert on item_tags begin ${bump('new', '+')} end`).execute(db);
  await sql.raw(`create trigger item_tags_count_delete after delete on item_tags begin ${bump('old', '-')} end`).execute(db);
}

async function upPostgres(db: AnyDb): Promise<void> {
  const byStatement = (rows: 'new_rows' | 'old_rows', sign: '' | '-') => `
    insert into tag_count_deltas (user_id, tag_id, item_delta)
    select user_id, tag_id, ${sign}count(*) from ${rows} group by user_id, tag_id;
    return null;`;
  await sql
    .raw(
      `create function item_tags_count_inserted() returns trigger language plpgsql as $$ begin ${byStatement('new_rows', '')} end $$;
       create function item_tags_count_deleted() returns trigger language plpgsql as $$ begin ${byStatement('old_rows', '-')} end $$;
       create trigger item_tags_count_insert after insert on item_tags referencing new table as new_rows
         for each statement execute function item_tags_count_inserted();
       create trigger item_tags_count_delete after delete on item_tags referencing old table as old_rows
         for each statement execute function item_tags_count_deleted();`,
    )
    .execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('tags')
    .addColumn('item_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update tags set item_count = (select count(*) from item_tags where item_tags.user_id = tags.user_id and item_tags.tag_id = tags.id)`.execute(db);
  // No foreign keys, as project_count_deltas: account deletion removes the user's rows itself.
  await db.schema
    .createTable('tag_count_deltas')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tag_id', 'text', (c) => c.notNull())
    .addColumn('item_delta', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tag_count_deltas_user_idx').on('tag_count_deltas').column('user_id').execute();
  if (db.introspection instanceof SqliteIntrospector) await upSqlite(db);
  else await upPostgres(db);
}

export async function down(db: AnyDb): Promise<void> {
  const isSqlite = db.introspection instanceof SqliteIntrospector;
  for (const trigger of ['item_tags_count_insert', 'item_tags_count_delete']) {
    await sql`drop trigger ${sql.raw(trigger)}${sql.raw(isSqlite ? '' : ' on item_tags')}`.execute(db);
  }
  if (!isSqlite) await sql`drop function item_tags_count_inserted(); drop function item_tags_count_deleted()`.execute(db);
  await db.schema.dropTable('tag_count_deltas').execute();
  await db.schema.alterTable('tags').dropColumn('item_count').execute();
}
