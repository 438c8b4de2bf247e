import type { Db } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import type { InstanceService } from '../instance/instance.service.js';
import type { ChannelAttempt, ChannelDispatch } from './delivery-attempt.js';
import type { AttemptOutcome } from './transports/delivery-transport.js';
import type { SigningKeyVault } from './target-secrets.js';
import type { DeliveryBody } from '../events/events.service.js';
import { checkChannelInput, type ChannelInput } from './channel-input.js';
import type { ChannelSenders, VapidKeys } from './transports/channel-senders.js';
import {
  countChannels,
  deleteChannel,
  findChannelById,
  findChannels,
  findNotificationContext,
  insertChannel,
  type ChannelKind,
  type ChannelRow,
} from './channels.repository.js';
import { notificationContent, type ReminderItem } from './notification-content.js';

const MAX_CHANNELS_PER_USER = 20;
const VAPID_SETTING = 'vapid_keys';
/** A test notification has no item: it opens the page its channels are managed on (the web app's). */
export const TEST_NOTIFICATION_PATH = '/account/notifications';

export interface ChannelView {
  id: string;
  kind: ChannelKind;
  /** ntfy: the topic URL; webpush: the push service's origin (the endpoint itself is a capability); email: null. */
  url: string | null;
  address: string | null;
  created_at: string;
}

export interface TestDelivery {
  id: string;
  item_id: null;
  channel_id: string;
  kind: ChannelKind;
  remind_at: null;
  status: 'succeeded' | 'failed';
  attempts: number;
  last_status: number;
  created_at: string;
}

export interface ChannelsService {
  list(userId: string): Promise<ChannelView[]>;
  create(userId: string, input: ChannelInput): Promise<ChannelView>;
  remove(userId: string, id: string): Promise<void>;
  /** Sends a test notification now, outside the queue, and answers how it went. */
  test(userId: string, id: string): Promise<TestDelivery>;
  /** The VAPID public key (base64url), made at the server's first start (or first use) and kept. */
  publicKey(): Promise<string>;
  /** The webhooks worker's way to send a reminder to a channel. */
  dispatch: ChannelDispatch;
}

const toView = (row: ChannelRow): ChannelView => ({
  id: row.id,
  kind: row.kind,
  url: row.kind === 'ntfy' ? row.url : row.kind === 'webpush' ? new URL(row.url).origin : null,
  address: row.kind === 'email' ? row.target : null,
  created_at: row.created_at,
});

export function createChannelsService(deps: {
  db: Db;
  clock: Clock;
  newId: IdGenerator;
  vault: SigningKeyVault;
  instance: Pick<InstanceService, 'keepFirst'>;
  senders: (vapid: () => Promise<VapidKeys>) => ChannelSenders;
  publicUrl: string;
  allowPrivateTargets: boolean;
  smtpConfigured: boolean;
}): ChannelsService {
  const { db } = deps;
  let stored: Promise<{ publicKey: string; privateKey: string }> | undefined;
  /** Made by the first process that needs them, kept in instance_settings; the private key sealed under SECRET_KEY. */
  const storedVapid = () =>
    (stored ??= deps.instance
      .keepFirst(VAPID_SETTING, async () => {
        const made = (await import('./transports/push-library.js')).newVapidKeys();
        return JSON.stringify({ publicKey: made.publicKey, privateKey: deps.vault.seal('instance', 'vapid', made.privateKey) });
      })
      .then((text) => JSON.parse(text) as { publicKey: string; privateKey: string })
      .catch((error: unknown) => {
        stored = undefined;
        throw error;
      }));
  /** The pair for sending: only a send opens the private key. */
  const vapid = async (): Promise<VapidKeys> => {
    const { publicKey, privateKey } = await storedVapid();
    return { publicKey, privateKey: deps.vault.open('instance', 'vapid', privateKey) };
  };
  const senders = deps.senders(vapid);

  async function sendTo(
    row: Pick<ChannelRow, 'id' | 'user_id' | 'kind' | 'url' | 'target'>,
    secrets: string,
    deliveryId: string,
    item: ReminderItem,
    stop?: AbortSignal,
  ): Promise<AttemptOutcome> {
    const ctx = await findNotificationContext(db, row.user_id, item.project_id);
    const content = notificationContent(item, { ...ctx, publicUrl: deps.publicUrl });
    try {
      return await senders.send({ kind: row.kind, url: row.url, target: row.target, secrets, deliveryId, content }, stop);
    } catch (error) {
      // A subscription web-push cannot encrypt for, or a mailer that cannot start: a failed attempt, not a crash.
      return { kind: 'failed', status: 0, reason: 'network_error', detail: error instanceof Error ? error.message : String(error) };
    }
  }

  const gone = (kind: ChannelKind, status: number) => kind === 'webpush' && (status === 404 || status === 410);

  return {
    async list(userId) {
      return (await findChannels(db, userId)).map(toView);
    },

    async create(userId, input) {
      const checked = checkChannelInput(input, { allowPrivateTargets: deps.allowPrivateTargets, smtpConfigured: deps.smtpConfigured });
      const id = deps.newId();
      const row: ChannelRow = {
        id,
        user_id: userId,
        kind: checked.kind,
        url: checked.url,
        target: checked.target,
        signing_key: deps.vault.seal(userId, id, JSON.stringify(checked.secrets)),
        created_at: toTimestamp(deps.clock.now()),
      };
      await db.transaction().execute(async (trx) => {
        if ((await countChannels(trx, userId)) >= MAX_CHANNELS_PER_USER) {
          throw badRequest(`at most ${MAX_CHANNELS_PER_USER} notification channels per user; delete one first`);
        }
        await insertChannel(trx, row);
      });
      return toView(row);
    },

    async remove(userId, id) {
      if (!isUuid(id) || !(await deleteChannel(db, userId, id))) throw notFound('channel');
    },

    async test(userId, id) {
      const row = isUuid(id) ? await findChannelById(db, userId, id) : undefined;
      if (!row) throw notFound('channel');
      const deliveryId = deps.newId();
      const createdAt = toTimestamp(deps.clock.now());
      const outcome = await sendTo(row, deps.vault.open(userId, row.id, row.signing_key), deliveryId, {
        id: deliveryId,
        title: 'Test notification from Capture Inbox',
        due_at: null,
        project_id: null,
        path: TEST_NOTIFICATION_PATH,
      });
      const status = outcome.kind === 'succeeded' ? 'succeeded' : 'failed';
      const lastStatus = outcome.kind === 'interrupted' ? 0 : outcome.status;
      if (outcome.kind === 'failed' && gone(row.kind, outcome.status)) await deleteChannel(db, userId, row.id);
      return {
        id: deliveryId,
        item_id: null,
        channel_id: row.id,
        kind: row.kind,
        remind_at: null,
        status,
        attempts: 1,
        last_status: lastStatus,
        created_at: createdAt,
      };
    },

    async publicKey() {
      return (await storedVapid()).publicKey;
    },

    dispatch: {
      async send(attempt: ChannelAttempt, stop: AbortSignal) {
        const body = JSON.parse(attempt.payload) as DeliveryBody;
        const { item } = body.data;
        return sendTo(
          { id: attempt.channelId, user_id: attempt.userId, kind: attempt.kind, url: attempt.url, target: attempt.target },
          attempt.secrets,
          attempt.eventId,
          { id: item.id, title: item.title, due_at: item.due_at, project_id: item.project_id },
          stop,
        );
      },
      async afterFailure(attempt, outcome) {
        if (gone(attempt.kind, outcome.status)) await deleteChannel(db, attempt.userId, attempt.channelId);
      },
    },
  };
}
