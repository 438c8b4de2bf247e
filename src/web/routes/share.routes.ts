import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actingUser, signInFirst } from '../acting.js';
import { html } from '../html.js';
import { createInboxRenderer, type InboxSources } from '../inbox-render.js';
import { field } from './forms.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';

const ShareQuery = Type.Object({ title: field(1000), text: field(CAPTURE_TEXT_MAX), url: field(4000) });

/**
 * The share target: what a phone shares arrives here as a GET, and lands in the capture box of the
 * inbox to be saved with one tap. Saving on the GET itself would let any page put items in a
 * signed-in user's inbox with a link. Signed out, the browser signs in first and comes back.
 */
function sharedText(q: { title?: string | undefined; text?: string | undefined; url?: string | undefined }): string {
  const parts: string[] = [];
  for (const part of [q.title, q.text, q.url]) {
    const value = part?.trim();
    // Apps often repeat the URL in the text, or the title in the text.
    if (value && !parts.some((p) => p.includes(value))) parts.push(value);
  }
  return parts.join('\n');
}

export const shareRoutes: FastifyPluginAsyncTypebox<InboxSources> = async (app, sources) => {
  const render = createInboxRenderer(sources);

  app.get('/share', { schema: { querystring: ShareQuery } }, async (request, reply) => {
    const user = actingUser(request);
    if (!user) return signInFirst(reply, request.url);
    const draft = sharedText(request.query);
    return render(request, reply, user, {
      list: { kind: 'inbox' },
      query: {},
      capture: { draft, error: '' },
      // Nothing is saved yet: the page says what to do, not that it is done.
      notice: html`<div class="alert warn" role="status"><p><strong>Not saved yet.</strong> Check the shared text in the capture box and press Capture to save it to your Inbox.</p></div>`,
    });
  });
};
