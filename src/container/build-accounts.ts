import { createAccountSettingsService } from '../modules/accounts/account-settings.service.js';
import { createAccountsService } from '../modules/accounts/accounts.service.js';
import { createIdempotencyService } from '../modules/idempotency/idempotency.service.js';
import { createInstanceService } from '../modules/instance/instance.service.js';
import { createKeysService } from '../modules/keys/keys.service.js';
import type { LimitsService } from '../modules/limits/limits.service.js';
import { createPairingService } from '../modules/pairing/pairing.service.js';
import { createExportService } from '../modules/transfer/export.service.js';
import { createImportService } from '../modules/transfer/import.service.js';
import { createTransferService } from '../modules/transfer/transfer.service.js';
import { createUsersService } from '../modules/users/users.service.js';
import { createVoiceService, defaultVoiceOptions } from '../modules/voice/voice.service.js';
import type { Basics } from './build-basics.js';
import type { CaptureParts } from './build-capture.js';
import type { ItemParts } from './build-items.js';
import type { ServiceInputs } from './inputs.js';

/** Users and what they hold besides items: keys, accounts and sessions, pairing, voice, export and import. */
export function buildAccounts(
  { db, clock, newId, logger }: Basics,
  { projects, tags, search, recurrence, learner, events, allDayZoneMove, filters, attachments }: ItemParts,
  { items }: Pick<CaptureParts, 'items'>,
  limits: LimitsService,
  { config, inject = {} }: ServiceInputs,
) {
  const base = { db, clock, newId };
  const users = createUsersService({ ...base, projects, allDayItems: allDayZoneMove });
  const keys = createKeysService(base);
  const idempotency = createIdempotencyService({ db, clock });

  const voice = createVoiceService({
    config: config.transcribe,
    options: { ...defaultVoiceOptions(), ...inject.voice },
    logger,
  });

  const instance = createInstanceService({ db, clock, signup: config.signup });
  const accounts = createAccountsService({ db, clock, users, limits, instance });
  const accountSettings = createAccountSettingsService({ db, clock, users, limits, events });
  const pairing = createPairingService({ db, clock, keys, pace: limits.checkPace });
  const transfer = createTransferService({
    clock,
    exporter: createExportService({
      db,
      clock,
      users,
      projects,
      tags,
      items,
      organizerModel: learner.exportModel,
      completions: (userId) => recurrence.allCompletions(db, userId),
      filters: (userId) => filters.exportFilters(db, userId),
    }),
    importer: createImportService({ db, items, projects, tags, search, recurrence, importFilters: filters.importFilters }),
    attachments,
  });
  return { users, keys, idempotency, voice, instance, accounts, accountSettings, pairing, transfer };
}

export type AccountParts = ReturnType<typeof buildAccounts>;
