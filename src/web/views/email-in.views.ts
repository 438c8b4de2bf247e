import { html, type SafeHtml } from '../html.js';
import { csrfField } from '../layout.js';

/**
 * The account page's "Email to inbox" card (issue 34): the user's secret address with a copy
 * button (script.ts unhides it; without JavaScript the field can be selected by hand) and a rotate
 * form. Nothing at all when the server has email-in off.
 */
export function emailInSection(address: string | null, csrf: string): SafeHtml | '' {
  if (address === null) return '';
  return html`<section class="card" id="email-in" aria-labelledby="email-in-heading"><h2 id="email-in-heading">Email to inbox</h2>
  <p>Mail sent or forwarded to this address becomes an item: the subject is the title (read like quick add), the text the notes. Keep it secret: anyone who knows it can add to your inbox.</p>
  <div class="token">
    <input id="email-in-address" type="text" readonly value="${address}" aria-label="Your email-in address" spellcheck="false" autocomplete="off">
    <button type="button" data-copy="email-in-address" hidden>Copy</button>
  </div>
  <form method="post" action="/account/email/rotate" data-confirm="Make a new address? Mail to the current one will be rejected from now on.">${csrfField(csrf)}
    <p class="hint">Shared it by mistake? A new address stops the current one at once.</p>
    <button type="submit">New address</button>
  </form></section>`;
}
