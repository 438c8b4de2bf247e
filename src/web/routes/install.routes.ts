import type { FastifyPluginAsync } from 'fastify';
import { ICON_SIZES, iconPng } from '../icons.js';
import { SERVICE_WORKER } from '../service-worker.js';

/** The web app manifest: installable, and a share target ("Share → Capture Inbox" on a phone). */
const MANIFEST = {
  name: 'Capture Inbox',
  short_name: 'Inbox',
  description: 'Capture notes and todos; organize them later.',
  id: '/',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#f7f7f5',
  theme_color: '#2451b7',
  icons: ICON_SIZES.map((size) => ({ src: `/icons/icon-${size}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any maskable' })),
  // POST, so files come too: a shared file is saved on a new item at once; shared text alone still
  // lands in the capture box to be saved with one tap (docs/decisions/0021, 0097).
  share_target: {
    action: '/share',
    method: 'POST',
    enctype: 'multipart/form-data',
    params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'file', accept: ['image/*', 'application/pdf', 'audio/*'] }] },
  },
  shortcuts: [{ name: 'Projects', url: '/projects' }],
};

/** Static files of installation: no session, cached for a day (their URLs carry no hash). */
export const installRoutes: FastifyPluginAsync = async (app) => {
  const manifest = JSON.stringify(MANIFEST);
  const cache = 'public, max-age=86400';

  app.get('/manifest.webmanifest', async (_request, reply) =>
    reply.type('application/manifest+json; charset=utf-8').header('cache-control', cache).header('x-content-type-options', 'nosniff').send(manifest),
  );

  // Checked for a new version on every navigation: never cached by HTTP.
  app.get('/sw.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(SERVICE_WORKER),
  );

  for (const size of ICON_SIZES) {
    // Drawn at the first request, not at start-up, where drawing them was a tenth of the time to ready.
    let png: Buffer | undefined;
    app.get(`/icons/icon-${size}.png`, async (_request, reply) =>
      reply
        .type('image/png')
        .header('cache-control', cache)
        .header('x-content-type-options', 'nosniff')
        .send((png ??= iconPng(size))),
    );
  }
};
