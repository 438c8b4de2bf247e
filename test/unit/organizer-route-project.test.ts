import { describe, expect, it } from 'vitest';
import { ROUTING_PARAMS } from '../../src/modules/organizer/learning/params.js';
import { emptyModel } from '../../src/modules/organizer/learning/routing-model.js';
import { seedModel } from '../../src/modules/organizer/learning/seed.js';
import { loadWordVectors } from '../../src/modules/organizer/learning/word-vectors.js';
import { enoughEvidence, routeProject } from '../../src/modules/organizer/local/route-project.js';
import type { ProjectContext } from '../../src/modules/organizer/organizer.types.js';

function user(projects: Record<string, string[]>) {
  const contexts: ProjectContext[] = Object.entries(projects).map(([name, titles]) => ({ id: name, name, is_default: name === 'Inbox', titles }));
  const model = emptyModel();
  seedModel(model, contexts);
  return { contexts, model };
}

describe('routeProject: when the local engine files and when it stays (issue 37)', () => {
  it('is not settled by "for the Team" when the text names another project too: the evidence decides', async () => {
    const { contexts, model } = user({
      Inbox: [],
      Team: ['1:1 with Priya', 'team offsite agenda'],
      Budget: ['Q3 spend report', 'headcount budget for next year', 'budget for the conference travel'],
    });
    const r = routeProject('budget for the team offsite', null, contexts, model, { vectors: await loadWordVectors() });
    expect(r.how).not.toBe('mention');
    // One name alone still settles it.
    expect(routeProject('slides for the team', null, contexts, model).how).toBe('mention');
    expect(routeProject('Budget: cut the unused seats', null, contexts, model).projectId).toBe('Budget');
  });

  it('is less sure when two projects are both near the text than when one is: the runner-up counts against the best', async () => {
    const vectors = await loadWordVectors();
    const { contexts, model } = user({
      Inbox: [],
      Work: ['review PR for the billing service', 'deploy the search API'],
      Home: ['fix the kitchen faucet', 'paint the guest room'],
    });
    const clear = routeProject('review PR for the search API', null, contexts, model, { vectors, threshold: 0 });
    expect(clear.projectId).toBe('Work');
    // Shares words with both projects.
    const torn = routeProject('fix the billing service faucet', null, contexts, model, { vectors, threshold: 0 });
    expect(torn.confidence).toBeLessThan(clear.confidence);
    const saved = ROUTING_PARAMS.margin;
    try {
      ROUTING_PARAMS.margin = 0;
      const without = routeProject('fix the billing service faucet', null, contexts, model, { vectors, threshold: 0 });
      expect(torn.confidence).toBeLessThan(without.confidence);
    } finally {
      ROUTING_PARAMS.margin = saved;
    }
  });

  it("leaves a text near none of a new user's few projects in the Inbox, saying what was closest", async () => {
    const vectors = await loadWordVectors();
    const { contexts, model } = user({ Inbox: [], Garden: ['plant tulip bulbs', 'mow the lawn'] });
    const r = routeProject('call grandma', null, contexts, model, { vectors });
    expect(r.projectId).toBeNull();
    expect(r.reason).toBe('not sure: closest is Garden');
  });

  it('does not file on one shared weak word: "Call grandma" stays out of Work though Work holds calls (issue 47)', async () => {
    const vectors = await loadWordVectors();
    const { contexts, model } = user({
      Inbox: ['buy stamps'],
      Work: [
        'Call the client about the contract',
        'Call Bob about the quarterly report',
        'Call the supplier',
        'send the invoice to Acme',
        'prepare slides for the board',
      ],
      Home: ['fix the sink', 'water the plants'],
    });
    for (const options of [{}, { vectors }]) {
      const r = routeProject('Call grandma', null, contexts, model, options);
      expect(r).toMatchObject({ projectId: null, how: 'none', reason: 'not sure: only “call” is like Work' });
      // One telling word is enough, and so are two weak ones.
      expect(routeProject('call the supplier', null, contexts, model, options).projectId).toBe('Work');
      expect(routeProject('call Bob', null, contexts, model, options).projectId).toBe('Work');
    }
    expect(enoughEvidence(['call'])).toBe(false);
    expect(enoughEvidence(['call', 'send'])).toBe(true);
    expect(enoughEvidence(['invoic'])).toBe(true);
    expect(enoughEvidence([], ROUTING_PARAMS.meaningAlone)).toBe(true);
    expect(enoughEvidence(['call'], ROUTING_PARAMS.meaningAlone - 0.01)).toBe(false);
  });
});
