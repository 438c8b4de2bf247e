import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { chatAnswer, FakeOpenAi, loopbackFetch } from '../helpers/fake-openai.js';
import { client, createUser, type JsonBody, type TestUser } from '../helpers/test-app.js';
import { makeHome, runCin, type CinRun } from './cin-process.js';
import { startListeningApp, type ListeningApp } from './listening-app.js';

/** `cin add --split` (clients.md, fourth wave) against a real server: a list as one batch, --dry-run prints the split. */
describe.each(DIALECTS)('cin add --split (%s)', (dialect) => {
  let t: ListeningApp;
  const home = makeHome();

  beforeAll(async () => {
    t = await startListeningApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
    home.dispose();
  });

  async function newUser(): Promise<{ user: TestUser; cin: (args: string[], stdin?: string) => Promise<CinRun> }> {
    const user = await createUser(t, 'free');
    const env = { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token };
    return { user, cin: (args, stdin) => runCin(home.dir, args, { env, ...(stdin === undefined ? {} : { stdin }) }) };
  }
  const items = async (user: TestUser): Promise<JsonBody[]> => (await client(t.app, user.token).get('items?limit=100')).body.items;
  const LIST = 'Trip @travel:\n  - [x] book hotel\n  - pack\ncall mom\n';

  it('--dry-run prints the split, indented under its headings, and stores nothing', async () => {
    const { user, cin } = await newUser();
    const run = await cin(['add', '--split', '--dry-run', '-'], LIST);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Trip  @travel\n  [x] book hotel  @travel\n  pack  @travel\ncall mom\n');
    const asJson = JSON.parse((await cin(['add', '--split', '--dry-run', '--json', 'a; b'])).stdout);
    expect(asJson.items.map((i: JsonBody) => i.title)).toEqual(['a', 'b']);
    expect(await items(user)).toEqual([]);
  });

  it('captures the list from stdin as one batch: subtasks, [x] done, --tag on each', async () => {
    const { user, cin } = await newUser();
    const run = await cin(['add', '--split', '--json', '--tag', 'dump'], LIST);
    expect(run.stderr).toBe('');
    const { items: made } = JSON.parse(run.stdout);
    expect(made.map((i: JsonBody) => [i.title, i.is_completed, i.tags])).toEqual([
      ['Trip', false, ['dump', 'travel']],
      ['book hotel', true, ['dump', 'travel']],
      ['pack', false, ['dump', 'travel']],
      ['call mom', false, ['dump']],
    ]);
    expect(made[1].parent_id).toBe(made[0].id);
    expect((await items(user)).map((i) => i.title).sort()).toEqual(['Trip', 'book hotel', 'call mom', 'pack']);
  });

  it('prints a row per item from TEXT; without --split a list stays one item', async () => {
    const { user, cin } = await newUser();
    const run = await cin(['add', '--split', 'milk; eggs']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(run.stdout).toMatch(/^added {5}.*milk/);
    expect((await cin(['add', 'one\ntwo'])).code).toBe(0);
    expect((await items(user)).map((i) => i.title).sort()).toEqual(['eggs', 'milk', 'one']);
    const refused = await cin(['add', '--split', '--due', 'tomorrow', 'a; b']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--due does not apply to a list');
  });
});

/** `cin add --split --organize` on an instance whose organizer is an OpenAI-compatible model (decision 0099). */
describe.each(DIALECTS)('cin add --split --organize (%s)', (dialect) => {
  const fake = new FakeOpenAi();
  let t: ListeningApp;
  const home = makeHome();

  beforeAll(async () => {
    await fake.start();
    t = await startListeningApp(dialect, {
      fetch: loopbackFetch,
      organizer: { engine: 'openai', openai: { baseUrl: fake.baseUrl, apiKey: 'sk-test-key', model: 'test-model' }, timeoutMs: 2_000 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake.stop();
    home.dispose();
  });

  const PROSE = 'pick up the parcel and then water the plants and feed the cat';
  const cinFor = (user: TestUser) => (args: string[]) => runCin(home.dir, args, { env: { CAPTURE_INBOX_URL: t.baseUrl, CAPTURE_INBOX_TOKEN: user.token } });
  const titles = async (user: TestUser): Promise<string[]> =>
    ((await client(t.app, user.token).get('items?limit=100')).body.items as JsonBody[]).map((i) => i.title as string).sort();

  it("previews and stores the model's split of prose for a Pro user", async () => {
    fake.answer = () => chatAnswer(JSON.stringify({ items: ['pick up the parcel', 'water the plants and feed the cat'] }));
    const user = await createUser(t, 'pro');
    const cin = cinFor(user);
    const preview = await cin(['add', '--split', '--organize', '--dry-run', '--json', PROSE]);
    expect(preview.stderr).toBe('');
    expect(JSON.parse(preview.stdout).items.map((i: JsonBody) => i.title)).toEqual(['pick up the parcel', 'water the plants and feed the cat']);
    expect(await titles(user)).toEqual([]);
    const run = await cin(['add', '--split', '--organize', PROSE]);
    expect(run.code, run.stderr).toBe(0);
    expect(await titles(user)).toEqual(['pick up the parcel', 'water the plants and feed the cat']);
  });

  it('on Free splits by the rules alone, with a warning, and still captures', async () => {
    const user = await createUser(t, 'free');
    const requestsBefore = fake.requests.length;
    const run = await cinFor(user)(['add', '--split', '--organize', PROSE]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^warning: the organizer needs the Pro plan .*; split by the rules alone\n$/);
    expect(await titles(user)).toEqual([PROSE]);
    expect(fake.requests.length).toBe(requestsBefore);
  });
});
