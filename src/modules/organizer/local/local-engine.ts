import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { toTimestamp } from '../../../lib/timestamps.js';
import type { Decided, OrganizeRequest, OrganizerEngine } from '../organizer.types.js';
import { classifyType } from './classify-type.js';
import { findDueDate } from '../../../lib/dates/due-date.js';
import { loadWordVectors, type WordVectors } from '../learning/word-vectors.js';
import { routeProject, routingText } from './route-project.js';
import type { MeaningSpace } from '../learning/semantic.js';
import { loadSentenceEncoder, sentenceSpace } from '../learning/sentence-vectors.js';

/** A note may still carry a deadline when it says so in as many words. */
const DEADLINE = /\b(?:by|due|deadline|before|until|till)\b/i;

/** Date and type, and the title routing reads. */
function understand(request: OrganizeRequest) {
  const due = findDueDate(request.title, request.now, request.timezone);
  const type = classifyType(request.title, request.content_md, { hasDueDate: due.dueAt !== null, aboutPast: due.aboutPast });
  // A note records something; a date in it ("school ends on the 18th") is part of the record, not a deadline.
  const keepDue = due.dueAt !== null && (type === 'todo' || DEADLINE.test(request.title));
  // Routing reads the title without its date phrase: "in 2 hours" says nothing about the project.
  return { due, type, keepDue, routingTitle: keepDue ? due.title : request.title };
}

/** Everything on this machine: chrono-node for dates, word rules for the type, BM25 over the user's history for the project. */
export function decideLocally(request: OrganizeRequest, vectors?: WordVectors, sentences?: MeaningSpace, understood = understand(request)): Decided {
  const { due, type, keepDue, routingTitle } = understood;
  const routing = routeProject(routingTitle, request.content_md, request.projects, request.model, { vectors, sentences });
  return {
    engine: 'local',
    type,
    project_id: routing.projectId,
    due_at: keepDue && due.dueAt ? toTimestamp(due.dueAt) : null,
    all_day: keepDue && due.dueAt !== null && due.allDay,
    title: routing.title,
    reason: routing.reason,
  };
}

/**
 * The word vectors and the sentence encoder (unless ORGANIZER_SENTENCE_ENCODER=off) are loaded
 * asynchronously at the first organize of the process, then shared; the encoder reads the capture
 * and the projects' latest titles (cached).
 */
export async function decideLoaded(request: OrganizeRequest, options: { sentenceEncoder: boolean }): Promise<Decided> {
  const understood = understand(request);
  const [vectors, encoder] = await Promise.all([loadWordVectors(), options.sentenceEncoder ? loadSentenceEncoder() : undefined]);
  const sentences = encoder && (await sentenceSpace(encoder, routingText(understood.routingTitle, request.content_md), request.projects));
  // The dates (chrono-node) ran above; routing is the next stretch: other requests get a turn first.
  await yieldToLoop();
  return decideLocally(request, vectors, sentences, understood);
}

export const localEngine: OrganizerEngine = {
  name: 'local',
  decide: (request) => decideLoaded(request, { sentenceEncoder: true }),
};
