import type { Db } from '../../db/schema.js';

/*
 * The SQL of the stream registry (stream-registry.ts): `live_processes`, one row per process with
 * open streams, renewed while it has some; `live_streams`, one row per open stream, removed with its
 * process (on delete cascade). Timestamps are the registry's clock, as toTimestamp writes them.
 */

/** Inserts the process's row, or moves its `seen_at` on. */
export async function markProcessSeen(db: Db, processId: string, seenAt: string): Promise<void> {
  await db
    .insertInto('live_processes')
    .values({ id: processId, seen_at: seenAt })
    .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: seenAt }))
    .execute();
}

/** Removes the processes not seen since `before`, and with them their streams. */
export async function deleteProcessesSeenBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('live_processes').where('seen_at', '<', before).execute();
}

/** Removes one process's row and its streams (its shutdown). */
export async function deleteProcess(db: Db, processId: string): Promise<void> {
  await db.deleteFrom('live_processes').where('id', '=', processId).execute();
}

export async function insertStream(db: Db, stream: { id: string; userId: string; processId: string; openedAt: string }): Promise<void> {
  await db.insertInto('live_streams').values({ id: stream.id, user_id: stream.userId, process_id: stream.processId, opened_at: stream.openedAt }).execute();
}

export async function deleteStream(db: Db, streamId: string): Promise<void> {
  await db.deleteFrom('live_streams').where('id', '=', streamId).execute();
}

/** The user's open streams in processes seen since `seenSince` (the others are gone, whatever their rows say). */
export async function countOpenStreams(db: Db, userId: string, seenSince: string): Promise<number> {
  const { count } = await db
    .selectFrom('live_streams')
    .innerJoin('live_processes', 'live_processes.id', 'live_streams.process_id')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('live_streams.user_id', '=', userId)
    .where('live_processes.seen_at', '>=', seenSince)
    .executeTakeFirstOrThrow();
  return Number(count);
}
