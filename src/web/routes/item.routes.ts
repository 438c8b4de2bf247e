import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../container.js';
import { AppError } from '../../errors.js';
import { ifMatchPrecondition, itemEtag } from '../../modules/items/item-etag.js';
import type { ItemView } from '../../modules/items/item-view.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import { actingUser, dateContext, overLimit, signInFirst } from '../acting.js';
import { fieldOfError, patchOf, valuesFromBody, valuesOf, type FieldErrors, type ItemFormValues } from '../item-form.js';
import { sendPage } from '../layout.js';
import { formatDueAbsolute } from '../dates.js';
import { PageError } from '../page-error.js';
import { reminderFieldOf, reminderPatchOf, reminderValuesFromBody, reminderValuesOf, type ReminderErrors, type ReminderFormValues } from '../reminder-form.js';
import { webContext } from '../session.js';
import { itemName } from '../views/item-row.views.js';
import { itemPage, SNOOZE_CHOICES, type ItemPageData } from '../views/item.views.js';
import { CSRF_FIELD, field } from './forms.js';
import { uploadProblem } from '../attachments-view.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const DoneQuery = Type.Object({ done: field(20), attach_error: field(20) });
// Generous bounds: a field over the contract's limit comes back with its message, not a bare 400.
const EditBody = Type.Object({
  ...CSRF_FIELD,
  version: field(200),
  title: field(5000),
  notes: field(200_000),
  type: field(10),
  status: field(20),
  due_date: field(40),
  due_time: field(20),
  all_day: field(10),
  project_id: field(100),
  tag: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })])),
  new_tags: field(5000),
  parent_id: field(100),
});
const SubtaskBody = Type.Object({ ...CSRF_FIELD, text: field(101_000) });
const ReminderBody = Type.Object({
  ...CSRF_FIELD,
  version: field(200),
  remind_date: field(40),
  remind_time: field(20),
  repeat: field(20),
  every_days: field(20),
  repeat_from: field(20),
});
const SnoozeBody = Type.Object({ ...CSRF_FIELD, version: field(200), minutes: field(10) });

const NOTICES: Record<string, string> = {
  saved: 'Saved.',
  subtask: 'Subtask added.',
  reminder: 'Reminder and repeat saved.',
  snoozed: 'Snoozed.',
  attached: 'File added.',
  file_deleted: 'File deleted.',
};

export const itemRoutes: FastifyPluginAsyncTypebox<
  Pick<Services, 'clock' | 'items' | 'limits' | 'projects' | 'reminders' | 'search' | 'subtasks' | 'tags'>
