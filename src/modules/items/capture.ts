import { isUniqueViolation } from '../../db/errors.js';
import type { Db } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { parseTimestamp, toTimestamp } from '../../lib/timestamps.js';
import type { AiView } from '../organizer/organizer.schemas.js';
import type { OrganizerService } from '../organizer/organizer.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { QuickAddService } from '../quick-add/quick-add.service.js';
import { checkRecurrence, defaultRemindAt, type RecurrenceService } from '../recurrence/recurrence.service.js';
import { normalizeTagNames } from '../tags/tags.service.js';
import type { AuthUser } from '../users/auth-user.js';
import { splitCapturedText } from '../../lib/capture-text.js';
import type { ItemLoader } from './item-loader.js';
import type { ItemStore } from './item-store.js';
import type { ItemView } from './item-view.js';
import { findItemByClientId } from './items.repository.js';
import { newItemRow } from './new-item.js';

/** The contract's limit on captured text, counted after trim. */
const TEXT_MAX = 100000;

export interface CaptureInput {
  text: string;
  project_id?: string;
  type?: 'note' | 'todo';
  organize?: boolean;
  client_id?: string;
  due_at?: string;
  /** Tag names, as PATCH takes them. */
  tags?: string[];
  /** Read the text with quick add first; explicit fields win. */
  parse?: boolean;
  recurrence?: { rule: string; from: 'due' | 'completion' } | null;
  remind_at?: string | null;
}

/** `ai` is what the organizer decided, or null when it did not run. */
export type CapturedItem = ItemView & { ai: AiView | null };

export type Capture = (user: AuthUser, input: CaptureInput) => Promise<{ item: CapturedItem; created: boolean }>;

export interface CaptureDeps {
  db: Db;
  store: ItemStore;
  clock: Clock;
  newId: IdGenerator;
  loader: ItemLoader;
  projects: Pick<ProjectsService, 'requireProject' | 'inboxId'>;
  organizer: Pick<OrganizerService, 'organizeCapture' | 'keepFiling'>;
  quickAdd: Pick<QuickAddService, 'applyToCapture'>;
  recurrence: Pick<RecurrenceService, 'prefs'>;
}

export function createCapture(deps: CaptureDeps): Capture {
  const { db, loader } = deps;

  async function replay(user: AuthUser, clientId: string): Promise<CapturedItem | undefined> {
    const existing = await findItemByClientId(db, user.id, clientId);
    return existing ? { ...(await loader.view(db, user.id, existing)), ai: null } : undefined;
  }

  return async (user, request) => {
    let input = request;
    if (Array.from(input.text.trim()).length > TEXT_MAX) throw badRequest(`text must be 1 to ${TEXT_MAX} characters after trim`, 'text');
    if (input.client_id) {
      const previous = await replay(user, input.client_id);
      if (previous) return { item: previous, created: false };
    }
    // Quick add turns what it understands into explicit fields; capture goes on as if they were sent.
    input = await deps.quickAdd.applyToCapture(user, input);
    const tags = input.tags === undefined ? [] : normalizeTagNames(input.tags);
    const dueAt = input.due_at === undefined ? null : parseTimestamp(input.due_at, 'due_at');
    const recurrence = input.recurrence ? checkRecurrence(input.recurrence) : null;
    let remindAt = input.remind_at === undefined || input.remind_at === null ? null : parseTimestamp(input.remind_at, 'remind_at');
    const projectId = input.project_id ? (await deps.projects.requireProject(db, user.id, input.project_id)).id : await deps.projects.inboxId(user.id);
    const text = splitCapturedText(input.text);
    let fields = { type: input.type ?? ('todo' as const), project_id: projectId, due_at: dueAt, title: text.title as string | null };
    let ai: AiView | null = null;
    // The route's `pro` marker already refused free users; a replay above never runs the organizer again.
    if (input.organize) {
      const fixed = { type: input.type !== undefined, project_id: input.project_id !== undefined, due_at: input.due_at !== undefined };
      ({ fields, ai } = await deps.organizer.organizeCapture(user, { baseline: fields, content_md: text.content_md, fixed }));
    }
    if (recurrence && fields.due_at === null) throw badRequest('a recurrence needs a due_at: give one in the same request', 'recurrence');
    if (fields.due_at !== null && input.remind_at === undefined)
      remindAt = defaultRemindAt(fields.due_at, (await deps.recurrence.prefs(db, user.id)).reminder_default);
    const stamped = () =>
      newItemRow({
        id: deps.newId(),
        user_id: user.id,
        ...fields,
        content_md: text.content_md,
        recurrence,
        remind_at: remindAt,
        client_id: input.client_id ?? null,
        created_at: toTimestamp(deps.clock.now()),
      });
    let item: ItemView;
    try {
      item = await deps.store.insertNew(user.id, stamped, tags);
    } catch (error) {
      // Two captures with one client_id raced; the loser answers with the winner's item.
      const winner = isUniqueViolation(error) && input.client_id ? await replay(user, input.client_id) : undefined;
      if (winner) return { item: winner, created: false };
      throw error;
    }
    // The organizer's filing is an example until the user moves it (issue 37); learned after the commit.
    if (ai?.applied.includes('project_id')) await deps.organizer.keepFiling(user.id, item);
    return { item: { ...item, ai }, created: true };
  };
}
