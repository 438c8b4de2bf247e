import type { Executor } from '../../db/schema.js';

/*
 * The one-reader lease of the email-in mailbox (email_in_lease): a row per reader name, held by
 * `owner` until `lease_until`. Timestamps are ISO strings of one format, so text order is time order.
 */

/** Takes or renews the lease; true when `owner` holds it until `until` afterwards. */
export async function takeLease(db: Executor, lease: { name: string; owner: string; now: string; until: string }): Promise<boolean> {
  await db
    .insertInto('email_in_lease')
    .values({ name: lease.name, owner: lease.owner, lease_until: lease.until })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await db
    .updateTable('email_in_lease')
    .set({ owner: lease.owner, lease_until: lease.until })
    .where('name', '=', lease.name)
    .where((eb) => eb.or([eb('owner', '=', lease.owner), eb('lease_until', '<', lease.now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Hands the lease back so another process takes over without waiting for it to expire. */
export async function releaseLease(db: Executor, lease: { name: string; owner: string }): Promise<void> {
  await db.deleteFrom('email_in_lease').where('name', '=', lease.name).where('owner', '=', lease.owner).execute();
}
