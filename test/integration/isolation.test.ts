import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { client, createTestApp, createUser, type Client, type JsonBody, type Response, type TestApp, type TestUser } from '../helpers/test-app.js';
import { outboxEvents } from '../helpers/items.js';

interface World {
  a: TestUser;
  b: TestUser;
  apiA: Client;
  apiB: Client;
  project: JsonBody;
  item: JsonBody;
  child: JsonBody;
  ownItem: JsonBody;
}

describe.each(DIALECTS)('isolation between users (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** User A owns a project, an item in it with a tag, and a subtask; user B owns one item. */
  async function world(): Promise<World> {
    const [a, b] = [await createUser(t), await createUser(t)];
    const [apiA, apiB] = [client(t.app, a.token), client(t.app, b.token)];
    const project = (await apiA.post('projects', { name: 'Secret plans' })).body;
    const item = (await apiA.post('capture', { text: 'A private thought\nwith details', project_id: project.id })).body;
    expect((await apiA.patch(`items/${item.id}`, { tags: ['classified'] })).status).toBe(200);
    const child = (await apiA.post('capture', { text: 'A subtask' })).body;
    expect((await apiA.patch(`items/${child.id}`, { parent_id: item.id })).body.parent_id).toBe(item.id);
    const ownItem = (await apiB.post('capture', { text: 'B owns this' })).body;
    expect([project.id, item.id, ownItem.id].every((id) => typeof id === 'string')).toBe(true);
    return { a, b, apiA, apiB, project, item, child, ownItem };
  }

  /** What A can see of its own data; compared before and after B's attempts. */
  async function snapshot(w: World): Promise<unknown> {
    return {
      item: (await w.apiA.get(`items/${w.item.id}`)).body,
      child: (await w.apiA.get(`items/${w.child.id}`)).body,
      project: (await w.apiA.get(`projects/${w.project.id}`)).body,
      projects: (await w.apiA.get('projects')).body,
      items: (await w.apiA.get('items')).body,
      tags: (await w.apiA.get('tags')).body,
      events: (await outboxEvents(t, w.a.id)).length,
    };
  }

  function expectHidden(res: Response, w: World): void {
    expect(res.status).toBe(404);
    expect((res.body as JsonBody).error).toBe('not_found');
    for (const secret of [w.item.id, w.child.id, w.project.id, 'A private thought', 'Secret plans', 'classified']) {
      expect(res.text).not.toContain(secret);
    }
  }

  describe("another user's items", () => {
    it('GET/PATCH/DELETE /api/v1/items/{id} answer 404 and change nothing', async () => {
      const w = await world();
      const before = await snapshot(w);
      expectHidden(await w.apiB.get(`items/${w.item.id}`), w);
      expectHidden(await w.apiB.patch(`items/${w.item.id}`, { title: 'hijacked', tags: ['mine'] }), w);
      expectHidden(await w.apiB.patch(`items/${w.item.id}`, { status: 'done' }), w);
      expectHidden(await w.apiB.delete(`items/${w.item.id}`), w);
      expectHidden(await w.apiB.delete(`items/${w.child.id}`), w);
      expect(await snapshot(w)).toEqual(before);
    });

    it('POST /api/v1/items/{id}/toggle, /archive and /unarchive answer 404 and change nothing', async () => {
      const w = await world();
      await w.apiA.post(`items/${w.child.id}/archive`);
      const before = await snapshot(w);
      expectHidden(await w.apiB.post(`items/${w.item.id}/toggle`), w);
      expectHidden(await w.apiB.post(`items/${w.item.id}/archive`), w);
      expectHidden(await w.apiB.post(`items/${w.child.id}/unarchive`), w);
      expect(await snapshot(w)).toEqual(before);
    });

    it('GET /api/v1/items/{id}/children answers 404', async () => {
      const w = await world();
      expectHidden(await w.apiB.get(`items/${w.item.id}/children`), w);
      expect((await w.apiA.get(`items/${w.item.id}/children`)).body.map((i: JsonBody) => i.id)).toEqual([w.child.id]);
    });
  });

  describe("another user's projects", () => {
    it('GET/PATCH/DELETE /api/v1/projects/{id} answer 404 and change nothing', async () => {
      const w = await world();
      const before = await snapshot(w);
      expectHidden(await w.apiB.get(`projects/${w.project.id}`), w);
      expectHidden(await w.apiB.patch(`projects/${w.project.id}`, { name: 'Taken over' }), w);
      expectHidden(await w.apiB.delete(`projects/${w.project.id}`), w);
      expectHidden(await w.apiB.get(`projects/${w.a.inboxId}`), w);
      expectHidden(await w.apiB.patch(`projects/${w.a.inboxId}`, { name: 'Renamed' }), w);
      expectHidden(await w.apiB.delete(`projects/${w.a.inboxId}`), w);
      expect(await snapshot(w)).toEqual(before);
    });

    it('GET /api/v1/projects/{id}/items answers 404', async () => {
      const w = await world();
      expectHidden(await w.apiB.get(`projects/${w.project.id}/items`), w);
      expectHidden(await w.apiB.get(`projects/${w.a.inboxId}/items`), w);
    });

    it('POST /api/v1/projects with the same name creates B its own project', async () => {
      const w = await world();
      const res = await w.apiB.post('projects', { name: 'secret PLANS' });
      expect(res.status).toBe(200);
      expect(res.body.id).not.toBe(w.project.id);
      expect(res.body).toMatchObject({ name: 'secret PLANS', item_count: 0 });
      expect((await w.apiA.get(`projects/${w.project.id}`)).body.name).toBe('Secret plans');
    });
  });

  describe('POST /api/v1/capture', () => {
    it("answers 404 for another user's project_id and stores nothing", async () => {
      const w = await world();
      const before = await snapshot(w);
      expectHidden(await w.apiB.post('capture', { text: 'sneak in', project_id: w.project.id }), w);
      expectHidden(await w.apiB.post('capture', { text: 'sneak in', project_id: w.a.inboxId }), w);
      expect((await w.apiB.get('items')).body.items.map((i: JsonBody) => i.id)).toEqual([w.ownItem.id]);
      expect(await snapshot(w)).toEqual(before);
    });
  });

  describe('PATCH /api/v1/items/{id} on an own item', () => {
    it("answers 404 for project_id of another user's project", async () => {
      const w = await world();
      const before = await snapshot(w);
      expectHidden(await w.apiB.patch(`items/${w.ownItem.id}`, { project_id: w.project.id }), w);
      expect((await w.apiB.get(`items/${w.ownItem.id}`)).body.project_id).toBe(w.b.inboxId);
      expect(await snapshot(w)).toEqual(before);
    });

    it("answers 400 for parent_id of another user's item", async () => {
      const w = await world();
      const before = await snapshot(w);
      const res = await w.apiB.patch(`items/${w.ownItem.id}`, { parent_id: w.item.id });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('bad_request');
      expect(res.text).not.toContain('A private thought');
      expect((await w.apiB.get(`items/${w.ownItem.id}`)).body.parent_id).toBeNull();
      expect(await snapshot(w)).toEqual(before);
    });
  });

  describe('listings', () => {
    it("GET /api/v1/items, /projects and /tags never show another user's data", async () => {
      const w = await world();
      await w.apiB.patch(`items/${w.ownItem.id}`, { tags: ['Classified', 'own'] });

      const items = await w.apiB.get('items');
      expect(items.body.items.map((i: JsonBody) => i.id)).toEqual([w.ownItem.id]);
      expect(items.body.next_cursor).toBeNull();

      const projects = await w.apiB.get('projects');
      expect(projects.body.projects.map((p: JsonBody) => p.id)).toEqual([w.b.inboxId]);
      expect(projects.body.projects[0].item_count).toBe(1);

      const tags = await w.apiB.get('tags');
      expect(tags.body).toEqual([
        { name: 'Classified', item_count: 1 },
        { name: 'own', item_count: 1 },
      ]);
      expect((await w.apiA.get('tags')).body).toEqual([{ name: 'classified', item_count: 1 }]);
      for (const res of [items, projects, tags]) {
        for (const secret of [w.item.id, w.child.id, w.project.id, w.a.inboxId, 'A private thought', 'Secret plans']) {
          expect(res.text).not.toContain(secret);
        }
      }
    });

    it('GET /api/v1/items/{id}/children of an own item never lists children of another user', async () => {
      const w = await world();
      const res = await w.apiB.get(`items/${w.ownItem.id}/children`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });
  });
});
