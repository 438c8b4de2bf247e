import type { Kysely } from 'kysely';

/*
 * webhooks.signing_key becomes sealed_secret: the column holds a webhook's sealed signing key or a
 * notification channel's sealed secrets (push keys, an ntfy token), so its name says what it holds
 * for both (decisions/0066). A rename keeps every value as it is; the sealing context
 * (`webhook:<user>:<id>`) does not name the column, so what was sealed still opens.
 */
// A migration is written against the tables as they were when it ran, not today's schema type (src/db/schema.ts).
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhooks').renameColumn('signing_key', 'sealed_secret').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhooks').renameColumn('sealed_secret', 'signing_key').execute();
}
