import { installOfflineShell } from './offline-shell.js';
import { installPushNotifications } from './push-notifications.js';

/*
 * The service worker, served at /sw.js so its scope is the whole app (docs/decisions/0068). One
 * module a job, each with its own listeners: another job is one more module installed here.
 */
installOfflineShell();
installPushNotifications();
