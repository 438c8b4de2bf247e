import { offlineRoutes } from './routes/offline.routes.js';
import { upcomingRoutes } from './routes/upcoming.routes.js';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Services } from '../container.js';
import { ASSETS } from './assets.js';
import { installPageErrors } from './errors.js';
import { installSavedViewsNav } from './filters-nav.js';
import type { InboxSources } from './inbox-render.js';
import { setPageHeaders } from './layout.js';
import { PageError } from './page-error.js';
import { accountRoutes } from './routes/account.routes.js';
import { emailInWebRoutes } from './routes/email-in.routes.js';
import { filterPageRoutes } from './routes/filters.routes.js';
import { adminRoutes } from './routes/admin.routes.js';
import { installRoutes } from './routes/install.routes.js';
import { shareRoutes } from './routes/share.routes.js';
import { webAttachmentRoutes } from './routes/attachments.routes.js';
import { webVoiceRoutes } from './routes/voice.routes.js';
import { webQuickAddRoutes } from './routes/quick-add.routes.js';
import { webBrainDumpRoutes } from './routes/brain-dump.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { connectRoutes } from './routes/connect.routes.js';
import { developerCalendarRoutes } from './routes/developer-calendar.routes.js';
import { inboxRoutes } from './routes/inbox.routes.js';
import { itemRoutes } from './routes/item.routes.js';
import { webLiveRoutes } from './routes/live.routes.js';
import { notificationsRoutes } from './routes/notifications.routes.js';
import { projectsRoutes } from './routes/projects.routes.js';
import { settingsRoutes, type WebhookSource } from './routes/settings.routes.js';
import { installWebSession } from './session.js';

/** Every service the pages read; the plugin gives each page route only its own part. */
export type WebServices = Pick<
  Services,
  | 'accounts'
  | 'accountSettings'
  | 'attachments'
  | 'batchCapture'
  | 'bulk'
  | 'capture'
  | 'channels'
  | 'clock'
  | 'emailIn'
  | 'feeds'
  | 'filters'
  | 'instance'
  | 'items'
  | 'keys'
  | 'limits'
  | 'live'
  | 'pairing'
  | 'projects'
  | 'quickAdd'
  | 'reminders'
  | 'search'
  | 'subtasks'
  | 'tags'
  | 'transfer'
  | 'undo'
  | 'users'
  | 'voice'
>;

export interface WebOptions {
  services: WebServices;
  publicUrl: string;
  /** Whether the server can mail reminders (SMTP_URL set): the Notifications page offers email channels only then. */
  smtp: boolean;
  /** The user's webhooks for developer settings; the section is left out without it. */
  webhooks?: WebhookSource;
}

const hasNul = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes('\u0000') : typeof value === 'object' && value !== null && Object.values(value).some(hasNul);

/**
 * The server-rendered web app: sign-up and sign-in, the inbox, developer settings and the pairing
 * approval page. Its own scope, so its cookies, form parsing, CSRF checks and HTML errors never
 * touch /api/v1.
 */
export const webApp: FastifyPluginAsync<WebOptions> = async (app, opts) => {
  // Pages are not API operations.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });

  for (const asset of ASSETS) {
    app.get(asset.path, async (_request, reply) =>
      reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').send(asset.body),
    );
  }

  await app.register(installRoutes);

  await app.register(async (pages) => {
    await pages.register(cookie);
    await pages.register(formbody);
    installPageErrors(pages);
    const {
      accounts,
      accountSettings,
      capture,
      channels,
      clock,
      emailIn,
      filters,
      instance,
      items,
      keys,
      limits,
      live,
      pairing,
      projects,
      quickAdd,
      reminders,
      search,
      subtasks,
      tags,
      transfer,
      undo,
      users,
      voice,
    } = opts.services;
    const cookies = installWebSession(pages, { accounts, publicUrl: opts.publicUrl });
    pages.addHook('onSend', async (_request, reply) => setPageHeaders(reply));
    installSavedViewsNav(pages, { filters });
    // PostgreSQL text cannot hold U+0000; a form or query carrying one is refused before any work.
    pages.addHook('preValidation', async (request: FastifyRequest) => {
      if (hasNul(request.query) || hasNul(request.body)) throw new PageError(400, 'Invalid characters', 'The request contained a NUL character.');
    });

    const inboxList: InboxSources = { clock, items, projects, search, tags, voice, quickAdd };
    await pages.register(authRoutes, { accounts, instance, cookies });
    await pages.register(inboxRoutes, { ...inboxList, capture, limits, undo });
    await pages.register(itemRoutes, { clock, items, limits, projects, reminders, search, subtasks, tags });
    // Files on items: upload, download, delete, the capture box's drop and the share target (contract "Attachments").
    await pages.register(webAttachmentRoutes, { attachments: opts.services.attachments, capture, items, limits });
    await pages.register(projectsRoutes, { ...inboxList, limits });
    await pages.register(filterPageRoutes, { clock, filters, items, limits, projects });
    await pages.register(accountRoutes, { accountSettings, transfer, users, emailIn, cookies });
    await pages.register(notificationsRoutes, { channels, limits, users, smtp: opts.smtp });
    await pages.register(emailInWebRoutes, { emailIn });
    await pages.register(shareRoutes, { ...inboxList });
    await pages.register(webVoiceRoutes, { limits, voice });
    await pages.register(webQuickAddRoutes, { clock, quickAdd });
    await pages.register(webBrainDumpRoutes, { batchCapture: opts.services.batchCapture, bulk: opts.services.bulk, clock, limits, quickAdd });
    await pages.register(settingsRoutes, { keys, transfer, users, ...(opts.webhooks ? { webhooks: opts.webhooks } : {}) });
    await pages.register(developerCalendarRoutes, { feeds: opts.services.feeds, filters: opts.services.filters, keys, projects, publicUrl: opts.publicUrl });
    await pages.register(connectRoutes, { clock, limits, pairing });
    await pages.register(adminRoutes, { instance, users });
    await pages.register(webLiveRoutes, { accounts, limits, live });
    await pages.register(offlineRoutes);
    await pages.register(upcomingRoutes, { clock, items, limits, undo });
  });
};
