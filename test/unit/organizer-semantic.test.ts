import { describe, expect, it } from 'vitest';
import { ROUTING_PARAMS } from '../../src/modules/organizer/learning/params.js';
import { semanticPosterior } from '../../src/modules/organizer/learning/semantic.js';
import { findWordVectorsDir, loadWordVectors } from '../../src/modules/organizer/learning/word-vectors.js';
import type { ProjectContext } from '../../src/modules/organizer/organizer.types.js';

const projects: ProjectContext[] = [
  { id: 'inbox', name: 'Inbox', is_default: true, titles: [] },
  { id: 'house', name: 'House', is_default: false, titles: ['repaint the hallway', 'new lamp for the porch'] },
  { id: 'job', name: 'Job', is_default: false, titles: ['quarterly report for the director', 'budget review meeting'] },
];

describe('word vectors (learning/word-vectors.ts, semantic.ts)', () => {
  it('loads once per process: every caller shares one read', async () => {
    const [a, b] = await Promise.all([loadWordVectors(), loadWordVectors()]);
    expect(a).toBeDefined();
    expect(a).toBe(b);
    expect(a!.count).toBe(60_000);
    expect(a!.data.length).toBe(60_000 * a!.dims);
    // Rows are in frequency order: a common word comes before a rare one.
    expect(a!.rows.get('house')!).toBeLessThan(a!.rows.get('faucet')!);
  });

  it('brings world knowledge no shared word gives: a dripping faucet is nearer the house than the job', async () => {
    const p = semanticPosterior((await loadWordVectors())!, 'faucet drips in the bathroom', projects)!;
    expect(p.get('house')!).toBeGreaterThan(0.5);
    expect(p.get('house')!).toBeGreaterThan(p.get('job')! * 3);
    const q = semanticPosterior((await loadWordVectors())!, 'slides for the investor presentation', projects)!;
    expect(q.get('job')!).toBeGreaterThan(q.get('house')!);
  });

  it('is not sure of any project when the text is near none of them, and silent without a known word', async () => {
    const v = (await loadWordVectors())!;
    const only: ProjectContext[] = [projects[0]!, { id: 'garden', name: 'Garden', is_default: false, titles: ['plant tulip bulbs', 'mow the lawn'] }];
    expect(semanticPosterior(v, 'phone my grandmother', only)!.get('garden')!).toBeLessThan(0.5);
    expect(semanticPosterior(v, 'xqzv blorft', projects)).toBeUndefined();
  });

  it('weighs what a project is about (its prototype) over one outlier title that happens to be near', async () => {
    const v = (await loadWordVectors())!;
    const kitchen: ProjectContext[] = [
      projects[0]!,
      {
        id: 'cooking',
        name: 'Cooking',
        is_default: false,
        titles: ['braise the short ribs', 'bake sourdough bread', 'roast vegetables for dinner', 'marinate the chicken thighs'],
      },
      { id: 'reading', name: 'Reading', is_default: false, titles: ['finish the novel', 'soup recipes book from the library', 'poetry anthology'] },
    ];
    const withPrototype = semanticPosterior(v, 'lentil soup', kitchen)!;
    expect(withPrototype.get('cooking')!).toBeGreaterThan(0.95);
    const saved = ROUTING_PARAMS.prototypeWeight;
    try {
      ROUTING_PARAMS.prototypeWeight = 0;
      // By the nearest titles alone, Reading's "soup recipes book" keeps a real share.
      const nearestOnly = semanticPosterior(v, 'lentil soup', kitchen)!;
      expect(nearestOnly.get('reading')!).toBeGreaterThan(withPrototype.get('reading')! * 3);
    } finally {
      ROUTING_PARAMS.prototypeWeight = saved;
    }
  });

  it("are found from wherever the module runs: src/, dist/ and the bundle's dist/chunks/", () => {
    const root = new URL('../../', import.meta.url);
    const fixture = new URL('src/modules/organizer/learning/word-vectors/', root).href;
    for (const at of [
      'src/modules/organizer/learning/word-vectors.ts',
      'dist/modules/organizer/learning/word-vectors.js',
      'dist/chunks/local-engine-ABCD.js',
      'dist/server.js',
    ]) {
      expect(findWordVectorsDir(new URL(at, root))?.href, at).toBe(fixture);
    }
    expect(findWordVectorsDir(new URL('file:///nowhere/at/all/x.js'))).toBeUndefined();
  });
});
