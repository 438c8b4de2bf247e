import { toTimestamp } from '../../../lib/timestamps.js';
import type { Decided, OrganizeRequest, OrganizerEngine } from '../organizer.types.js';
import { classifyType } from './classify-type.js';
import { findDueDate } from './due-date.js';
import { loadWordVectors, type WordVectors } from '../learning/word-vectors.js';
import { routeProject } from './route-project.js';

/** A note may still carry a deadline when it says so in as many words. */
const DEADLINE = /\b(?:by|due|deadline|before|until|till)\b/i;

/** Everything on this machine: chrono-node for dates, word rules for the type, BM25 over the user's history for the project. */
export function decideLocally(request: OrganizeRequest, vectors?: WordVectors): Decided {
  const due = findDueDate(request.title, request.now, request.timezone);
  const type = classifyType(request.title, request.content_md, { hasDueDate: due.dueAt !== null, aboutPast: due.aboutPast });
  // A note records something; a date in it ("school ends on the 18th") is part of the record, not a deadline.
  const keepDue = due.dueAt !== null && (type === 'todo' || DEADLINE.test(request.title));
  // Routing reads the title without its date phrase: "in 2 hours" says nothing about the project.
  const routing = routeProject(keepDue ? due.title : request.title, request.content_md, request.projects, request.model, { vectors });
  return {
    engine: 'local',
    type,
    project_id: routing.projectId,
    due_at: keepDue && due.dueAt ? toTimestamp(due.dueAt) : null,
    title: routing.title,
    reason: routing.reason,
  };
}

export const localEngine: OrganizerEngine = {
  name: 'local',
  // The vectors are read asynchronously at the first organize of the process, then shared.
  decide: async (request) => decideLocally(request, await loadWordVectors()),
};
