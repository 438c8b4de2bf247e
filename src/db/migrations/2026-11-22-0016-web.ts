import type { Kysely } from 'kysely';

/*
 * Web sign-in sessions and pairing requests. Neither holds a secret in clear: a session row is
 * keyed by the SHA-256 of the cookie's token, a pairing by the SHA-256 of the client's state.
 */
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user_idx').on('web_sessions').columns(['user_id']).execute();
  await db.schema.createIndex('web_sessions_expires_idx').on('web_sessions').columns(['expires_at']).execute();

  await db.schema
    .createTable('pairings')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // The user who approved or denied; the key minted at the exchange belongs to them.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('approved_at', 'text')
    .addColumn('denied_at', 'text')
    .addColumn('exchanged_at', 'text')
    .addColumn('key_id', 'text')
    .execute();
  await db.schema.createIndex('pairings_expires_idx').on('pairings').columns(['expires_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('pairings').execute();
  await db.schema.dropTable('web_sessions').execute();
}
