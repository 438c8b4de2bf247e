import type { Executor } from '../../db/schema.js';

/**
 * Everything a user owns, child tables first, then the user. Tables that cascade from users are
 * named anyway, so the order (and nothing left behind) does not hang on each foreign key's rule.
 * Items go in one statement, so their parent links never point at a deleted row between two.
 * The user's outbox events are the events module's to delete (events.forgetUser), before this.
 */
export async function deleteUserAndData(trx: Executor, userId: string): Promise<void> {
  await trx.deleteFrom('webhook_deliveries').where('user_id', '=', userId).execute();
  await trx.deleteFrom('webhooks').where('user_id', '=', userId).execute();
  await trx.deleteFrom('item_tags').where('user_id', '=', userId).execute();
  await trx.deleteFrom('items').where('user_id', '=', userId).execute();
  await trx.deleteFrom('tags').where('user_id', '=', userId).execute();
  await trx.deleteFrom('projects').where('user_id', '=', userId).execute();
  // After items, tags and projects: deleting them appends their count changes here (PostgreSQL).
  await trx.deleteFrom('project_count_deltas').where('user_id', '=', userId).execute();
  await trx.deleteFrom('tag_count_deltas').where('user_id', '=', userId).execute();
  await trx.deleteFrom('api_keys').where('user_id', '=', userId).execute();
  await trx.deleteFrom('pairings').where('user_id', '=', userId).execute();
  await trx.deleteFrom('organizer_filings').where('user_id', '=', userId).execute();
  await trx.deleteFrom('organizer_models').where('user_id', '=', userId).execute();
  await trx.deleteFrom('email_in_tokens').where('user_id', '=', userId).execute();
  await trx.deleteFrom('idempotency_keys').where('user_id', '=', userId).execute();
  await trx.deleteFrom('web_sessions').where('user_id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
}
