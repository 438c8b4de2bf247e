import type { DestinationPolicy } from './transports/destination-rules.js';
import type { Db } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { checkChannelInput, type ChannelInput } from './channel-input.js';
import { countChannels, deleteChannel, findChannelById, findChannels, insertChannel, type ChannelKind, type ChannelRow } from './channels.repository.js';
import { channelIsGone, type Notify } from './notifier.js';
import type { TargetSecretVault } from './target-secrets.js';
import type { VapidKeyStore } from './vapid-keys.js';

const MAX_CHANNELS_PER_USER = 20;
/** A test notification has no item: it opens the page its channels are managed on (the web app's). */
const TEST_NOTIFICATION_PATH = '/account/notifications';

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

/** Notification channels (webpush, ntfy, email): the deliveries module's targets other than webhooks. */
export interface ChannelsService {
  list(userId: string): Promise<ChannelView[]>;
  create(userId: string, input: ChannelInput): Promise<ChannelView>;
  remove(userId: string, id: string): Promise<void>;
  /** Sends a test notification now, outside the queue, and answers how it went. */
  test(userId: string, id: string): Promise<TestDelivery>;
  /** The VAPID public key (base64url), made at the server's first start (or first use) and kept. */
  publicKey(): Promise<string>;
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
  vault: TargetSecretVault;
  vapid: VapidKeyStore;
  notify: Notify;
  destinations: DestinationPolicy;
  smtpConfigured: boolean;
}): ChannelsService {
  const { db } = deps;

  return {
    async list(userId) {
      return (await findChannels(db, userId)).map(toView);
    },

    async create(userId, input) {
      const checked = checkChannelInput(input, { ...deps.destinations, smtpConfigured: deps.smtpConfigured });
      const id = deps.newId();
      const row: ChannelRow = {
        id,
        user_id: userId,
        kind: checked.kind,
        url: checked.url,
        target: checked.target,
        sealed_secret: deps.vault.seal(userId, id, JSON.stringify(checked.secrets)),
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
      const target = { id: row.id, userId, kind: row.kind, url: row.url, target: row.target, secret: deps.vault.open(userId, row.id, row.sealed_secret) };
      const outcome = await deps.notify(target, deliveryId, {
        id: deliveryId,
        title: 'Test notification from Capture Inbox',
        due_at: null,
        project_id: null,
        path: TEST_NOTIFICATION_PATH,
      });
      const status = outcome.kind === 'succeeded' ? 'succeeded' : 'failed';
      const lastStatus = outcome.kind === 'interrupted' ? 0 : outcome.status;
      if (outcome.kind === 'failed' && channelIsGone(row.kind, outcome.status)) await deleteChannel(db, userId, row.id);
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

    publicKey: () => deps.vapid.publicKey(),
  };
}
