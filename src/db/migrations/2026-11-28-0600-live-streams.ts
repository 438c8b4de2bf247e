import type { Kysely } from 'kysely';

/*
 * The open change streams of every process (issue 32: "at most 10 streams a user" holds across
 * processes, not per process). `live_processes`: one row per serving process, its `seen_at`
 * renewed while it has streams open; a process not seen for a minute is gone (killed) and its
 * streams no longer count. `live_streams`: one row per open stream, removed when it closes.
 */
// A migration is written against the tables as they were when it ran, not today's schema type (src/db/schema.ts).
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('live_processes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('live_streams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('process_id', 'text', (c) => c.notNull().references('live_processes.id').onDelete('cascade'))
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_streams_user').on('live_streams').columns(['user_id']).execute();
  await db.schema.createIndex('live_streams_process').on('live_streams').columns(['process_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('live_streams').execute();
  await db.schema.dropTable('live_processes').execute();
}
