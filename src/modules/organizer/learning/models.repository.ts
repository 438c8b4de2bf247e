import { randomUUID } from 'node:crypto';
import type { DialectName } from '../../../db/create-db.js';
import type { Executor } from '../../../db/schema.js';

/** A user's stored model: its JSON and the revision written with it (decision 0114). */
export interface StoredModel {
  model: string;
  revision: string;
}

/** The stored model's revision alone: a decision reads this, and the 70-90 KB text only when it changed. */
export async function readRevision(db: Executor, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('organizer_models').select('revision').where('user_id', '=', userId).executeTakeFirst())?.revision;
}

/** The user's stored model, locked on PostgreSQL so two learners of one user do not lose an example. */
export async function readModel(db: Executor, dialect: DialectName, userId: string, options: { lock?: boolean } = {}): Promise<StoredModel | undefined> {
  let query = db.selectFrom('organizer_models').select(['model', 'revision']).where('user_id', '=', userId);
  // SQLite runs one write transaction at a time: nothing to lock.
  if (options.lock && dialect === 'postgres') query = query.forUpdate();
  return await query.executeTakeFirst();
}

/** Writes the model under a new revision, which it returns. */
export async function writeModel(db: Executor, userId: string, model: string, at: string): Promise<string> {
  const revision = randomUUID();
  await db
    .insertInto('organizer_models')
    .values({ user_id: userId, model, revision, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ model, revision, updated_at: at }))
    .execute();
  return revision;
}
