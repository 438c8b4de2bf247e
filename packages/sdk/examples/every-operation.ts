// Every operation of the API through the SDK, checked by `tsc --noEmit` (test/clients/sdk-package.test.ts).
// The @ts-expect-error lines prove the types are tight: were any of them loose, tsc would fail on
// the unused directive.
import {
  ApiError,
  createClient,
  etagOf,
  MAX_BATCH_IDS,
  NetworkError,
  outcomesOf,
  pair,
  type Attachment,
  type BatchOutcome,
  type CapturedItem,
  type Change,
  type Feed,
  type Item,
  type ItemPage,
  type Me,
  type PairResult,
  type Project,
  type QuickAdd,
  type SavedFilter,
} from '@capture-inbox/sdk';

export async function everyOperation(baseUrl: string, token: string): Promise<void> {
  const inbox = createClient({ baseUrl, token, retry: { retries: 2, maxDelayMs: 10_000 } });

  const me: Me = await inbox.me.get(); // getMe
  await inbox.me.update({ timezone: me.timezone }); // updateMe
  const address: string | null = (await inbox.me.email()).address; // getEmailAddress
  if (address !== null) await inbox.me.rotateEmail(); // rotateEmailAddress

  const captured: CapturedItem = await inbox.items.capture({ text: 'buy milk', type: 'todo', organize: false }); // capture
  const read: QuickAdd = await inbox.items.parse('Call Sam tomorrow 5pm #Work @calls'); // parse
  void read.spans;
  const page = await inbox.items.list({ limit: 10 }); // listItems
  const first: Item | undefined = page.items[0];
  const item = await inbox.items.get(captured.id); // getItem
  const updated = await inbox.items.update(item.id, { title: 'buy oat milk', due_at: null, tags: ['errand'] }, { ifMatch: etagOf(item) ?? '*' }); // updateItem
  await inbox.items.toggle(updated.id); // toggleItem
  await inbox.items.archive(updated.id, { ifMatch: '*' }); // archiveItem
  await inbox.items.unarchive(updated.id); // unarchiveItem
  const children = await inbox.items.children(updated.id, { limit: 5 }); // listChildren
  const found = await inbox.items.search({ q: 'milk', status: 'todo', is_completed: false }); // searchItems
  const bulk = await inbox.items.bulk({ op: 'toggle', ids: [updated.id] }); // bulkItems
  // Batches: one request for up to 100 ids (MAX_BATCH_IDS), an outcome per id.
  const outcomes: BatchOutcome[] = outcomesOf([updated.id], await inbox.items.completeMany([updated.id]));
  await inbox.items.updateMany([updated.id], { tags: ['errand'], status: 'doing' });
  await inbox.items.archiveMany([updated.id]);
  const completed: ItemPage = await inbox.items.completed({ since: '2026-11-01T00:00:00Z', limit: 20 }); // listCompletedItems
  for await (const done of inbox.items.completedAll({ limit: 200 })) void done.id;
  const dumped: Item[] = await inbox.items.captureBatch({ text: '- eggs\n- bread' }, { idempotencyKey: 'dump-1' }); // captureBatch
  const organized: CapturedItem = await inbox.items.organize(updated.id); // organizeItem
  await inbox.items.delete(updated.id); // deleteItem

  const projects: Project[] = await inbox.projects.list(); // listProjects
  const project = await inbox.projects.create({ name: 'Work' }); // createProject
  await inbox.projects.get(project.id); // getProject
  await inbox.projects.update(project.id, { name: 'Office' }); // updateProject
  const inProject = await inbox.projects.items(project.id, { limit: 20 }); // listProjectItems
  await inbox.projects.delete(project.id); // deleteProject

  const filtered = await inbox.items.list({ filter: 'today | overdue', limit: 20 });
  const saved: SavedFilter = await inbox.filters.create({ name: 'Calls', query: '#Work & @calls', color: '#3366ff' }); // createFilter
  const savedList: SavedFilter[] = await inbox.filters.list(); // listFilters
  await inbox.filters.get(saved.id); // getFilter
  await inbox.filters.update(saved.id, { name: 'Work calls', position: 0 }); // updateFilter
  const picked = await inbox.filters.items(saved.id, { limit: 20 }); // listFilterItems
  for await (const each of inbox.filters.itemsAll(saved.id)) void each.due_at;
  await inbox.filters.delete(saved.id); // deleteFilter
  const feed: Feed = await inbox.feeds.create({ all: true, as: 'events' }); // createFeed
  const feeds: Feed[] = await inbox.feeds.list(); // listFeeds
  const renewed: string = (await inbox.feeds.rotate(feed.id)).url; // rotateFeed
  await inbox.feeds.delete(feed.id); // deleteFeed

  const tags = await inbox.tags.list(); // listTags
  const attached: Attachment = await inbox.attachments.upload(captured.id, new Blob(['receipt']), { filename: 'receipt.txt' }); // addAttachment
  const file: Blob = (await inbox.attachments.download(attached.id)).blob; // getAttachment
  await inbox.attachments.delete(attached.id); // deleteAttachment
  const text: string = (await inbox.voice.transcribe(new Blob([new Uint8Array(8)]), { language: 'en' })).text; // transcribeVoice
  const spoken: string[] = (await inbox.voice.capture(new Blob([new Uint8Array(8)]), { split: true })).items.map((i) => i.id); // captureVoice
  const due: string = (await inbox.dates.read('tomorrow 5pm')).due_at; // readDueDate

  const hooks = await inbox.webhooks.list(); // listWebhooks
  const { webhook: hook, secret } = await inbox.webhooks.create({ url: 'https://example.com/hook', events: ['item.created'] }); // createWebhook
  const deliveries = await inbox.webhooks.deliveries(hook.id, { limit: 10 }); // listWebhookDeliveries
  const delivery = deliveries.deliveries[0];
  if (delivery) await inbox.webhooks.redeliver(hook.id, delivery.id); // redeliverWebhookDelivery
  await inbox.webhooks.delete(hook.id); // deleteWebhook

  const snoozed = await inbox.reminders.snooze(item.id, { minutes: 30 }); // snoozeItem
  const reminderLog = await inbox.reminders.log({ limit: 50 }); // listReminderLog
  const completions = await inbox.reminders.completions(item.id); // listItemCompletions
  const channel = await inbox.channels.create({ kind: 'ntfy', url: 'https://ntfy.sh/my-topic' }); // createChannel
  const channelList = await inbox.channels.list(); // listChannels
  const tested = await inbox.channels.test(channel.id); // testChannel
  await inbox.channels.delete(channel.id); // deleteChannel
  const pushKey: string = await inbox.channels.pushKey(); // getPushKey
  void [snoozed.remind_at, reminderLog.deliveries, completions.completions, channelList, tested.status, pushKey];

  const changes = await inbox.changes.list({ limit: 100 }); // listChanges
  for await (const change of inbox.changes.stream({ cursor: changes.next_cursor, signal: AbortSignal.timeout(1_000) })) void change.cursor; // streamChanges
  const exported = await inbox.transfer.exportJson(); // exportData (json)
  const markdown: string = await inbox.transfer.exportMarkdown(); // exportData (markdown)
  await inbox.transfer.import(exported); // importData (json)
  await inbox.transfer.import('title\nbuy milk\n'); // importData (csv)

  const pairing = await pair({ baseUrl, label: 'example', scopes: ['read', 'capture'] }); // startPairing
  const key: PairResult = await pairing.result; // exchangePairing

  for await (const each of inbox.items.listAll({ limit: 200 })) void each.title;
  for await (const each of inbox.items.searchAll({ q: 'milk' })) void each.status;
  for await (const change of inbox.changes.follow({ wait: false })) {
    const seen: Change = change;
    void (seen.data.item?.id ?? seen.data.filter?.id);
  }

  try {
    await inbox.items.get('missing');
  } catch (error) {
    if (error instanceof ApiError) void [error.status, error.error, error.message, error.details, error.retryAfter];
    if (error instanceof NetworkError) void error.url;
  }

  // Last: after this the key answers 401.
  await inbox.me.revokeKey(); // revokeCurrentKey

  // @ts-expect-error capture needs text
  await inbox.items.capture({ title: 'no text' });
  // @ts-expect-error statuses are the contract's five
  await inbox.items.update(item.id, { status: 'finished' });
  // @ts-expect-error an unknown scope
  await pair({ baseUrl, label: 'x', scopes: ['admin'] });
  // @ts-expect-error project names are strings
  await inbox.projects.create({ name: 42 });
  // @ts-expect-error a batch update takes the PATCH fields, not an op
  await inbox.items.updateMany([updated.id], { op: 'archive' });
  // @ts-expect-error a filter needs a query
  await inbox.filters.create({ name: 'no query' });
  // @ts-expect-error a feed is todos or events
  await inbox.feeds.create({ all: true, as: 'journal' });
  // @ts-expect-error channel kinds are webpush, ntfy and email
  await inbox.channels.create({ kind: 'sms' });

  void [outcomes, completed, dumped, MAX_BATCH_IDS];
  void [
    secret,
    first,
    children,
    found,
    bulk,
    organized,
    projects,
    inProject,
    filtered,
    savedList,
    picked,
    feeds,
    file,
    renewed,
    tags,
    text,
    spoken,
    due,
    hooks,
    changes,
    markdown,
    key,
  ];
}
