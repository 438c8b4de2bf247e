import { describe, expect, it } from 'vitest';
import { MAX_FEATURES, emptyModel, keepClasses, learn, parseModel, posterior } from '../../src/modules/organizer/learning/routing-model.js';
import { nearestTitles } from '../../src/modules/organizer/learning/nearest-titles.js';

describe('the routing model (issue 37)', () => {
  it('learns an example incrementally and takes it back when the same item is moved elsewhere', () => {
    const m = emptyModel();
    learn(m, { itemId: 'i1', text: 'offsite agenda', projectId: 'work' });
    expect(m.features['w:offsit']).toEqual([0, 1]);
    expect(m.docs).toEqual([1]);
    learn(m, { itemId: 'i1', text: 'offsite agenda', projectId: 'inbox' });
    expect(m.features['w:offsit']).toEqual([1, 1]);
    expect(m.docs).toEqual([0, 1]);
    expect(m.mass[0]).toBe(0);
    // Learning the same label twice for one item counts it once.
    learn(m, { itemId: 'i1', text: 'offsite agenda', projectId: 'inbox' });
    expect(m.docs).toEqual([0, 1]);
  });

  it('prefers the project whose examples share the words, and sums to 1 over the candidates', () => {
    const m = emptyModel();
    learn(m, { text: 'sprint demo slides', projectId: 'work' });
    learn(m, { text: 'fix the kitchen faucet', projectId: 'home' });
    const { p } = posterior(m, 'demo for the sprint', ['work', 'home', 'inbox']);
    expect(p.get('work')!).toBeGreaterThan(p.get('home')!);
    expect([...p.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it('says nothing of a text with no feature it knows: the classes are equally likely, whatever their sizes', () => {
    const m = emptyModel();
    learn(m, { text: 'plant tulip bulbs', projectId: 'garden' });
    learn(m, { text: 'mow the lawn', projectId: 'garden' });
    const { p, known } = posterior(m, 'phone grandpa', ['inbox', 'garden']);
    expect(known).toEqual([]);
    expect(p.get('garden')).toBeCloseTo(0.5, 10);
    expect(p.get('inbox')).toBeCloseTo(0.5, 10);
  });

  it('stays bounded: features beyond the cap are pruned, rarest first, and its JSON stays small', () => {
    const m = emptyModel();
    for (let i = 0; i < 3000; i++) learn(m, { itemId: `i${i}`, text: `word${i}x alpha${i % 7}q beta`, projectId: i % 2 ? 'a' : 'b' });
    expect(Object.keys(m.features).length).toBeLessThanOrEqual(MAX_FEATURES);
    expect(m.features['w:beta']).toBeDefined();
    expect(m.recent.length).toBeLessThanOrEqual(200);
    expect(JSON.stringify(m).length).toBeLessThan(120_000);
  });

  it("forgets a deleted project's class and its counts, keeping the others' indexes right", () => {
    const m = emptyModel();
    learn(m, { itemId: 'a', text: 'garlic beds', projectId: 'garden' });
    learn(m, { itemId: 'b', text: 'sprint demo', projectId: 'work' });
    keepClasses(m, new Set(['work']));
    expect(m.classes).toEqual(['work']);
    expect(m.features['w:garlic']).toBeUndefined();
    expect(m.features['w:demo']).toEqual([0, 1]);
    expect(m.recent).toEqual([['b', 0]]);
    expect(m.size).toBe(Object.keys(m.features).length);
  });

  it('reads a stored model back, and starts afresh from anything it cannot read', () => {
    const m = emptyModel();
    learn(m, { text: 'offsite agenda', projectId: 'work' });
    expect(parseModel(JSON.stringify(m))).toEqual(m);
    // Filings are rows of their own since decision 0114: a list left in a stored model is not part of it.
    expect(parseModel(JSON.stringify({ ...m, pending: [['item-1', 'work', '2026-11-29T10:00:00.000Z']] }))).toEqual(m);
    expect(parseModel('{"v":2}')).toEqual(emptyModel());
    expect(parseModel('not json')).toEqual(emptyModel());
  });

  it('gives the openai engine the titles nearest the capture first', () => {
    const titles = ['fix the kitchen faucet', 'plan the team offsite', 'sprint demo slides'];
    expect(nearestTitles('offsite dinner for the team', titles, 2)).toEqual(['plan the team offsite', 'fix the kitchen faucet']);
  });
});
