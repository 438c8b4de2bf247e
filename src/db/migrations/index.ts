import type { Migration } from 'kysely';
import * as core from './2026-11-21-0001-core.js';
import * as search from './2026-11-22-0001-search.js';
import * as webhooks from './2026-11-22-0015-webhooks.js';
import * as web from './2026-11-22-0016-web.js';
import * as searchKeyRanges from './2026-11-23-0001-search-key-ranges.js';
import * as searchKeyCounter from './2026-11-24-0001-search-key-counter.js';
import * as scopes from './2026-11-24-0100-scopes.js';
import * as sync from './2026-11-24-0200-sync.js';
import * as instanceSettings from './2026-11-24-0300-instance-settings.js';
import * as leanItemIndexes from './2026-11-25-0001-lean-item-indexes.js';
import * as leanOutboxIndexes from './2026-11-25-0002-lean-outbox-indexes.js';
import * as organizerModels from './2026-11-26-0300-organizer-models.js';
import * as recurrence from './2026-11-27-0100-recurrence.js';
import * as reminders from './2026-11-27-0110-reminders.js';
import * as emailIn from './2026-11-27-0300-email-in.js';
import * as liveChanges from './2026-11-27-0501-live-changes.js';
import * as cjkSearchWords from './2026-11-28-0100-cjk-search-words.js';
import * as liveStreams from './2026-11-28-0600-live-streams.js';
import * as notifyStreamingUsers from './2026-11-29-0100-notify-streaming-users.js';
import * as sealedSecret from './2026-11-29-0300-sealed-secret.js';
import * as itemsAllDay from './2026-11-29-0400-items-all-day.js';
import * as savedFilters from './2026-11-29-0500-saved-filters.js';
import * as caldav from './2026-11-29-0700-caldav.js';
import * as undoActions from './2026-11-29-0800-undo-actions.js';
import * as attachments from './2026-11-30-0100-attachments.js';
import * as filterIndexes from './2026-11-30-0600-filter-indexes.js';
import * as pairingKeyExpiry from './2026-11-30-0700-pairing-key-expiry.js';
import * as projectCounts from './2026-11-30-1100-project-counts.js';
import * as projectCountsByUser from './2026-11-30-1200-project-counts-by-user.js';
import * as doneTodayIndex from './2026-11-30-1300-done-today-index.js';
import * as tagCounts from './2026-11-30-1400-tag-counts.js';
import * as organizerFilings from './2026-11-30-1500-organizer-filings.js';

/** Listed statically so the same list works from TypeScript sources and from dist/. */
export const migrations: Record<string, Migration> = {
  '2026-11-21-0001-core': core,
  '2026-11-22-0001-search': search,
  '2026-11-22-0015-webhooks': webhooks,
  '2026-11-22-0016-web': web,
  '2026-11-23-0001-search-key-ranges': searchKeyRanges,
  '2026-11-24-0001-search-key-counter': searchKeyCounter,
  '2026-11-24-0100-scopes': scopes,
  '2026-11-24-0200-sync': sync,
  '2026-11-24-0300-instance-settings': instanceSettings,
  '2026-11-25-0001-lean-item-indexes': leanItemIndexes,
  '2026-11-25-0002-lean-outbox-indexes': leanOutboxIndexes,
  '2026-11-26-0300-organizer-models': organizerModels,
  '2026-11-27-0100-recurrence': recurrence,
  '2026-11-27-0110-reminders': reminders,
  '2026-11-27-0300-email-in': emailIn,
  '2026-11-27-0501-live-changes': liveChanges,
  '2026-11-28-0100-cjk-search-words': cjkSearchWords,
  '2026-11-28-0600-live-streams': liveStreams,
  '2026-11-29-0100-notify-streaming-users': notifyStreamingUsers,
  '2026-11-29-0300-sealed-secret': sealedSecret,
  '2026-11-29-0400-items-all-day': itemsAllDay,
  '2026-11-29-0500-saved-filters': savedFilters,
  '2026-11-29-0700-caldav': caldav,
  '2026-11-29-0800-undo-actions': undoActions,
  '2026-11-30-0100-attachments': attachments,
  '2026-11-30-0600-filter-indexes': filterIndexes,
  '2026-11-30-0700-pairing-key-expiry': pairingKeyExpiry,
  '2026-11-30-1100-project-counts': projectCounts,
  '2026-11-30-1200-project-counts-by-user': projectCountsByUser,
  '2026-11-30-1300-done-today-index': doneTodayIndex,
  '2026-11-30-1400-tag-counts': tagCounts,
  '2026-11-30-1500-organizer-filings': organizerFilings,
};
