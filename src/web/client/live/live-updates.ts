import { actionsInFlight } from '../acting/in-flight.js';
import { ownChanges } from '../acting/own-changes.js';
import { focusPlace, keepState, refocus } from '../regions/region-state.js';
import { upgradeRows } from '../regions/row-menu.js';

/*
 * Live: an open list or item page follows the user's change stream (GET /live, the API's stream
 * under the session) and, when something changed elsewhere (a capture through the API, a tab),
 * fetches itself again and replaces its live regions, as an action in place does. Debounced; it
 * waits while the user is busy in a region (typing in a field there, a ⋯ menu open, an action
 * on its way) and keeps the focus where it was. The capture box and the Undo toast are outside
 * the regions, so they are never touched. A hidden tab closes its stream and, when shown again,
 * reopens it after the last change it saw; EventSource reconnects by itself after a network error.
 */
const LIVE_REGIONS = ['lists', 'sidebar', 'subtasks', 'item-view', 'item-notes', 'item-manage'];
/** Quiet time after a change before the page fetches itself, so a burst of changes costs one fetch. */
const DEBOUNCE_MS = 300;
/** How long a refresh waits for an action on its way. */
const BUSY_RETRY_MS = 1000;
/** A refused stream is opened again after this long, at most MAX_RETRIES times. */
const REOPEN_MS = 30_000;
const MAX_RETRIES = 5;

/** A change's data (the change as GET /changes answers it); null when it is not JSON. */
function parseData(data: unknown): unknown {
  try {
    return typeof data === 'string' ? (JSON.parse(data) as { data?: unknown }).data : null;
  } catch {
    return null;
  }
}

const liveRegions = (): HTMLElement[] => LIVE_REGIONS.flatMap((id) => document.getElementById(id) ?? []);

/**
 * A region the user is busy in (typing in one of its fields, its ⋯ menu open) is left as it is
 * and fetched again once they leave it; the other regions are replaced meanwhile.
 */
function held(region: Element): boolean {
  const active = document.activeElement;
  if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && region.contains(active)) return true;
  return region.querySelector('details.more[open]') !== null;
}

export function installLiveUpdates(): void {
  if (!window.EventSource || !window.fetch || !window.DOMParser || liveRegions().length === 0) return;
  let source: EventSource | null = null;
  let lastId = '';
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let pending = false;
  let fetching = false;
  let retries = 0;
  /** Echoes of this page's own actions left alone: an attribute, so a test sees one was. */
  let skipped = 0;

  const replaceRegions = (text: string): void => {
    const fresh = new DOMParser().parseFromString(text, 'text/html');
    upgradeRows(fresh);
    const place = focusPlace(liveRegions());
    for (const mine of liveRegions()) {
      const theirs = fresh.getElementById(mine.id);
      if (!theirs) continue;
      if (held(mine)) {
        pending = true;
        continue;
      }
      keepState(mine, theirs);
      mine.replaceWith(theirs);
    }
    refocus(place);
  };
  const refresh = (): void => {
    refreshTimer = null;
    if (document.hidden) {
      pending = true;
      return;
    }
    // An action on its way brings its own fresh copy; this one is fetched after it.
    if (actionsInFlight.any() || fetching) {
      pending = true;
      refreshTimer = setTimeout(refresh, BUSY_RETRY_MS);
      return;
    }
    pending = false;
    fetching = true;
    fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then((res) => {
        if (!res.ok || res.redirected) throw new Error(`status ${res.status}`);
        return res.text();
      })
      .then(
        (text) => {
          fetching = false;
          // An action started meanwhile wins; the page is fetched again after it.
          if (actionsInFlight.any()) {
            pending = true;
            refreshTimer = setTimeout(refresh, BUSY_RETRY_MS);
            return;
          }
          replaceRegions(text);
          document.documentElement.setAttribute('data-live-updated', String(Date.now()));
        },
        () => {
          fetching = false;
        },
      );
  };
  const soon = (): void => {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(refresh, DEBOUNCE_MS);
  };
  const open = (): void => {
    if (source) return;
    const stream = new EventSource(`/live${lastId ? `?cursor=${encodeURIComponent(lastId)}` : ''}`);
    source = stream;
    stream.addEventListener('open', () => {
      retries = 0;
      document.documentElement.setAttribute('data-live', 'open');
    });
    stream.addEventListener('change', (event) => {
      if (event.lastEventId) lastId = event.lastEventId;
      // The echo of this page's own action: its answer already put the row in place (issue 47 item 8).
      // It may come before that answer: then it is judged once the action is done.
      const data = parseData(event.data);
      const judge = (): void => {
        if (!ownChanges.mine(data)) {
          soon();
          return;
        }
        skipped += 1;
        document.documentElement.setAttribute('data-live-skipped', String(skipped));
      };
      actionsInFlight.whenIdle(judge);
    });
    stream.addEventListener('error', () => {
      document.documentElement.setAttribute('data-live', 'closed');
      if (source !== stream || stream.readyState !== EventSource.CLOSED) return;
      // Refused (signed out, too many streams, a cursor too old): the browser does not retry, so
      // this page does, a few times, from the newest change, and fetches itself once.
      source = null;
      lastId = '';
      if (retries < MAX_RETRIES) {
        retries += 1;
        setTimeout(() => {
          if (!document.hidden && !source) {
            open();
            soon();
          }
        }, REOPEN_MS);
      }
    });
  };
  const close = (): void => {
    source?.close();
    source = null;
  };
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      close();
      return;
    }
    // Without a change seen, the stream starts at the newest one: fetch once for what came meanwhile.
    if (!lastId) pending = true;
    open();
    if (pending) soon();
  });
  // A deferred refresh runs as soon as the user leaves the field or closes the menu.
  document.addEventListener('focusout', () => {
    if (pending && !refreshTimer) soon();
  });
  document.addEventListener(
    'toggle',
    () => {
      if (pending && !refreshTimer) soon();
    },
    true,
  );
  if (!document.hidden) open();
}
