import type { BenchDialect } from './databases.js';

/*
 * The bench's knobs, read once from the environment (docs/performance.md lists them).
 */

/** Server settings compared against the (unchanging) baseline; `default` is the headline. */
export const CONFIGS = {
  default: { WORKERS: '1', LOG_LEVEL: 'info' },
  'workers-2': { WORKERS: '2', LOG_LEVEL: 'info' },
  'workers-auto': { WORKERS: 'auto', LOG_LEVEL: 'info' },
  'log-warn': { WORKERS: '1', LOG_LEVEL: 'warn' },
} as const satisfies Record<string, { WORKERS: string; LOG_LEVEL: string }>;
export type ConfigName = keyof typeof CONFIGS;

export interface BenchSettings {
  durationS: number;
  warmupS: number;
  rounds: number;
  scale: number;
  items: number;
  databases: BenchDialect[];
  configs: ConfigName[];
  pgAdminUrl: string;
  baselineFramework: 'fastify' | 'http';
  loadGenerator: 'wrk' | 'autocannon' | undefined;
  extras: boolean;
  connections: number;
}

const FULL_ITEMS = 100_000;
const MIN_ITEMS = 50;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min} (got ${raw})`);
  return n;
}

function list<T extends string>(env: NodeJS.ProcessEnv, name: string, fallback: readonly T[], allowed: readonly T[]): T[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [...fallback];
  const values = raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  for (const v of values) if (!(allowed as readonly string[]).includes(v)) throw new Error(`${name}: unknown "${v}" (one of ${allowed.join(', ')})`);
  const unique = [...new Set(values)] as T[];
  if (unique.length === 0) throw new Error(`${name} names nothing`);
  return unique;
}

export function readSettings(env: NodeJS.ProcessEnv): BenchSettings {
  const scale = env.BENCH_SCALE === undefined || env.BENCH_SCALE === '' ? 1 : Number(env.BENCH_SCALE);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`BENCH_SCALE must be a positive number (got ${env.BENCH_SCALE})`);
  const framework = env.BENCH_BASELINE_FRAMEWORK ?? 'fastify';
  if (framework !== 'fastify' && framework !== 'http') throw new Error('BENCH_BASELINE_FRAMEWORK must be fastify or http');
  const generator = env.BENCH_LOAD_GENERATOR;
  if (generator !== undefined && generator !== 'wrk' && generator !== 'autocannon') throw new Error('BENCH_LOAD_GENERATOR must be wrk or autocannon');
  return {
    durationS: integer(env, 'BENCH_DURATION_S', 8, 1),
    warmupS: integer(env, 'BENCH_WARMUP_S', 3, 0),
    rounds: integer(env, 'BENCH_ROUNDS', 3, 1),
    scale,
    items: Math.max(MIN_ITEMS, Math.round(FULL_ITEMS * scale)),
    databases: list(env, 'BENCH_DATABASES', ['sqlite', 'postgres'], ['sqlite', 'postgres']),
    configs: list(env, 'BENCH_CONFIGS', Object.keys(CONFIGS) as ConfigName[], Object.keys(CONFIGS) as ConfigName[]),
    pgAdminUrl: env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    baselineFramework: framework,
    loadGenerator: generator,
    extras: env.BENCH_EXTRAS === '1',
    connections: 32,
  };
}

/** The knobs of the scenario scripts (capture-organize, account): docs/performance.md lists them. */
export interface ScenarioSettings {
  databases: BenchDialect[];
  /** Server processes, one row per value (WORKERS). */
  workers: number[];
  pgAdminUrl: string;
}

export function readScenarioSettings(env: NodeJS.ProcessEnv): ScenarioSettings {
  const workers = list(env, 'BENCH_WORKERS', ['1', '2'], ['1', '2', '3', '4']).map(Number);
  return {
    databases: list(env, 'BENCH_DATABASES', ['sqlite', 'postgres'], ['sqlite', 'postgres']),
    workers,
    pgAdminUrl: env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}

/** A positive integer knob of a scenario script. */
export function scenarioInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  return integer(env, name, fallback, min);
}
