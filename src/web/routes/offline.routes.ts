import type { FastifyPluginAsync } from 'fastify';
import { html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { webContext } from '../session.js';

/**
 * The app's offline page (decision 0085): the service worker keeps the signed-in user's copy with
 * the pages it keeps (cleared at sign-out) and shows it for a page not opened on this device
 * before, instead of the browser's "No internet" page.
 */
export const offlineRoutes: FastifyPluginAsync = async (app) => {
  app.get('/offline', async (request, reply) => {
    const { user, csrf } = webContext(request);
    const body = html`<div class="narrow offline-page"><h1>You are offline</h1><div class="card">
<p>This page was not opened on this device before, so there is no copy of it to show.</p>
<p>Pages you opened before open as you last saw them: <a href="/">Today</a>, <a href="/upcoming">Upcoming</a>, <a href="/inbox">the Inbox</a>. Captures, ticks, dates and moves made offline wait there and are sent when the connection is back.</p>
</div></div>`;
    return sendPage(reply, 200, renderPage({ title: 'Offline', section: 'error', user, csrf, body }));
  });
};
