import { sql, type Kysely } from 'kysely';
import { SqliteIntrospector } from 'kysely';

/*
 * Each project keeps its own counts (decision 0096): `item_count` (every item) and `open_count`
 * (status backlog, todo or doing), kept by triggers on `items`, so the project list every web page
 * draws in its sidebar reads nine rows instead of counting the account (a GROUP BY over 100,000
 * items took 208–955 ms; counting by an index still reads every entry, 50–250 ms under load).
 * Triggers, not the services, keep them: every write of an item (captures, toggles, imports, moves,
 * a user's cascade) passes here, whichever module makes it.
 * - SQLite: row triggers on the project's row; an update fires only when project_id or status
 *   changes. SQLite has one writer at a time, so the row adds a page write and no waiting.
 * - PostgreSQL: the triggers append to `project_count_deltas` instead, and the project list folds
 *   them into the row when it reads (projects.repository). An UPDATE of the project's row in the
 *   writer's transaction holds that row's lock until commit, so every concurrent capture into one
 *   Inbox queued behind the one before it, commit included: 470–690 captures/s against 1,140–1,230
 *   without the trigger, 32 connections, same server. Appends never wait for each other. Inserts
 *   and deletes by statement, from their transition tables (a batch insert appends one row a
 *   project); updates by row, only when project_id or status changes (a transition table would be
 *   captured for every edit, and PostgreSQL allows none on a column-list trigger).
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

const isSqlite = (db: AnyDb): boolean => db.introspection instanceof SqliteIntrospector;
const OPEN = `('backlog', 'todo', 'doing')`;

async function upSqlite(db: AnyDb): Promise<void> {
  const bump = (row: 'new' | 'old', sign: '+' | '-') =>
    `update projects set item_count = item_count ${sign} 1, open_count = open_count ${sign} (${row}.status in ${OPEN}) where id = ${row}.project_id;`;
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

async function upPostgres(db: AnyDb): Promise<void> {
  const byStatement = (rows: 'new_rows' | 'old_rows', sign: '' | '-') => `
    insert into project_count_deltas (user_id, project_id, item_delta, open_delta)
    select user_id, project_id, ${sign}count(*), ${sign}count(*) filter (where status in ${OPEN}) from ${rows} group by user_id, project_id;
    return null;`;
  await sql
    .raw(
      `create function items_count_inserted() returns trigger language plpgsql as $$ begin ${byStatement('new_rows', '')} end $$;
       create function items_count_deleted() returns trigger language plpgsql as $$ begin ${byStatement('old_rows', '-')} end $$;
       create function items_count_updated() returns trigger language plpgsql as $$ begin
         insert into project_count_deltas (user_id, project_id, item_delta, open_delta) values
           (old.user_id, old.project_id, -1, -((old.status in ${OPEN})::int)),
           (new.user_id, new.project_id, 1, (new.status in ${OPEN})::int);
         return null;
       end $$;
       create trigger items_count_insert after insert on items referencing new table as new_rows
         for each statement execute function items_count_inserted();
       create trigger items_count_delete after delete on items referencing old table as old_rows
         for each statement execute function items_count_deleted();
       create trigger items_count_update after update of project_id, status on items for each row
         when (old.project_id is distinct from new.project_id or old.status is distinct from new.status)
         execute function items_count_updated();`,
    )
    .execute(db);
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('item_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('open_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql
    .raw(
      `update projects set
         item_count = (select count(*) from items where items.user_id = projects.user_id and items.project_id = projects.id),
         open_count = (select count(*) from items where items.user_id = projects.user_id and items.project_id = projects.id and items.status in ${OPEN})`,
    )
    .execute(db);
  // No foreign keys: a user's deletion removes items first, whose trigger appends here after the
  // cascade; account deletion removes the user's rows itself (account-deletion.repository).
  await db.schema
    .createTable('project_count_deltas')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('item_delta', 'integer', (c) => c.notNull())
    .addColumn('open_delta', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_count_deltas_user_idx').on('project_count_deltas').column('user_id').execute();
  if (isSqlite(db)) await upSqlite(db);
  else await upPostgres(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const trigger of ['items_count_insert', 'items_count_delete', 'items_count_update']) {
    await sql`drop trigger ${sql.raw(trigger)}${sql.raw(isSqlite(db) ? '' : ' on items')}`.execute(db);
  }
  if (!isSqlite(db)) {
    await sql`drop function items_count_inserted(); drop function items_count_deleted(); drop function items_count_updated()`.execute(db);
  }
  await db.schema.dropTable('project_count_deltas').execute();
  await db.schema.alterTable('projects').dropColumn('open_count').execute();
  await db.schema.alterTable('projects').dropColumn('item_count').execute();
}
