import { isUniqueViolation } from '../../db/errors.js';
import type { Db } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';
import type { Clock } from '../../lib/clock.js';
import type { IdGenerator } from '../../lib/ids.js';
import { parseTimestamp, toTimestamp } from '../../lib/timestamps.js';
import { allDayDueAt } from '../../lib/dates/all-day.js';
import type { ItemLoader } from '../items/item-loader.js';
import type { ItemSchedule } from '../items/item-ports.js';
import type { ItemStore } from '../items/item-store.js';
import type { ItemView } from '../items/item-view.js';
import { findItemByClientId } from '../items/items.repository.js';
import { newItemRow } from '../items/new-item.js';
import type { AiView, CapturedItem } from '../organizer/organizer.schemas.js';
import type { OrganizerService } from '../organizer/organizer.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { QuickAddService } from '../quick-add/quick-add.service.js';
import { normalizeTagNames } from '../tags/tags.service.js';
import type { AuthUser } from '../../schemas/auth-user.js';

export type { CapturedItem } from '../organizer/organizer.schemas.js';

export interface CaptureInput {
  text: string;
  project_id?: string;
  type?: 'note' | 'todo';
  organize?: boolean;
  client_id?: string;
  due_at?: string;
  /** Due on a day (contract "All-day dates"); needs a due_at. */
  all_day?: boolean;
  /** Tag names, as PATCH takes them. */
  tags?: string[];
  /** Read the text with quick add first; explicit fields win. */
  parse?: boolean;
  recurrence?: { rule: string; from: 'due' | 'completion' } | null;
  remind_at?: string | null;
  /** When the text was typed, when not now: quick add and the organizer read its dates at it (decision 0085). */
  read_at?: Date;
  /** Ranges of the text whose quick-add reading the user refused (the web form's `literal`, decision 0098). */
  literal?: readonly (readonly [number, number])[];
}

/** Every way in makes items through this: the API's POST /capture, the web form, the share target, email-in, subtasks. */
export interface CaptureService {
  capture(user: AuthUser, input: CaptureInput): Promise<{ item: CapturedItem; created: boolean }>;
}

export interface CaptureDeps {
  db: Db;
  store: ItemStore;
  clock: Clock;
  newId: IdGenerator;
  loader: ItemLoader;
  projects: Pick<ProjectsService, 'requireProject' | 'inboxId'>;
  organizer: Pick<OrganizerService, 'organizeCapture' | 'keepFiling'>;
  quickAdd: Pick<QuickAddService, 'readCapture'>;
  schedule: ItemSchedule;
}

/**
 * A capture, in this order: read (quick add, and the one split of the text into title and body),
 * resolve the project, organize (Pro, when asked), schedule (recurrence and the default reminder),
 * store (the item, its tags and item.created in one transaction), learn (the organizer's filing,
 * after the commit). A client_id seen before answers the item it made and does none of it again.
 */
export function createCaptureService(deps: CaptureDeps): CaptureService {
  const { db, loader } = deps;

  async function replay(user: AuthUser, clientId: string): Promise<CapturedItem | undefined> {
    const existing = await findItemByClientId(db, user.id, clientId);
    return existing ? { ...(await loader.view(db, user.id, existing)), ai: null } : undefined;
  }

  async function capture(user: AuthUser, request: CaptureInput): Promise<{ item: CapturedItem; created: boolean }> {
    if (Array.from(request.text.trim()).length > CAPTURE_TEXT_MAX) throw badRequest(`text must be 1 to ${CAPTURE_TEXT_MAX} characters after trim`, 'text');
    if (request.client_id) {
      const previous = await replay(user, request.client_id);
      if (previous) return { item: previous, created: false };
    }

    // Read: quick add turns what it understands into explicit fields; capture goes on as if they were sent.
    const { text, input } = await deps.quickAdd.readCapture(user, request);
    const tags = input.tags === undefined ? [] : normalizeTagNames(input.tags);
    const dueAt = input.due_at === undefined ? null : parseTimestamp(input.due_at, 'due_at');
    const recurrence = input.recurrence ? deps.schedule.checkRecurrence(input.recurrence) : null;
    let remindAt = input.remind_at === undefined || input.remind_at === null ? null : parseTimestamp(input.remind_at, 'remind_at');

    // Resolve the project.
    const projectId = input.project_id ? (await deps.projects.requireProject(db, user.id, input.project_id)).id : await deps.projects.inboxId(user.id);
    let fields = {
      type: input.type ?? ('todo' as const),
      project_id: projectId,
      due_at: dueAt,
      all_day: input.all_day ?? false,
      title: text.title as string | null,
    };

    // Organize. The route's `pro` marker already refused free users.
    let ai: AiView | null = null;
    if (input.organize) {
      const fixed = {
        type: input.type !== undefined,
        project_id: input.project_id !== undefined,
        // A refused reading (decision 0098) is the user saying what the text's dates are: the organizer does not read them again.
        due_at: input.due_at !== undefined || (input.literal?.length ?? 0) > 0,
        all_day: input.all_day !== undefined,
      };
      ({ fields, ai } = await deps.organizer.organizeCapture(user, {
        baseline: fields,
        content_md: text.content_md,
        fixed,
        ...(input.read_at ? { readAt: input.read_at } : {}),
      }));
    }

    // Schedule.
    if (recurrence && fields.due_at === null) throw badRequest('a recurrence needs a due_at: give one in the same request', 'recurrence');
    if (fields.all_day && fields.due_at === null) throw badRequest('all_day needs a due_at: give one in the same request', 'all_day');
    // An all-day due is 00:00 of its date in the user's zone; it reminds only at an explicit remind_at.
    if (fields.all_day && fields.due_at !== null) fields = { ...fields, due_at: allDayDueAt(user.timezone, fields.due_at) };
    if (fields.due_at !== null && !fields.all_day && input.remind_at === undefined) {
      remindAt = await deps.schedule.defaultRemindAt(db, user.id, fields.due_at);
    }

    // Store.
    const stamped = () =>
      newItemRow({
        id: deps.newId(),
        user_id: user.id,
        ...fields,
        content_md: text.content_md,
        recurrence,
        remind_at: remindAt,
        client_id: input.client_id ?? null,
        captured_by_key: user.keyId,
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

    // Learn: the organizer's filing is an example until the user moves it (issue 37); after the commit.
    if (ai?.applied.includes('project_id')) await deps.organizer.keepFiling(user.id, item);
    return { item: { ...item, ai }, created: true };
  }

  return { capture };
}
