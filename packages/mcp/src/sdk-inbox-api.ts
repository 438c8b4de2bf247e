import { createClient, type CaptureInbox, type RetryOptions } from '@capture-inbox/sdk';
import type { InboxApi } from './inbox-api.js';

export interface InboxApiOptions {
  /** Where the service is, e.g. https://inbox.example.com. */
  baseUrl: string;
  /** An API key, cin_…; its scopes decide which tools work. */
  token: string;
  /** The transport of every call; the service's own /mcp passes one that calls the app in-process. */
  fetch?: (request: Request) => Promise<Response>;
  /** The SDK's retry of 429/503 and failed connections; the service's /mcp turns it off. */
  retry?: RetryOptions;
}

/** The port over the SDK: each method is one SDK call. */
export function inboxApiFromSdk(inbox: CaptureInbox): InboxApi {
  return {
    me: () => inbox.me.get(),
    capture: (input) => inbox.items.capture(input),
    parse: (text) => inbox.items.parse(text),
    search: (query) => inbox.items.search(query),
    listItems: (query) => inbox.items.list(query),
    listProjectItems: (projectId, query) => inbox.projects.items(projectId, query),
    getItem: (id) => inbox.items.get(id),
    listSubtasks: (id, query) => inbox.items.children(id, query),
    updateItem: (id, patch) => inbox.items.update(id, patch),
    setCompleted: (id, done) => inbox.items.bulk({ op: 'toggle', ids: [id], payload: { is_completed: done } }),
    completeMany: (ids, done) => inbox.items.completeMany(ids, done),
    updateMany: (ids, patch) => inbox.items.updateMany(ids, patch),
    listCompleted: (query) => inbox.items.completed(query),
    archiveItem: (id) => inbox.items.archive(id),
    deleteItem: (id) => inbox.items.delete(id),
    snoozeItem: (id, input) => inbox.reminders.snooze(id, input),
    organizeItem: (id) => inbox.items.organize(id),
    listProjects: () => inbox.projects.list(),
    listFilters: () => inbox.filters.list(),
    createProject: (name) => inbox.projects.create({ name }),
  };
}

export function createInboxApi({ baseUrl, token, fetch, retry }: InboxApiOptions): InboxApi {
  return inboxApiFromSdk(
    createClient({ baseUrl, token, ...(fetch ? { fetch } : {}), ...(retry ? { retry } : {}), headers: { 'user-agent': 'capture-inbox-mcp/0.1.0' } }),
  );
}
