import type { Kysely } from 'kysely';

/*
 * pairings.key_expires_in_days: a pairing may ask that the key it mints stop working after whole
 * days (`cin keys add --expires`, issue 51), as a key minted in developer settings or by the admin
 * CLI may. Null: the key never expires, as every pairing so far.
 */
// A migration runs against the schema of its own day, not today's DatabaseSchema: untyped, as every migration here.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('pairings').addColumn('key_expires_in_days', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('pairings').dropColumn('key_expires_in_days').execute();
}
