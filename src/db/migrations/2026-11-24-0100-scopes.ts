import type { Kysely } from 'kysely';

/*
 * Least privilege: a key holds scopes and may expire; a pairing carries the scopes it asks for (and,
 * once approved, the ones granted); a web session remembers when it was last used, for the idle
 * timeout. Existing keys and pairings get all four scopes: what they could do before.
 */
type AnyDb = Kysely<any>;

const ALL_SCOPES = 'read,capture,write,webhooks';

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(ALL_SCOPES))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute();
  await db.schema
    .alterTable('pairings')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(ALL_SCOPES))
    .execute();
  await db.schema.alterTable('web_sessions').addColumn('last_seen_at', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('web_sessions').dropColumn('last_seen_at').execute();
  await db.schema.alterTable('pairings').dropColumn('scopes').execute();
  await db.schema.alterTable('api_keys').dropColumn('expires_at').execute();
  await db.schema.alterTable('api_keys').dropColumn('scopes').execute();
}
