import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type Client, type JsonBody, type TestApp, type TestUser } from '../helpers/test-app.js';
import { outboxEvents } from '../helpers/items.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN_ID = '0190a000-0000-7000-8000-000000000000';

describe.each(DIALECTS)('projects (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function newUser(): Promise<{ user: TestUser; api: Client }> {
    const user = await createUser(t);
    return { user, api: client(t.app, user.token) };
  }

  async function createProject(api: Client, name: string): Promise<JsonBody> {
    const res = await api.post('projects', { name });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function capture(api: Client, text: string, projectId?: string): Promise<JsonBody> {
    t.clock.advance(1000);
    const res = await api.post('capture', { text, ...(projectId ? { project_id: projectId } : {}) });
    expect(res.status).toBe(201);
    return res.body;
  }

  describe('GET /api/v1/projects', () => {
    it('gives a new user exactly the Inbox, with is_default true', async () => {
      const { user, api } = await newUser();
      const res = await api.get('projects');
      expect(res.status).toBe(200);
      expect(res.body.projects).toHaveLength(1);
      expect(res.body.projects[0]).toMatchObject({ id: user.inboxId, name: 'Inbox', is_default: true, item_count: 0 });
    });

    it('answers { projects } with the full project shape, Inbox first', async () => {
      const { api } = await newUser();
      await createProject(api, 'Aardvark');
      await createProject(api, 'zebra');
      const res = await api.get('projects');
      expect(Object.keys(res.body)).toEqual(['projects']);
      expect(res.body.projects.map((p: JsonBody) => p.name)).toEqual(['Inbox', 'Aardvark', 'zebra']);
      for (const project of res.body.projects) {
        expect(Object.keys(project).sort()).toEqual(['created_at', 'id', 'is_default', 'item_count', 'name', 'updated_at']);
        expect(project.created_at).toMatch(TIMESTAMP);
        expect(project.updated_at).toMatch(TIMESTAMP);
      }
      expect(res.body.projects.map((p: JsonBody) => p.is_default)).toEqual([true, false, false]);
    });
  });

  describe('POST /api/v1/projects', () => {
    it('creates a project and answers 200 with it', async () => {
      const { api } = await newUser();
      const res = await api.post('projects', { name: 'Work' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Work', is_default: false, item_count: 0 });
      expect(res.body.created_at).toBe(t.clock.now().toISOString());
      const again = await api.get(`projects/${res.body.id}`);
      expect(again.body).toEqual(res.body);
    });

    it('returns the existing project for the same name in another case or with whitespace, creating no duplicate', async () => {
      const { api } = await newUser();
      const work = await createProject(api, 'Work');
      for (const name of ['work', '  WORK  ', '\tWork\n']) {
        const res = await api.post('projects', { name });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(work);
      }
      const inbox = await api.post('projects', { name: 'inbox' });
      expect(inbox.status).toBe(200);
      expect(inbox.body).toMatchObject({ name: 'Inbox', is_default: true });
      const list = await api.get('projects');
      expect(list.body.projects.map((p: JsonBody) => p.name)).toEqual(['Inbox', 'Work']);
    });

    it('trims the name it stores', async () => {
      const { api } = await newUser();
      expect((await createProject(api, '  Side project  ')).name).toBe('Side project');
    });

    it('answers 400 for a missing or blank name or one over 100 characters', async () => {
      const { api } = await newUser();
      for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 42 }]) {
        const res = await api.post('projects', body);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('bad_request');
      }
      expect((await api.get('projects')).body.projects).toHaveLength(1);
    });

    it('accepts a name of exactly 100 characters, also when padded with whitespace', async () => {
      const { api } = await newUser();
      expect((await createProject(api, 'a'.repeat(100))).name).toBe('a'.repeat(100));
      expect((await createProject(api, `  ${'b'.repeat(100)}  `)).name).toBe('b'.repeat(100));
    });
  });

  describe('GET /api/v1/projects/{id}', () => {
    it('answers 200 with the project', async () => {
      const { user, api } = await newUser();
      const res = await api.get(`projects/${user.inboxId}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: user.inboxId, name: 'Inbox', is_default: true });
    });

    it('answers 404 not_found for an unknown or malformed id', async () => {
      const { api } = await newUser();
      for (const id of [UNKNOWN_ID, 'not-a-uuid', '123']) {
        const res = await api.get(`projects/${id}`);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('not_found');
      }
    });

    it('counts archived and completed items in item_count', async () => {
      const { api } = await newUser();
      const project = await createProject(api, 'Counted');
      const [a, b] = [await capture(api, 'one', project.id), await capture(api, 'two', project.id)];
      await capture(api, 'three', project.id);
      expect((await api.post(`items/${a.id}/toggle`)).status).toBe(200);
      expect((await api.post(`items/${b.id}/archive`)).status).toBe(200);
      expect((await api.get(`projects/${project.id}`)).body.item_count).toBe(3);
      const listed = (await api.get('projects')).body.projects.find((p: JsonBody) => p.id === project.id);
      expect(listed.item_count).toBe(3);
    });
  });

  describe('PATCH /api/v1/projects/{id}', () => {
    it('renames the project and moves updated_at', async () => {
      const { api } = await newUser();
      const project = await createProject(api, 'Old name');
      t.clock.advance(60_000);
      const res = await api.patch(`projects/${project.id}`, { name: '  New name ' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: project.id, name: 'New name', created_at: project.created_at });
      expect(res.body.updated_at).toBe(t.clock.now().toISOString());
      expect((await api.get(`projects/${project.id}`)).body.name).toBe('New name');
    });

    it('answers 409 conflict when another project has the name, in any case', async () => {
      const { api } = await newUser();
      const work = await createProject(api, 'Work');
      const home = await createProject(api, 'Home');
      for (const name of ['Work', 'work', ' WORK ', 'inbox']) {
        const res = await api.patch(`projects/${home.id}`, { name });
        expect(res.status).toBe(409);
        expect(res.body.error).toBe('conflict');
      }
      expect((await api.get(`projects/${home.id}`)).body.name).toBe('Home');
      expect((await api.get(`projects/${work.id}`)).body.name).toBe('Work');
    });

    it('renames a project to its own name in another case', async () => {
      const { api } = await newUser();
      const project = await createProject(api, 'Work');
      const res = await api.patch(`projects/${project.id}`, { name: 'WORK' });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('WORK');
      expect((await api.post('projects', { name: 'work' })).body.id).toBe(project.id);
    });

    it('answers 400 for renaming the Inbox', async () => {
      const { user, api } = await newUser();
      const res = await api.patch(`projects/${user.inboxId}`, { name: 'Inbox 2' });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect((await api.get(`projects/${user.inboxId}`)).body.name).toBe('Inbox');
    });

    it('answers 400 for a blank or too long name', async () => {
      const { api } = await newUser();
      const project = await createProject(api, 'Keep');
      for (const name of ['', '  ', 'y'.repeat(101)]) {
        const res = await api.patch(`projects/${project.id}`, { name });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('bad_request');
      }
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const { api } = await newUser();
      for (const id of [UNKNOWN_ID, 'nope']) {
        expect((await api.patch(`projects/${id}`, { name: 'x' })).status).toBe(404);
      }
    });
  });

  describe('DELETE /api/v1/projects/{id}', () => {
    it('answers 200 { ok: true } and the project is gone', async () => {
      const { api } = await newUser();
      const project = await createProject(api, 'Doomed');
      const res = await api.delete(`projects/${project.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await api.get(`projects/${project.id}`)).status).toBe(404);
      expect((await api.get('projects')).body.projects.map((p: JsonBody) => p.name)).toEqual(['Inbox']);
    });

    it('moves the items to the Inbox, each with an item.updated event', async () => {
      const { user, api } = await newUser();
      const project = await createProject(api, 'Moving');
      const a = await capture(api, 'first', project.id);
      const b = await capture(api, 'second', project.id);
      await api.post(`items/${b.id}/archive`);
      const stay = await capture(api, 'already in inbox');
      const before = await outboxEvents(t, user.id);

      expect((await api.delete(`projects/${project.id}`)).status).toBe(200);

      for (const id of [a.id, b.id]) {
        expect((await api.get(`items/${id}`)).body.project_id).toBe(user.inboxId);
      }
      expect((await api.get(`items/${b.id}`)).body.status).toBe('archived');
      expect((await api.get(`projects/${user.inboxId}`)).body.item_count).toBe(3);
      const added = (await outboxEvents(t, user.id)).slice(before.length);
      expect(added.map((e) => e.event)).toEqual(['item.updated', 'item.updated']);
      expect(added.map((e) => e.data.item.id).sort()).toEqual([a.id, b.id].sort());
      for (const event of added) expect(event.data.item.project_id).toBe(user.inboxId);
      expect(added.some((e) => e.data.item.id === stay.id)).toBe(false);
    });

    it('answers 400 for the Inbox and keeps it', async () => {
      const { user, api } = await newUser();
      const res = await api.delete(`projects/${user.inboxId}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect((await api.get(`projects/${user.inboxId}`)).status).toBe(200);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const { api } = await newUser();
      for (const id of [UNKNOWN_ID, 'nope']) {
        const res = await api.delete(`projects/${id}`);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('not_found');
      }
    });
  });

  describe('GET /api/v1/projects/{id}/items', () => {
    it("answers a JSON array of the project's items, newest first, archived and completed included", async () => {
      const { api } = await newUser();
      const project = await createProject(api, 'Listed');
      const a = await capture(api, 'oldest', project.id);
      const b = await capture(api, 'middle', project.id);
      const c = await capture(api, 'newest', project.id);
      await capture(api, 'elsewhere');
      await api.post(`items/${a.id}/archive`);
      await api.post(`items/${b.id}/toggle`);
      const res = await api.get(`projects/${project.id}/items`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.map((i: JsonBody) => i.id)).toEqual([c.id, b.id, a.id]);
      expect(res.body[2].status).toBe('archived');
      expect(res.body[1].is_completed).toBe(true);
      expect(res.headers['x-next-cursor']).toBeUndefined();
    });

    it('pages with limit and cursor, setting X-Next-Cursor only while more remain', async () => {
      const { api } = await newUser();
      const project = await createProject(api, 'Paged');
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.unshift((await capture(api, `item ${i}`, project.id)).id);
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      for (;;) {
        const res = await api.get(`projects/${project.id}/items?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        sizes.push(res.body.length);
        seen.push(...res.body.map((i: JsonBody) => i.id));
        const next = res.headers['x-next-cursor'];
        if (next === undefined) break;
        expect(typeof next).toBe('string');
        cursor = String(next);
      }
      expect(sizes).toEqual([2, 2, 1]);
      expect(seen).toEqual(ids);
    });

    it('returns 200 items by default and clamps limit to 1000', async () => {
      const { user, api } = await newUser();
      const project = await createProject(api, 'Big');
      const auth = { id: user.id, email: user.email, plan: 'free' as const, timezone: 'UTC', keyId: user.keyId };
      for (let start = 0; start < 1001; start += 25) {
        const batch = Array.from({ length: Math.min(25, 1001 - start) }, (_, i) => start + i);
        await Promise.all(batch.map((i) => t.services.capture.capture(auth, { text: `bulk ${i}`, project_id: project.id })));
      }
      const byDefault = await api.get(`projects/${project.id}/items`);
      expect(byDefault.body).toHaveLength(200);
      expect(byDefault.headers['x-next-cursor']).toBeDefined();
      const clamped = await api.get(`projects/${project.id}/items?limit=5000`);
      expect(clamped.status).toBe(200);
      expect(clamped.body).toHaveLength(1000);
      const rest = await api.get(`projects/${project.id}/items?limit=5000&cursor=${String(clamped.headers['x-next-cursor'])}`);
      expect(rest.body).toHaveLength(1);
      expect(rest.headers['x-next-cursor']).toBeUndefined();
      expect((await api.get(`projects/${project.id}`)).body.item_count).toBe(1001);
    });

    it('answers 400 for a limit below 1 or a cursor that does not decode', async () => {
      const { user, api } = await newUser();
      for (const query of ['limit=0', 'limit=abc', 'cursor=!!!', 'cursor=e30']) {
        const res = await api.get(`projects/${user.inboxId}/items?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('bad_request');
      }
    });

    it('answers 404 for an unknown or malformed project id', async () => {
      const { api } = await newUser();
      for (const id of [UNKNOWN_ID, 'nope']) {
        const res = await api.get(`projects/${id}/items`);
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('not_found');
      }
    });
  });
});
