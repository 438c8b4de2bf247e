import { describe, expect, it } from 'vitest';
import { ROUTING_PARAMS } from '../../src/modules/organizer/learning/params.js';
import { emptyModel } from '../../src/modules/organizer/learning/routing-model.js';
import { seedModel } from '../../src/modules/organizer/learning/seed.js';
import { SENTENCE_KNOBS, semanticPosterior } from '../../src/modules/organizer/learning/semantic.js';
import {
  findSentenceEncoder,
  loadSentenceEncoder,
  SENTENCE_DIMS,
  sentenceKey,
  sentenceSpace,
  sentenceSpaceOf,
  sentenceTexts,
  startSentenceEncoder,
} from '../../src/modules/organizer/learning/sentence-vectors.js';
import { loadWordVectors } from '../../src/modules/organizer/learning/word-vectors.js';
import { decideLoaded } from '../../src/modules/organizer/local/local-engine.js';
import { routeProject } from '../../src/modules/organizer/local/route-project.js';
import type { ProjectContext } from '../../src/modules/organizer/organizer.types.js';

function user(projects: Record<string, string[]>) {
  const contexts: ProjectContext[] = Object.entries(projects).map(([name, titles]) => ({ id: name, name, is_default: name === 'Inbox', titles }));
  const model = emptyModel();
  seedModel(model, contexts);
  return { contexts, model };
}

const newUser = () =>
  user({
    Inbox: [],
    Home: ['fix the leaking gutter', 'replace the porch light'],
    Wedding: ['venue deposit', 'guest list for the reception', 'send the invitations'],
    Work: ['quarterly report for the director', 'prepare the sprint demo'],
  });

const LOAD = 60_000;

describe('sentence encoder (learning/sentence-vectors.ts, decision 0062)', () => {
  it(
    'loads once per process in a worker and encodes texts as unit vectors, the same text the same way',
    async () => {
      const [a, b] = await Promise.all([loadSentenceEncoder(), loadSentenceEncoder()]);
      expect(a).toBeDefined();
      expect(a).toBe(b);
      const [x, y, z] = await a!.encode(['mow the lawn', 'mow the lawn', 'quarterly tax filing']);
      expect(x).toHaveLength(SENTENCE_DIMS);
      expect(Math.hypot(...x!)).toBeCloseTo(1, 4);
      expect([...x!]).toEqual([...y!]);
      expect([...z!]).not.toEqual([...x!]);
      expect(await a!.encode([])).toEqual([]);
    },
    LOAD,
  );

  it(
    'brings the world knowledge no shared word gives: peonies are for the wedding, the lawn for the home',
    async () => {
      const encoder = (await loadSentenceEncoder())!;
      const { contexts } = newUser();
      for (const [text, where] of [
        ['florist quote for peonies', 'Wedding'],
        ['mow the lawn one last time', 'Home'],
        ['slides for the investor update', 'Work'],
      ] as const) {
        const p = semanticPosterior((await sentenceSpace(encoder, text, contexts))!, text, contexts, SENTENCE_KNOBS)!;
        const best = [...p].sort((m, n) => n[1] - m[1])[0]!;
        expect(best[0], text).toBe(where);
      }
    },
    LOAD,
  );

  it(
    "files a capture that shares no word with a new user's titles (the lawn: Home), and leaves one near none of their projects in the Inbox",
    async () => {
      const now = new Date('2026-11-26T10:00:00Z');
      const decide = (title: string, { contexts, model }: ReturnType<typeof user>) =>
        decideLoaded({ title, content_md: null, now, timezone: 'UTC', projects: contexts, model }, { sentenceEncoder: true });
      expect((await decide('mow the lawn one last time', newUser())).project_id).toBe('Home');
      // As the integration test of the service: a user whose only titled project is Garden.
      const grandma = await decide('call grandma', user({ Inbox: [], Garden: ['plant tulip bulbs', 'mow the lawn'] }));
      expect(grandma.project_id).toBeNull();
      expect(grandma.reason).toBe('not sure: closest is Garden');
    },
    LOAD,
  );

  it('reads a text as its start with spaces collapsed, and a project as its name and latest titles', () => {
    expect(sentenceKey('  buy   milk\n')).toBe('buy milk');
    expect(sentenceKey('x'.repeat(1000))).toHaveLength(300);
    const titles = Array.from({ length: 50 }, (_, i) => `title ${i}`);
    const texts = sentenceTexts('a capture\n', [
      { id: 'i', name: 'Inbox', is_default: true, titles: ['  '] },
      { id: 'p', name: 'Piano', is_default: false, titles },
    ]);
    expect(texts).toEqual(['a capture', 'Piano', ...titles.slice(0, ROUTING_PARAMS.sentenceTitles)]);
  });

  it('falls back to the word vectors: without the packages, when the worker cannot load them, or when the capture is not encoded', async () => {
    expect(
      findSentenceEncoder(() => {
        throw new Error('Cannot find module');
      }),
    ).toBeUndefined();
    expect(await startSentenceEncoder(undefined)).toBeUndefined();
    expect(await startSentenceEncoder({ embeddings: '/nowhere/embeddings.js', model: '/nowhere/model.js' })).toBeUndefined();
    const vectors = await loadWordVectors();
    const { contexts, model } = newUser();
    const text = 'the gutter is leaking again';
    const words = routeProject(text, null, contexts, model, { vectors });
    const unknown = routeProject(text, null, contexts, model, { vectors, sentences: sentenceSpaceOf(new Map()) });
    expect(unknown).toEqual(words);
    expect(words.projectId).toBe('Home');
  }, 30_000);
});
