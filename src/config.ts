import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';

const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  DATABASE_URL: Type.String({ pattern: '^(sqlite:|postgres(ql)?://)', default: 'sqlite:./data/inbox.db' }),
  LOG_LEVEL: Type.String({ enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
});

type RawConfig = Static<typeof ConfigSchema>;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  readonly databaseUrl: string;
  readonly logLevel: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the settings of operations.md once; every invalid setting is listed in one error. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
  const validate = ajv.compile<RawConfig>(ConfigSchema);
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath.slice(1) || 'config'} ${e.message ?? 'is invalid'}`);
    throw new ConfigError(`invalid settings: ${problems.join('; ')}`);
  }
  return Object.freeze({
    port: raw.PORT,
    host: raw.HOST,
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    databaseUrl: raw.DATABASE_URL,
    logLevel: raw.LOG_LEVEL,
  });
}
