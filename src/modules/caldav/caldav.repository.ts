import type { Executor } from '../../db/schema.js';

/* All SQL of the caldav module: its two tables, and a read of the projects its home lists. */

export interface ObjectRow {
  item_id: string;
  name: string;
  uid: string;
  ics: string;
  parent_uid: string | null;
}

const OBJECT_COLUMNS = ['item_id', 'name', 'uid', 'ics', 'parent_uid'] as const;
/** Keeps each IN list well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export async function findObjectsByItems(db: Executor, userId: string, itemIds: readonly string[]): Promise<ObjectRow[]> {
  const rows: ObjectRow[] = [];
  for (let i = 0; i < itemIds.length; i += CHUNK) {
    const chunk = itemIds.slice(i, i + CHUNK);
    rows.push(...(await db.selectFrom('caldav_objects').select(OBJECT_COLUMNS).where('user_id', '=', userId).where('item_id', 'in', chunk).execute()));
  }
  return rows;
}

export async function findObjectByUid(db: Executor, userId: string, uid: string): Promise<ObjectRow | undefined> {
  return db.selectFrom('caldav_objects').select(OBJECT_COLUMNS).where('user_id', '=', userId).where('uid', '=', uid).executeTakeFirst();
}

export async function findObjectsByName(db: Executor, userId: string, name: string): Promise<ObjectRow[]> {
  return db.selectFrom('caldav_objects').select(OBJECT_COLUMNS).where('user_id', '=', userId).where('name', '=', name).execute();
}

export async function findObjectsWaitingFor(db: Executor, userId: string, parentUid: string): Promise<ObjectRow[]> {
  return db.selectFrom('caldav_objects').select(OBJECT_COLUMNS).where('user_id', '=', userId).where('parent_uid', '=', parentUid).execute();
}

/** One row per item and one per UID: a row of either is replaced. */
export async function saveObject(db: Executor, userId: string, row: ObjectRow, at: string): Promise<void> {
  await db
    .deleteFrom('caldav_objects')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('item_id', '=', row.item_id), eb('uid', '=', row.uid)]))
    .execute();
  await db
    .insertInto('caldav_objects')
    .values({ user_id: userId, ...row, updated_at: at })
    .execute();
}

export async function clearParentUid(db: Executor, userId: string, itemId: string): Promise<void> {
  await db.updateTable('caldav_objects').set({ parent_uid: null }).where('user_id', '=', userId).where('item_id', '=', itemId).execute();
}

export async function findCollectionNames(db: Executor, userId: string): Promise<Array<{ project_id: string; name: string }>> {
  return db.selectFrom('caldav_collections').select(['project_id', 'name']).where('user_id', '=', userId).execute();
}

export async function insertCollection(db: Executor, userId: string, projectId: string, name: string): Promise<void> {
  await db.insertInto('caldav_collections').values({ user_id: userId, project_id: projectId, name }).execute();
}

interface HomeProject {
  id: string;
  name: string;
  is_default: boolean;
}

/**
 * The projects of a calendar home: id, name and whether it is the Inbox, the Inbox first and then
 * by name as the API lists them. The API's listing also counts each project's items, over every
 * item of the user; a collection needs no count, and every DAV request looks its collection up here.
 */
export async function findHomeProjects(db: Executor, userId: string): Promise<HomeProject[]> {
  const rows = await db.selectFrom('projects').select(['id', 'name', 'is_default', 'created_at']).where('user_id', '=', userId).execute();
  const key = (r: { name: string }) => r.name.toLowerCase();
  rows.sort((a, b) => Number(b.is_default) - Number(a.is_default) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.created_at.localeCompare(b.created_at)));
  return rows.map((r) => ({ id: r.id, name: r.name, is_default: Boolean(r.is_default) }));
}
