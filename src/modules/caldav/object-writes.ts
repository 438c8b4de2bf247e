import type { Db } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { CaptureService } from '../capture/capture.service.js';
import { ifMatchHolds, ifMatchPrecondition, itemEtag } from '../items/item-etag.js';
import type { ItemView } from '../items/item-view.js';
import type { ItemsService } from '../items/items.service.js';
import type { PatchInput } from '../items/patch-columns.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { checkRecurrence } from '../recurrence/rrule-subset.js';
import { normalizeTagNames } from '../tags/tags.service.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { clearParentUid, findObjectByUid, findObjectsWaitingFor, saveObject } from './caldav.repository.js';
import { holds, type Collection } from './collections.js';
import { readOnlyCollection, uidConflict, unsupportedComponent } from './dav-error.js';
import { readObject, type ParsedObject } from './ical-read.js';
import { isForeignRule, type ObjectStore } from './object-store.js';

/*
 * PUT and DELETE of calendar objects (RFC 4791 section 5.3.2), through the same services the API
 * uses, so every rule (status, recurrence, reminders, events, the change feed) holds for CalDAV too.
 */

export interface PutConditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

export interface PutResult {
  created: boolean;
  /** Absent when the stored item differs from the body (a recurring todo completed moved on). */
  etag: string | undefined;
}

export interface ObjectWrites {
  put(user: AuthUser, collection: Collection, name: string, body: string, conditions: PutConditions): Promise<PutResult>;
  remove(user: AuthUser, collection: Collection, name: string, ifMatch: string | undefined): Promise<void>;
}

const preconditionFailed = (why: string) => new AppError('precondition_failed', why);
const UNTITLED = 'Untitled';

/** The item status a todo's STATUS asks for, or undefined to leave it (a backlog item stays backlog). */
function todoStatus(parsed: ParsedObject, current: ItemView | undefined): PatchInput['status'] {
  if (parsed.completed) return 'done';
  if (parsed.status === 'CANCELLED') return 'archived';
  if (parsed.status === 'IN-PROCESS') return 'doing';
  if (current?.status === 'backlog') return undefined;
  return 'todo';
}

