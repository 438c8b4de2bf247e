import type { InstanceService } from '../instance/instance.service.js';
import type { TargetSecretVault } from './target-secrets.js';
import type { VapidKeys } from './transports/web-push-transport.js';

const VAPID_SETTING = 'vapid_keys';

export interface VapidKeyStore {
  /** The public key (base64url), for PushManager.subscribe. */
  publicKey(): Promise<string>;
  /** The pair for sending: only a send opens the private key. */
  pair(): Promise<VapidKeys>;
}

/** The server's VAPID key pair: made by the first process that needs it, kept in instance_settings, the private key sealed under SECRET_KEY. */
export function createVapidKeyStore(deps: { instance: Pick<InstanceService, 'keepFirst'>; vault: TargetSecretVault }): VapidKeyStore {
  let stored: Promise<VapidKeys> | undefined;
  const storedVapid = () =>
    (stored ??= deps.instance
      .keepFirst(VAPID_SETTING, async () => {
        const made = (await import('./transports/push-library.js')).newVapidKeys();
        return JSON.stringify({ publicKey: made.publicKey, privateKey: deps.vault.seal('instance', 'vapid', made.privateKey) });
      })
      .then((text) => JSON.parse(text) as VapidKeys)
      .catch((error: unknown) => {
        stored = undefined;
        throw error;
      }));
  return {
    async publicKey() {
      return (await storedVapid()).publicKey;
    },
    async pair() {
      const { publicKey, privateKey } = await storedVapid();
      return { publicKey, privateKey: deps.vault.open('instance', 'vapid', privateKey) };
    },
  };
}
