import type { SignupConfig } from '../../config.js';
import type { Db } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { toTimestamp } from '../../lib/timestamps.js';
import { insertSettingIfAbsent, readSetting, writeSetting } from './instance.repository.js';

const SIGNUP_OPEN = 'signup_open';

export interface SignupState {
  open: boolean;
  /** ALLOW_SIGNUP=false: closed by the server's settings; the admin page cannot open it. */
  closedBySetting: boolean;
}

/** Settings of the server as a whole, as its owner changes them (the admin page). */
export interface InstanceService {
  signup(): Promise<SignupState>;
  setSignupOpen(open: boolean): Promise<SignupState>;
  readonly defaultPlan: SignupConfig['defaultPlan'];
  /** A value made once for the whole server (the VAPID key pair): the stored one, or `make()`'s, stored by whichever process came first. */
  keepFirst(name: string, make: () => string | Promise<string>): Promise<string>;
}

/**
 * ALLOW_SIGNUP=false is the operator's word and wins; with it true, the owner's last choice on the
 * admin page decides (open until they close it).
 */
export function createInstanceService(deps: { db: Db; clock: Clock; signup: SignupConfig }): InstanceService {
  const { db } = deps;
  async function signup(): Promise<SignupState> {
    if (!deps.signup.allowed) return { open: false, closedBySetting: true };
    return { open: (await readSetting(db, SIGNUP_OPEN)) !== 'false', closedBySetting: false };
  }
  return {
    signup,
    async setSignupOpen(open) {
      await writeSetting(db, SIGNUP_OPEN, String(open), toTimestamp(deps.clock.now()));
      return signup();
    },
    defaultPlan: deps.signup.defaultPlan,
    async keepFirst(name, make) {
      const stored = await readSetting(db, name);
      if (stored !== undefined) return stored;
      await insertSettingIfAbsent(db, name, await make(), toTimestamp(deps.clock.now()));
      return (await readSetting(db, name))!;
    },
  };
}
