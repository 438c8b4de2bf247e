import { toTimestamp } from '../../../lib/timestamps.js';
import type { Decided, OrganizeRequest, OrganizerEngine } from '../organizer.types.js';
import { classifyType } from './classify-type.js';
import { findDueDate } from './due-date.js';
import { routeProject } from './route-project.js';

/** Everything on this machine: chrono-node for dates, word rules for the type, BM25 over the user's history for the project. */
export function decideLocally(request: OrganizeRequest): Decided {
  const routing = routeProject(request.title, request.content_md, request.projects);
  const due = findDueDate(routing.title, request.now, request.timezone);
  const type = classifyType(request.title, request.content_md, { hasDueDate: due.dueAt !== null, aboutPast: due.aboutPast });
  return {
    engine: 'local',
    type,
    project_id: routing.projectId,
    due_at: due.dueAt ? toTimestamp(due.dueAt) : null,
    title: due.title,
  };
}

export const localEngine: OrganizerEngine = {
  name: 'local',
  decide: async (request) => decideLocally(request),
};
