import type { Logger } from 'pino';
import type { DbHandle } from '../db/create-db.js';
import type { Db } from '../db/schema.js';
import type { Clock } from '../lib/clock.js';
import type { AccountSettingsService } from '../modules/accounts/account-settings.service.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import type { AttachmentsService } from '../modules/attachments/attachments.service.js';
import type { BlobCollector } from '../modules/attachments/blob-collector.js';
import type { BulkService } from '../modules/bulk/bulk.service.js';
import type { SubtasksService } from '../modules/capture/add-subtask.js';
import type { BatchCaptureService } from '../modules/capture/capture-batch.js';
import type { CaldavService } from '../modules/caldav/caldav.service.js';
import type { CaptureService } from '../modules/capture/capture.service.js';
import type { ChannelsService } from '../modules/deliveries/channels.service.js';
import type { DeliveryWorker } from '../modules/deliveries/delivery-worker.js';
import type { WebhooksService } from '../modules/deliveries/webhooks.service.js';
import type { EmailInService } from '../modules/email-in/email-in.service.js';
import type { EmailInReader } from '../modules/email-in/mail-reader.js';
import type { EventsService } from '../modules/events/events.service.js';
import type { IdempotencyService } from '../modules/idempotency/idempotency.service.js';
import type { InstanceService } from '../modules/instance/instance.service.js';
import type { ItemsService } from '../modules/items/items.service.js';
import type { KeysService } from '../modules/keys/keys.service.js';
import type { LimitsService } from '../modules/limits/limits.service.js';
import type { LiveService } from '../modules/live/live.service.js';
import type { Metrics } from '../modules/metrics/metrics.js';
import type { OrganizerService } from '../modules/organizer/organizer.service.js';
import type { PairingService } from '../modules/pairing/pairing.service.js';
import type { FeedsService } from '../modules/feeds/feeds.service.js';
import type { FiltersService } from '../modules/filters/filters.service.js';
import type { ProjectsService } from '../modules/projects/projects.service.js';
import type { QuickAddService } from '../modules/quick-add/quick-add.service.js';
import type { RecurrenceService } from '../modules/recurrence/recurrence.service.js';
import type { ReminderScheduler } from '../modules/reminders/reminder-scheduler.js';
import type { RemindersService } from '../modules/reminders/reminders.service.js';
import type { SearchService } from '../modules/search/search.service.js';
import type { TagsService } from '../modules/tags/tags.service.js';
import type { TransferService } from '../modules/transfer/transfer.service.js';
import type { UndoService } from '../modules/undo/undo.service.js';
import type { UsersService } from '../modules/users/users.service.js';
import type { VoiceService } from '../modules/voice/voice.service.js';

/**
 * Everything createServices builds. Only the processes that own the services' lifetime (server.ts,
 * the admin CLI, the OpenAPI writer, tests) hold the whole of it; every other consumer names its
 * part with Pick<Services, …> and is given only that (decisions/0082).
 */
export interface Services {
  db: Db;
  dialect: DbHandle['dialect'];
  clock: Clock;
  users: UsersService;
  keys: KeysService;
  projects: ProjectsService;
  filters: FiltersService;
  tags: TagsService;
  items: ItemsService;
  /** Every new item: read, resolve the project, organize, schedule, store, learn (modules/capture). */
  capture: CaptureService;
  quickAdd: QuickAddService;
  /** Recurring items' completions and the user's zone for occurrences. */
  recurrence: RecurrenceService;
  /** Adds a subtask under an item (the web app's "add subtask"). */
  subtasks: SubtasksService;
  /** A brain dump: one text split into many items, stored at once (modules/capture/capture-batch.ts). */
  batchCapture: BatchCaptureService;
  /** The CalDAV server's collections, objects and sync (src/modules/caldav). */
  caldav: CaldavService;
  /** Subscribable calendar feeds (.ics URLs) of a project, a saved filter or the account (src/modules/feeds). */
  feeds: FeedsService;
  /** Undo kept by the server: each action in place keeps its inverse (decision 0076). */
  undo: UndoService;
  events: EventsService;
  /** Kept answers of POSTs sent with an Idempotency-Key. */
  idempotency: IdempotencyService;
  search: SearchService;
  bulk: BulkService;
  limits: LimitsService;
  organizer: OrganizerService;
  accounts: AccountsService;
  /** The account page: password, sessions, deleting the account. */
  accountSettings: AccountSettingsService;
  /** Export and import of a user's whole data. */
  transfer: TransferService;
  /** Server-wide settings the owner changes (sign-up open or closed). */
  instance: InstanceService;
  pairing: PairingService;
  /** Webhook registration and the delivery log; part of the deliveries module with channels and the worker. */
  webhooks: WebhooksService;
  /** The change feed live (GET /changes/stream): open streams, woken by commits of any process. */
  live: LiveService;
  /** Delivers outbox events to webhooks; only the server process starts it. */
  webhookWorker: DeliveryWorker;
  /** Notification channels (webpush, ntfy, email) and the VAPID key. */
  channels: ChannelsService;
  /** Snooze and the reminders log. */
  reminders: RemindersService;
  /** Fires due reminders; only the server process starts it (every process may). */
  reminderScheduler: ReminderScheduler;
  metrics: Metrics;
  voice: VoiceService;
  /** Files on items, stored once per content under FILES_DIR (decision 0084). */
  attachments: AttachmentsService;
  /** Removes stored files no attachment uses; only the server process starts it (every process may). */
  attachmentCollector: BlobCollector;
  /** Users' secret email-in addresses. */
  emailIn: EmailInService;
  /** Reads EMAIL_IN_IMAP_URL into items when set; only the server process starts it. */
  emailInReader: EmailInReader | undefined;
  logger: Logger;
  /** Releases what the container opened besides the database (worker, outbound connections, Redis). */
  close(): Promise<void>;
}
