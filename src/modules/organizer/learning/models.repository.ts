import type { DialectName } from '../../../db/create-db.js';
import type { Executor } from '../../../db/schema.js';

/** The user's stored model (JSON), locked on PostgreSQL so two learners of one user do not lose an example. */
export async function readModel(db: Executor, dialect: DialectName, userId: string, options: { lock?: boolean } = {}): Promise<string | undefined> {
  let query = db.selectFrom('organizer_models').select('model').where('user_id', '=', userId);
  // SQLite runs one write transaction at a time: nothing to lock.
  if (options.lock && dialect === 'postgres') query = query.forUpdate();
  return (await query.executeTakeFirst())?.model;
}

export async function writeModel(db: Executor, userId: string, model: string, at: string): Promise<void> {
  await db
    .insertInto('organizer_models')
    .values({ user_id: userId, model, updated_at: at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ model, updated_at: at }))
    .execute();
}
