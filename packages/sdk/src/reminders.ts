import { conditional, unwrap, type Api } from './transport.js';
import type { ChangeOptions } from './items.js';
import type { operations } from './generated/openapi.js';
import type { Item } from './types.js';

type Json<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type Created<Op> = Op extends { responses: { 201: { content: { 'application/json': infer B } } } } ? B : never;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type Channel = Created<operations['createChannel']>['channel'];
export type ChannelInput = Body<operations['createChannel']>;
export type TestDelivery = Awaited<ReturnType<ReturnType<typeof channelsApi>['test']>>;
export type ReminderLogPage = Json<operations['listReminderLog']>;
export type CompletionPage = Json<operations['listItemCompletions']>;
export type SnoozeInput = Body<operations['snoozeItem']>;

/** Reminders (contract "Reminders"): snooze, the log, and the occurrences a recurring item completed. */
export function remindersApi(api: Api) {
  return {
    /** POST /items/{id}/snooze with `{ minutes }` (1..10080) or `{ until }`: sets remind_at and answers the item. */
    snooze: (id: string, input: SnoozeInput, options: ChangeOptions = {}): Promise<Item> =>
      unwrap(api.POST('/api/v1/items/{id}/snooze', { params: { path: { id }, header: conditional(options) }, body: input })),
    /** GET /reminders/log: deliveries of reminders (and missed ones), newest first, kept 7 days. */
    log: (query: { limit?: number; cursor?: string } = {}): Promise<ReminderLogPage> => unwrap(api.GET('/api/v1/reminders/log', { params: { query } })),
    /** GET /items/{id}/completions: the completed occurrences of a recurring item, newest first. */
    completions: (id: string, query: { limit?: number; cursor?: string } = {}): Promise<CompletionPage> =>
      unwrap(api.GET('/api/v1/items/{id}/completions', { params: { path: { id }, query } })),
  };
}

/** Notification channels: webpush, ntfy, email. */
export function channelsApi(api: Api) {
  return {
    list: async (): Promise<Channel[]> => (await unwrap(api.GET('/api/v1/channels'))).channels,
    create: async (input: ChannelInput, options: { idempotencyKey?: string } = {}): Promise<Channel> =>
      (await unwrap(api.POST('/api/v1/channels', { body: input, params: { header: conditional(options) } }))).channel,
    delete: async (id: string): Promise<void> => {
      await unwrap(api.DELETE('/api/v1/channels/{id}', { params: { path: { id } } }));
    },
    /** Sends a test notification now; answers how it went. */
    test: (id: string) => unwrap(api.POST('/api/v1/channels/{id}/test', { params: { path: { id } } })),
    /** The server's VAPID public key, for PushManager.subscribe({ applicationServerKey }). Needs no key. */
    pushKey: async (): Promise<string> => (await unwrap(api.GET('/api/v1/push/key'))).public_key,
  };
}
