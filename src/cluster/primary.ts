import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from '../config.js';
import { systemClock } from '../lib/clock.js';
import type { CounterStore } from '../modules/limits/counter-store.js';
import { createMemoryStore } from '../modules/limits/memory-store.js';
import { isAskMessage, isWakeMessage, type AskMessage } from './messages.js';
import { createPrimaryAnswers } from './primary-answers.js';

/** A worker that keeps dying is a broken deployment, not bad luck: give up after this many in a minute. */
const MAX_RESTARTS_PER_MINUTE = 5;
const RESTART_WINDOW_MS = 60_000;
/** Workers get 10 s to finish in-flight requests (close-with-grace); past this they are killed. */
const STOP_TIMEOUT_MS = 15_000;

/**
 * The primary process of WORKERS > 1: it prepares the deployment once (migrations, secret key),
 * forks the workers that serve HTTP on the shared port, restarts one that dies, answers their
 * counter and metrics requests, and on SIGTERM/SIGINT stops them all before it exits.
 */
export async function runPrimary(config: Config, logger: Logger, prepare: () => Promise<void>): Promise<void> {
  await prepare();
  // With Redis the workers count there themselves; without it the counters live here, shared.
  const counters: CounterStore | undefined = config.redisUrl ? undefined : createMemoryStore(systemClock);
  const aggregator = new AggregatorRegistry();

  // One answerer per worker, so each batches its own answers.
  const answerers = new Map<number, (message: AskMessage) => void>();
  const answererOf = (worker: Worker) => {
    let answerer = answerers.get(worker.id);
    if (!answerer) {
      answerer = createPrimaryAnswers({ counters, metrics: () => aggregator.clusterMetrics() }, (reply) => {
        if (worker.isConnected()) worker.send(reply);
      });
      answerers.set(worker.id, answerer);
    }
    return answerer;
  };
  cluster.on('message', (worker, message: unknown) => {
    if (isAskMessage(message)) answererOf(worker)(message);
    // Live changes on SQLite: a worker's commits wake the streams of every other worker.
    else if (isWakeMessage(message)) {
      for (const other of Object.values(cluster.workers ?? {})) {
        if (other && other.id !== worker.id && other.isConnected()) other.send(message);
      }
    }
  });

  let stopping = false;
  let exitCode = 0;
  const restarts: number[] = [];
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);

  cluster.on('exit', (worker, code, signal) => {
    answerers.delete(worker.id);
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (live().length === 0) process.exit(exitCode);
      return;
    }
    const now = Date.now();
    while (restarts.length > 0 && now - restarts[0]! > RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS_PER_MINUTE) {
      logger.fatal({ pid: worker.process.pid, code, signal }, `worker exited; ${MAX_RESTARTS_PER_MINUTE} restarts within a minute already, stopping`);
      stop(1);
      return;
    }
    restarts.push(now);
    logger.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    cluster.fork();
  });

  function stop(code: number): void {
    if (stopping) {
      // A second signal: the operator does not want to wait.
      for (const worker of live()) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    exitCode = code;
    const workers = live();
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      logger.error({ timeoutMs: STOP_TIMEOUT_MS }, 'workers did not stop in time; killing them');
      for (const worker of live()) worker.process.kill('SIGKILL');
    }, STOP_TIMEOUT_MS).unref();
  }
  process.on('SIGTERM', () => stop(0));
  process.on('SIGINT', () => stop(0));

  logger.info({ workers: config.workers, counters: counters ? 'primary process' : 'redis' }, 'starting workers');
  for (let i = 0; i < config.workers; i += 1) cluster.fork();
}