export function createObjectWrites(deps: {
  db: Db;
  store: ObjectStore;
  items: Pick<ItemsService, 'patch' | 'remove'>;
  capture: CaptureService;
  projects: Pick<ProjectsService, 'inboxId'>;
  now: () => string;
}): ObjectWrites {
  const { db, store } = deps;

  /** The item a UID names: the one a client PUT with it, or an item made elsewhere whose id it is. */
  async function itemOfUid(user: AuthUser, uid: string): Promise<ItemView | undefined> {
    const row = await findObjectByUid(db, user.id, uid);
    if (row) return store.item(user, row.item_id);
    return store.item(user, uid);
  }

  /** The mapped fields of a body, checked before anything is written so a refusal changes nothing. */
  async function fieldsOf(user: AuthUser, parsed: ParsedObject, current: ItemView | undefined) {
    const tags = normalizeTagNames(parsed.categories);
    const recurrence =
      parsed.rrule === null || isForeignRule(parsed.rrule) ? null : checkRecurrence({ rule: parsed.rrule, from: current?.recurrence?.from ?? 'due' });
    if (recurrence && !parsed.due) throw new AppError('bad_request', 'the iCalendar body is not valid: a recurring todo needs a DUE');
    const parent = parsed.parentUid === null ? undefined : await itemOfUid(user, parsed.parentUid);
    return { tags, recurrence, parent };
  }

  async function linkWaitingChildren(user: AuthUser, parentUid: string, parentId: string): Promise<void> {
    for (const row of await findObjectsWaitingFor(db, user.id, parentUid)) {
      const child = await store.item(user, row.item_id);
      if (child && child.id !== parentId) await deps.items.patch(user.id, child.id, { parent_id: parentId });
      await clearParentUid(db, user.id, row.item_id);
    }
  }

  return {
    async put(user, collection, name, body, conditions) {
      // A saved filter's collection is read-only (contract): its members are the query's answer.
      if (collection.kind === 'filter') throw readOnlyCollection();
      const parsed = readObject(body, user.timezone);
      const wanted = collection.kind === 'notes' ? 'VJOURNAL' : 'VTODO';
      if (parsed.kind !== wanted) throw unsupportedComponent(wanted);

      const atUrl = await store.find(user, collection, name);
      const ofUid = await itemOfUid(user, parsed.uid);
      if (atUrl && atUrl.uid !== parsed.uid) throw uidConflict(atUrl.name);
      // The UID lives at another URL of this collection: a second copy would be a duplicate.
      if (!atUrl && ofUid && holds(collection, ofUid)) throw uidConflict((await store.ofItems(user, [ofUid]))[0]!.name);
      const current = atUrl?.item ?? ofUid;

      if (conditions.ifNoneMatch?.trim() === '*' && atUrl) throw preconditionFailed('an object exists at this URL (If-None-Match: *)');
      if (conditions.ifMatch !== undefined && (!atUrl || !ifMatchHolds(conditions.ifMatch, atUrl.etag))) {
        throw preconditionFailed('the object changed since you read it (If-Match does not match its ETag)');
      }

      const { tags, recurrence, parent } = await fieldsOf(user, parsed, current);
      const projectId = collection.projectId ?? (current ? undefined : await deps.projects.inboxId(user.id));
      const status = collection.kind === 'todos' ? todoStatus(parsed, current) : parsed.status === 'CANCELLED' ? 'archived' : undefined;
      let item: ItemView;
      if (current) {
        const patch: PatchInput = {
          title: parsed.summary,
          content_md: parsed.description,
          tags,
          remind_at: parsed.remindAt,
          ...(collection.kind === 'todos'
            ? {
                due_at: parsed.due?.at ?? null,
                // A date-only DUE is an all-day item (contract "Mapping"); a date-time one is not.
                ...(parsed.due ? { all_day: parsed.due.dateOnly } : {}),
                recurrence: parsed.rrule !== null && recurrence === null ? null : recurrence,
              }
            : {}),
          ...(status ? { status } : {}),
          ...(projectId && projectId !== current.project_id ? { project_id: projectId } : {}),
          // RELATED-TO absent leaves the parent: Apple Reminders does not send it for subtasks.
          ...(parent && parent.id !== current.id ? { parent_id: parent.id } : {}),
        };
        const precondition = conditions.ifMatch === undefined ? undefined : ifMatchPrecondition(conditions.ifMatch);
        item = await deps.items.patch(user.id, current.id, patch, precondition);
      } else {
        const text = parsed.summary ?? parsed.description ?? UNTITLED;
        const created = await deps.capture.capture(user, {
          text: parsed.summary !== null && parsed.description !== null ? `${parsed.summary}\n${parsed.description}` : text,
          type: collection.kind === 'notes' ? 'note' : 'todo',
          ...(projectId ? { project_id: projectId } : {}),
          ...(parsed.due ? { due_at: parsed.due.at, all_day: parsed.due.dateOnly } : {}),
          tags,
          recurrence,
          remind_at: parsed.remindAt,
        });
        item = created.item;
        const follow: PatchInput = {
          ...(status && status !== item.status ? { status } : {}),
          ...(parent ? { parent_id: parent.id } : {}),
        };
        if (Object.keys(follow).length > 0) item = await deps.items.patch(user.id, item.id, follow);
      }

      const waitingParent = parsed.parentUid !== null && !parent ? parsed.parentUid : null;
      await saveObject(db, user.id, { item_id: item.id, name, uid: parsed.uid, ics: parsed.text, parent_uid: waitingParent }, deps.now());
      await linkWaitingChildren(user, parsed.uid, item.id);
      const latest = (await store.item(user, item.id)) ?? item;
      // RFC 4791 section 5.3.4: no ETag when what is stored is not what was sent (a completed recurring todo moved on).
      const movedOn = parsed.completed && !latest.is_completed;
      return { created: !current, etag: movedOn ? undefined : itemEtag(latest) };
    },

    async remove(user, collection, name, ifMatch) {
      if (collection.kind === 'filter') throw readOnlyCollection();
      const object = await store.find(user, collection, name);
      if (!object) throw new AppError('not_found', 'no object at this URL');
      await deps.items.remove(user.id, object.item.id, ifMatchPrecondition(ifMatch));
    },
  };
}