> = async (app, { clock, items, limits, projects, reminders, search, subtasks, tags }) => {
  /** Items the item may go under: recent active ones but itself and its own subtasks (the service checks deeper cycles). */
  async function parentChoices(user: AuthUser, item: ItemView, children: ItemView[], parent: ItemView | null) {
    const recent = await search.search(user.id, { limit: 100 }, { notArchived: true });
    const excluded = new Set([item.id, ...children.map((c) => c.id)]);
    const list = recent.items.filter((i) => !excluded.has(i.id));
    if (parent && !list.some((i) => i.id === parent.id)) list.unshift(parent);
    return list.map((i) => ({ id: i.id, name: itemName(i) }));
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    user: AuthUser,
    item: ItemView,
    extra: {
      status?: number;
      values?: ItemFormValues;
      errors?: FieldErrors;
      notice?: string;
      stale?: boolean;
      subtaskDraft?: { text: string; error: string };
      reminder?: { values: ReminderFormValues; errors: ReminderErrors };
      attachmentError?: string;
    } = {},
  ): Promise<FastifyReply> {
    const [projectList, tagList, children, parent] = await Promise.all([
      projects.list(user.id),
      tags.list(user.id),
      items.childrenOf(user.id, [item.id]),
      item.parent_id ? items.get(user.id, item.parent_id) : Promise.resolve(null),
    ]);
    const data: ItemPageData = {
      user,
      csrf: webContext(request).csrf,
      item,
      version: itemEtag(item),
      values: extra.values ?? valuesOf(item, user.timezone),
      errors: extra.errors ?? {},
      projects: projectList,
      tagNames: tagList.map((t) => t.name),
      parents: await parentChoices(user, item, children.get(item.id) ?? [], parent),
      parent,
      subtasks: children.get(item.id) ?? [],
      dates: dateContext(request, user.timezone, clock),
      ...(extra.notice ? { notice: extra.notice } : {}),
      ...(extra.stale ? { stale: true } : {}),
      ...(extra.subtaskDraft ? { subtaskDraft: extra.subtaskDraft } : {}),
      reminder: extra.reminder ?? { values: reminderValuesOf(item, user.timezone), errors: {} },
      ...(extra.attachmentError ? { attachmentError: extra.attachmentError } : {}),
    };
    return sendPage(reply, extra.status ?? 200, itemPage(data));
  }

  app.get('/inbox/items/:id', { schema: { params: IdParams, querystring: DoneQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, `/inbox/items/${encodeURIComponent(request.params.id)}`);
    const notice = request.query.done ? NOTICES[request.query.done] : undefined;
    const attachmentError = uploadProblem(request.query.attach_error);
    return render(request, reply, user, await items.get(user.id, request.params.id), {
      ...(notice ? { notice } : {}),
      ...(attachmentError ? { attachmentError } : {}),
    });
  });

  app.post('/inbox/items/:id', { schema: { params: IdParams, body: EditBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const item = await items.get(user.id, request.params.id);
    const values = valuesFromBody(request.body, valuesOf(item, user.timezone));
    const again = (errors: FieldErrors, status: number, current = item, stale = false) =>
      render(request, reply, user, current, { values, errors, status, stale });
    const planned = patchOf(values, user.timezone);
    if ('errors' in planned) return again(planned.errors, 400);
    const limited = await overLimit(limits, user, reply);
    if (limited) return again({ form: limited }, 429);
    // A form without a version (an old page) is checked against the item as it is now.
    const version = request.body.version || itemEtag(item);
    try {
      await items.patch(user.id, item.id, planned.patch, ifMatchPrecondition(version));
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      // Stale: the form comes back with the user's values over the item as it is now, whose version
      // the form then carries, so saving again is a deliberate overwrite.
      if (error.code === 'precondition_failed') return again({}, 409, await items.get(user.id, item.id), true);
      // The only lookup without a field of its own is the project's.
      if (error.code === 'not_found' && !error.details) return again({ project_id: 'That project does not exist any more; choose another.' }, 400);
      return again({ [fieldOfError(error.details?.[0]?.field)]: error.message }, error.statusCode);
    }
    return reply.redirect(`/inbox/items/${item.id}?done=saved`, 303);
  });

  app.post('/inbox/items/:id/subtasks', { schema: { params: IdParams, body: SubtaskBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const text = request.body.text ?? '';
    const again = async (status: number, error: string) =>
      render(request, reply, user, await items.get(user.id, request.params.id), { status, subtaskDraft: { text, error } });
    if (text.trim() === '') return again(400, 'Type the subtask.');
    const limited = await overLimit(limits, user, reply);
    if (limited) throw new PageError(429, 'Too many requests', limited);
    try {
      await subtasks.add(user, request.params.id, text);
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500 || error.code === 'not_found') throw error;
      return again(error.statusCode, error.message);
    }
    return reply.redirect(`/inbox/items/${request.params.id}?done=subtask#subtasks`, 303);
  });

  /** The link in every reminder (`PUBLIC_URL/items/{id}`): the item's page. */
  app.get('/items/:id', { schema: { params: IdParams } }, async (request, reply) =>
    reply.redirect(`/inbox/items/${encodeURIComponent(request.params.id)}`, 302),
  );

  app.post('/inbox/items/:id/reminder', { schema: { params: IdParams, body: ReminderBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const item = await items.get(user.id, request.params.id);
    const values = reminderValuesFromBody(request.body);
    const again = (errors: ReminderErrors, status: number, current = item) => render(request, reply, user, current, { status, reminder: { values, errors } });
    const planned = reminderPatchOf(values, item, user.timezone);
    if ('errors' in planned) return again(planned.errors, 400);
    const limited = await overLimit(limits, user, reply);
    if (limited) return again({ form: limited }, 429);
    try {
      await items.patch(user.id, item.id, planned.patch, ifMatchPrecondition(request.body.version || itemEtag(item)));
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      if (error.code === 'precondition_failed')
        return again(
          { form: 'This item changed after you opened it; nothing was saved. Your choice is still in the form: save again to apply it.' },
          409,
          await items.get(user.id, item.id),
        );
      return again({ [reminderFieldOf(error.details?.[0]?.field)]: error.message }, error.statusCode);
    }
    return reply.redirect(`/inbox/items/${item.id}?done=reminder#reminder`, 303);
  });

  app.post('/inbox/items/:id/snooze', { schema: { params: IdParams, body: SnoozeBody } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return reply.redirect('/login', 303);
    const item = await items.get(user.id, request.params.id);
    const minutes = Number(request.body.minutes);
    const again = (status: number, message: string, current = item) =>
      render(request, reply, user, current, { status, reminder: { values: reminderValuesOf(current, user.timezone), errors: { form: message } } });
    if (!SNOOZE_CHOICES.some(([m]) => m === minutes)) return again(400, 'Choose how long to snooze.');
    const limited = await overLimit(limits, user, reply);
    if (limited) return again(429, limited);
    // Later than the reminder set, never earlier (issue 47 item 10): a reminder still ahead moves on by the choice.
    const until = new Date(Math.max(clock.now().getTime(), item.remind_at ? Date.parse(item.remind_at) : 0) + minutes * 60_000).toISOString();
    let snoozed: ItemView;
    try {
      snoozed = await reminders.snooze(user.id, item.id, { until }, ifMatchPrecondition(request.body.version || itemEtag(item)));
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      if (error.code === 'precondition_failed')
        return again(409, 'This item changed after you opened it; nothing was snoozed. Look again and snooze once more.', await items.get(user.id, item.id));
      return again(error.statusCode, error.message);
    }
    // The row menu's snooze answers in place (decision 0076's answer; the page fetches its lists for the row).
    if (request.headers['cin-in-place'] === '1') {
      const message = `Snoozed “${itemName(snoozed)}”: reminds you again ${formatDueAbsolute(until, dateContext(request, user.timezone, clock))}.`;
      return reply.send({ message, undo: null, item: { id: snoozed.id, updated_at: snoozed.updated_at }, row: null });
    }
    return reply.redirect(`/inbox/items/${item.id}?done=snoozed#reminder`, 303);
  });
};
