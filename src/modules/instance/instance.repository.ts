import type { Executor } from '../../db/schema.js';

export async function readSetting(db: Executor, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('instance_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Executor, name: string, value: string, at: string): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ name, value, updated_at: at })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: at }))
    .execute();
}

/** Writes the value only when the setting does not exist yet (the first process to start wins). */
export async function insertSettingIfAbsent(db: Executor, name: string, value: string, at: string): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ name, value, updated_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
