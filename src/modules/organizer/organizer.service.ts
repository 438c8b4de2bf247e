import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { ItemEdits } from '../items/single-item-edits.js';
import type { PatchInput } from '../items/patch-columns.js';
import type { ItemLoader } from '../items/item-loader.js';
import type { LimitsService } from '../limits/limits.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { applyDecision, type FixedFields, type OrganizedFields } from './apply-decision.js';
import type { AiView, CapturedItem } from './organizer.schemas.js';
import type { RoutingLearner } from './learning/routing-learner.js';
import type { ModelData } from './learning/routing-model.js';
import type { EventsService } from '../events/events.service.js';
import { createRecentTitles } from './recent-titles.js';
import type { Decided, OrganizerEngine, ProjectContext } from './organizer.types.js';

/** How many of the user's latest item titles the engines see: plenty to learn from, bounded in cost. */
const HISTORY_LIMIT = 2000;

export interface CaptureToOrganize {
  /** The item as the capture alone would store it. */
  baseline: OrganizedFields;
  content_md: string | null;
  /** The fields the client gave explicitly. */
  fixed: FixedFields;
  /** When the text was typed, when not now (an offline capture's replay, decision 0085). */
  readAt?: Date;
}

export interface OrganizerService {
  /** Decides for a capture before it is stored; counts one run against the AI quota. */
  organizeCapture(user: AuthUser, capture: CaptureToOrganize): Promise<{ fields: OrganizedFields; ai: AiView }>;
  /** Runs the organizer on a stored item and saves what it changed, with its item.updated event. */
  organizeItem(user: AuthUser, id: string): Promise<CapturedItem>;
  /** A capture the organizer filed, now stored: the user's model learns it once they keep it (never before). */
  keepFiling(userId: string, item: { id: string; title: string | null; project_id: string }): Promise<void>;
}

export function createOrganizerService(deps: {
  db: Db;
  clock: Clock;
  engine: OrganizerEngine;
  limits: LimitsService;
  projects: ProjectsService;
  loader: ItemLoader;
  patchItem: ItemEdits['patch'];
  learner: RoutingLearner;
  events: Pick<EventsService, 'tail' | 'changes'>;
}): OrganizerService {
  const { db } = deps;
  const recent = createRecentTitles({ db, clock: deps.clock, events: deps.events, limit: HISTORY_LIMIT });

  /** The user's projects with their latest titles, and the model (which may learn the filings kept since). */
  async function history(userId: string, excludeItemId?: string): Promise<{ projects: ProjectContext[]; model: ModelData }> {
    const list = await deps.projects.list(userId);
    const titles = await recent.latest(userId, excludeItemId);
    const contexts = (rows: typeof titles): ProjectContext[] => {
      const byProject = new Map<string, string[]>();
      for (const t of rows) {
        const titles = byProject.get(t.project_id);
        if (titles) titles.push(t.title);
        else byProject.set(t.project_id, [t.title]);
      }
      return list.map((p) => ({ id: p.id, name: p.name, is_default: p.is_default, titles: byProject.get(p.id) ?? [] }));
    };
    const { model, pending } = await deps.learner.modelFor(userId, contexts(titles));
    // The organizer's own filings not yet kept are no evidence of where things go (issue 47).
    const unconfirmed = new Set(pending.map((f) => f.item_id));
    return { projects: unconfirmed.size === 0 ? contexts(titles) : contexts(titles.filter((t) => !unconfirmed.has(t.id))), model };
  }

  async function decide(user: AuthUser, subject: { title: string; content_md: string | null; excludeItemId?: string; readAt?: Date }): Promise<Decided> {
    // Counted before the work, so a run that fails half-way still counts, as a paid API call would.
    await deps.limits.consumeAiRun(user);
    const { projects, model } = await history(user.id, subject.excludeItemId);
    // Reading 2,000 titles and routing them are each a stretch on the event loop: other requests
    // get a turn between them (issue 52: no stall over 20 ms beside an organized capture).
    await yieldToLoop();
    const decided = await deps.engine.decide({
      title: subject.title,
      content_md: subject.content_md,
      now: subject.readAt ?? deps.clock.now(),
      timezone: user.timezone,
      projects,
      model,
    });
    // An engine may only name one of the user's projects; anything else means "no project".
    const known = projects.find((p) => p.id === decided.project_id);
    return { ...decided, project_id: known && !known.is_default ? known.id : null };
  }

  return {
    keepFiling: (userId, item) => deps.learner.recordFiling(userId, item),

    async organizeCapture(user, capture) {
      const decided = await decide(user, {
        title: capture.baseline.title ?? '',
        content_md: capture.content_md,
        ...(capture.readAt ? { readAt: capture.readAt } : {}),
      });
      return applyDecision(capture.baseline, capture.fixed, decided);
    },

    async organizeItem(user, id) {
      const before = await deps.loader.requireView(db, user.id, id);
      const inbox = await deps.projects.requireInbox(db, user.id);
      // A stored item keeps what was settled before: a project other than the Inbox, a due date it has.
      const fixed: FixedFields = { type: false, project_id: before.project_id !== inbox.id, due_at: before.due_at !== null };
      const baseline: OrganizedFields = {
        type: before.type,
        project_id: before.project_id,
        due_at: before.due_at,
        all_day: before.all_day,
        title: before.title,
      };
      const decided = await decide(user, { title: before.title ?? '', content_md: before.content_md, excludeItemId: before.id });
      const { fields, ai } = applyDecision(baseline, fixed, decided);
      if (ai.applied.length === 0) return { ...before, ai };
      const patch: PatchInput = {};
      if (ai.applied.includes('type')) patch.type = fields.type;
      if (ai.applied.includes('project_id')) patch.project_id = fields.project_id;
      if (ai.applied.includes('due_at')) patch.due_at = fields.due_at;
      if (ai.applied.includes('all_day')) patch.all_day = fields.all_day;
      if (ai.applied.includes('title')) patch.title = fields.title;
      // One transaction: the change and its item.updated event (the PATCH rules, events included).
      return { ...(await deps.patchItem(user.id, id, patch)), ai };
    },
  };
}
