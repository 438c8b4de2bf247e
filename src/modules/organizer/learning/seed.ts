import type { ProjectContext } from '../organizer.types.js';
import { learn, type ModelData } from './routing-model.js';

/**
 * The first build of a user's model, once: each title of their history counts as an example of the
 * project it sits in (the Inbox's as "stays"). Oldest first, so pruning keeps what is recent.
 */
export function seedModel(model: ModelData, projects: readonly ProjectContext[]): void {
  for (const p of projects) {
    for (const title of [...p.titles].reverse()) learn(model, { text: title, projectId: p.id });
  }
  model.seeded = true;
}
