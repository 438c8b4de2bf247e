import { installActingInPlace } from './acting/acting-in-place.js';
import { installAttachments } from './attachments/attachments.js';
import { upgradeRows } from './regions/row-menu.js';
import { installBrainDump } from './brain-dump/brain-dump.js';
import { installBottomBar } from './bottom-bar.js';
import { installConfirm } from './confirm.js';
import { installCopyButtons } from './copy-buttons.js';
import { installEnterCaptures } from './enter-captures.js';
import { installFieldKeys } from './field-keys.js';
import { installFilterBox } from './filters/filter-box.js';
import { installLiveUpdates } from './live/live-updates.js';
import { installOfflineCapture } from './offline/offline-capture.js';
import { installOfflineOutbox } from './offline/offline-outbox.js';
import { installOfflinePages } from './offline/offline-pages.js';
import { installPushSubscribe } from './push/push-subscribe.js';
import { installQuickAddPreview } from './quick-add/quick-add-preview.js';
import { installShortcuts, openFromHash } from './shortcuts.js';
import { installSwipe } from './swipe.js';
import { installTimeZoneField } from './time-zone-field.js';
import { installRescheduleOverdue } from './upcoming/reschedule-overdue.js';
import { installVoice } from './voice.js';

/*
 * The web app's page script (served as /assets/app.<hash>.js, docs/decisions/0068): progressive
 * enhancement of server-rendered pages, every page working without it. Each module installs one
 * behaviour. The order matters where listeners share an event: the capture form's offline
 * submit first, then acting in place, then the generic confirmation, which each defer to an
 * earlier one that cancelled the submit.
 */
document.documentElement.classList.add('js');
const touch = window.matchMedia?.('(pointer: coarse)').matches ?? false;
if (touch) document.documentElement.classList.add('touch');

installEnterCaptures(touch);
installOfflineCapture();
installOfflineOutbox();
installOfflinePages();
installPushSubscribe();
installFieldKeys();
upgradeRows(document);
installActingInPlace();
installRescheduleOverdue();
installLiveUpdates();
installConfirm();
installCopyButtons();
installVoice();
installAttachments();
installQuickAddPreview();
installFilterBox();
installBrainDump();
installTimeZoneField();
installShortcuts();
installBottomBar();
installSwipe();
openFromHash();
