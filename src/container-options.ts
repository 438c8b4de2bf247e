import type { Config } from './config.js';
import type { ContainerOptions, WebhookOptions } from './container.js';
import type { RedisStoreOptions } from './modules/limits/redis-store.js';

/** The settings the services read; the rest of Config is the HTTP layer's or the process's. */
export type ServiceSettings = Pick<
  Config,
  'limits' | 'redisUrl' | 'redisKeyPrefix' | 'organizer' | 'transcribe' | 'secretKey' | 'webhooks' | 'signup' | 'emailIn'
>;

/**
 * What a caller adds that is not a setting: its logger, the cluster link, and what tests inject
 * (clock, DNS, outbound HTTP, tighter Redis timeouts). A setting cannot be given here, so a
 * process never builds services from anything but its configuration.
 */
export type ContainerExtras = Omit<ContainerOptions, 'limits' | 'redis' | 'organizer' | 'transcribe' | 'signup' | 'webhooks' | 'emailIn'> & {
  webhooks?: Omit<WebhookOptions, 'secretKey' | 'delivery'>;
  redis?: Omit<RedisStoreOptions, 'url' | 'keyPrefix'>;
};

/** The one mapping from loaded settings to the container's options: the server, the admin CLI and the tests' app all use it. */
export function containerOptionsFrom(config: ServiceSettings, extras: ContainerExtras = {}): ContainerOptions {
  const { webhooks, redis, ...rest } = extras;
  return {
    ...rest,
    limits: config.limits,
    ...(config.redisUrl ? { redis: { url: config.redisUrl, keyPrefix: config.redisKeyPrefix, ...redis } } : {}),
    organizer: config.organizer,
    transcribe: config.transcribe,
    webhooks: { ...(config.secretKey ? { secretKey: config.secretKey } : {}), delivery: config.webhooks, ...webhooks },
    signup: config.signup,
    ...(config.emailIn ? { emailIn: config.emailIn } : {}),
  };
}
