import { expect } from 'vitest';
import type { DeliveryBody } from '../../src/modules/events/events.service.js';
import type { Plan } from '../../src/db/schema.js';
import { client, createUser, type Client, type JsonBody, type Response, type TestApp, type TestUser } from './test-app.js';

/** Every field an item response carries: the spec's Item table plus `tags` and `archived_at`. */
export const ITEM_FIELDS = [
  'all_day',
  'archived_at',
  'attachments',
  'content_md',
  'created_at',
  'due_at',
  'id',
  'is_completed',
  'parent_id',
  'project_id',
  'recurrence',
  'remind_at',
  'status',
  'tags',
  'title',
  'type',
  'updated_at',
];

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A well-formed UUID that no item, project or user has. */
export const UNKNOWN_ID = '0190f5e2-7c3a-7b1d-9e2f-123456789abc';

export interface Actor {
  user: TestUser;
  c: Client;
  /** The user's outbox: `take()` answers the events written since the previous call. */
  events: Outbox;
}

export interface Outbox {
  take(): Promise<DeliveryBody[]>;
  names(): Promise<string[]>;
}

/** Every event of the user's outbox, oldest first (ids are UUIDv7), as webhooks and the feed receive them. */
export async function outboxEvents(t: TestApp, userId: string): Promise<DeliveryBody[]> {
  const rows = await t.services.db.selectFrom('outbox_events').select('payload').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((row) => JSON.parse(row.payload) as DeliveryBody);
}

function outbox(t: TestApp, userId: string): Outbox {
  let seen = 0;
  const take = async (): Promise<DeliveryBody[]> => {
    const all = await outboxEvents(t, userId);
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh;
  };
  return { take, names: async () => (await take()).map((e) => e.event) };
}

/** A fresh user (so tests never see each other's data), a client bound to its key, its outbox. */
export async function actor(t: TestApp, plan: Plan = 'free'): Promise<Actor> {
  const user = await createUser(t, plan);
  return { user, c: client(t.app, user.token), events: outbox(t, user.id) };
}

/** Captures an item and insists on 201; answers the item without `ai`. */
export async function capture(c: Client, text: string, extra: Record<string, unknown> = {}): Promise<JsonBody> {
  const res = await c.post('capture', { text, ...extra });
  if (res.status !== 201) throw new Error(`capture failed: ${res.status} ${res.text}`);
  const { ai: _ai, ...item } = res.body as Record<string, unknown>;
  return item;
}

/** Asserts a successful answer and returns its body. */
export function ok(res: Response<JsonBody>, status = 200): JsonBody {
  expect(res.status, res.text).toBe(status);
  return res.body;
}

/** Asserts the contract's error shape: `{ error, message }`, plus `details` on validation errors. */
export function expectError(res: Response<JsonBody>, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error).toBe(code);
  expect(typeof res.body.message).toBe('string');
}

/** The contract's invariant: outside `archived`, status is `done` exactly when is_completed. */
export function expectConsistent(item: JsonBody): void {
  if (item.status !== 'archived') expect(item.status === 'done').toBe(item.is_completed);
  expect(item.archived_at === null).toBe(item.status !== 'archived');
}

export const iso = (t: TestApp): string => t.clock.now().toISOString();
