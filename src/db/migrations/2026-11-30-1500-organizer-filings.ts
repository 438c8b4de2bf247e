import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

/*
 * The organizer's filings awaiting confirmation get a table of their own, and the model row a
 * revision (decision 0114). Each organized capture that filed an item rewrote the user's whole
 * model (70-90 KB of JSON: read under lock, stringified, written, TOASTed and logged by PostgreSQL)
 * to append one filing to its `pending` list: 8-10 ms of PostgreSQL time against 0.7 ms for one
 * row. And every decision read the whole text back only to see that it had not changed: the
 * revision, a random token written with each model, is what a process now compares.
 * Filings already in models are moved out; `down` puts them back.
 */
type AnyDb = Kysely<any>;

type Filing = [itemId: string, projectId: string, filedAt: string];
const isFiling = (x: unknown): x is Filing => Array.isArray(x) && x.length === 3 && x.every((v) => typeof v === 'string');

function parsed(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('organizer_filings')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('filed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organizer_filings_pkey', ['user_id', 'item_id'])
    .execute();
  await db.schema
    .alterTable('organizer_models')
    .addColumn('revision', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  const rows = (await db.selectFrom('organizer_models').select(['user_id', 'model']).execute()) as Array<{ user_id: string; model: string }>;
  for (const row of rows) {
    const model = parsed(row.model);
    const filings = model && Array.isArray(model.pending) ? model.pending.filter(isFiling) : [];
    // The last filing of an item wins, as the list's own upsert did.
    const byItem = new Map(filings.map((f) => [f[0], f]));
    if (byItem.size > 0) {
      await db
        .insertInto('organizer_filings')
        .values([...byItem.values()].map(([item_id, project_id, filed_at]) => ({ user_id: row.user_id, item_id, project_id, filed_at })))
        .execute();
    }
    const rest = model ? Object.fromEntries(Object.entries(model).filter(([k]) => k !== 'pending')) : null;
    await db
      .updateTable('organizer_models')
      .set({ revision: randomUUID(), ...(rest ? { model: JSON.stringify(rest) } : {}) })
      .where('user_id', '=', row.user_id)
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  const rows = (await db.selectFrom('organizer_models').select(['user_id', 'model']).execute()) as Array<{ user_id: string; model: string }>;
  for (const row of rows) {
    const model = parsed(row.model);
    if (!model) continue;
    const filings = (await db
      .selectFrom('organizer_filings')
      .select(['item_id', 'project_id', 'filed_at'])
      .where('user_id', '=', row.user_id)
      .orderBy('filed_at')
      .orderBy('item_id')
      .execute()) as Array<{ item_id: string; project_id: string; filed_at: string }>;
    const pending = filings.map((f) => [f.item_id, f.project_id, f.filed_at]);
    await db
      .updateTable('organizer_models')
      .set({ model: JSON.stringify({ ...model, pending }) })
      .where('user_id', '=', row.user_id)
      .execute();
  }
  await db.schema.alterTable('organizer_models').dropColumn('revision').execute();
  await db.schema.dropTable('organizer_filings').execute();
}
