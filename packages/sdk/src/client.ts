import { datesApi, meApi, tagsApi, voiceApi } from './account.js';
import { attachmentsApi } from './attachments.js';
import { itemsApi } from './items.js';
import { feedsApi } from './feeds.js';
import { filtersApi } from './filters.js';
import { projectsApi } from './projects.js';
import { channelsApi, remindersApi } from './reminders.js';
import { changesApi, transferApi, webhooksApi } from './sync.js';
import { createApi, type Api, type ClientOptions } from './transport.js';

export interface CaptureInbox {
  me: ReturnType<typeof meApi>;
  items: ReturnType<typeof itemsApi>;
  projects: ReturnType<typeof projectsApi>;
  /** Saved filters; `items.list({ filter })` reads a query without saving it. */
  filters: ReturnType<typeof filtersApi>;
  /** Calendar feeds (.ics URLs) of a project, a saved filter or the account. */
  feeds: ReturnType<typeof feedsApi>;
  tags: ReturnType<typeof tagsApi>;
  /** Files on items: upload from a path, a Buffer or a stream; download; delete. */
  attachments: ReturnType<typeof attachmentsApi>;
  voice: ReturnType<typeof voiceApi>;
  dates: ReturnType<typeof datesApi>;
  changes: ReturnType<typeof changesApi>;
  webhooks: ReturnType<typeof webhooksApi>;
  transfer: ReturnType<typeof transferApi>;
  /** Snooze, the reminders log, completions of recurring items. */
  reminders: ReturnType<typeof remindersApi>;
  /** Notification channels (webpush, ntfy, email) and the VAPID public key. */
  channels: ReturnType<typeof channelsApi>;
  /** The typed openapi-fetch client underneath, for anything the methods above do not cover. */
  raw: Api;
}

/** A client for one server and one key; methods throw ApiError when the server refuses. */
export function createClient(options: ClientOptions): CaptureInbox {
  const api = createApi(options);
  return {
    me: meApi(api),
    items: itemsApi(api),
    projects: projectsApi(api),
    filters: filtersApi(api),
    feeds: feedsApi(api),
    tags: tagsApi(api),
    attachments: attachmentsApi(api),
    voice: voiceApi(api),
    dates: datesApi(api),
    changes: changesApi(api),
    webhooks: webhooksApi(api),
    transfer: transferApi(api),
    reminders: remindersApi(api),
    channels: channelsApi(api),
    raw: api,
  };
}
