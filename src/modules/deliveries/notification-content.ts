/** What every channel shows of a reminder: never the notes (they may be private), never a key. */
export interface NotificationContent {
  title: string;
  /** "Due Mon 23 Nov, 09:00" in the user's zone, or null without a due date. */
  due: string | null;
  project: string | null;
  link: string;
  /** One line under the title: due time and project. */
  line: string;
}

export interface ReminderItem {
  id: string;
  /** Where the notification opens, under PUBLIC_URL; by default the item's page. */
  path?: string;
  title: string | null;
  due_at: string | null;
  project_id: string | null;
}

export function notificationContent(item: ReminderItem, ctx: { timezone: string; project: string | null; publicUrl: string }): NotificationContent {
  const due =
    item.due_at === null
      ? null
      : `Due ${new Intl.DateTimeFormat('en-GB', { timeZone: ctx.timezone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(item.due_at))}`;
  const title = item.title?.trim() || 'Reminder';
  return {
    title,
    due,
    project: ctx.project,
    link: `${ctx.publicUrl}${item.path ?? `/items/${item.id}`}`,
    line: [due, ctx.project].filter((p): p is string => p !== null).join(' · ') || 'Reminder',
  };
}
