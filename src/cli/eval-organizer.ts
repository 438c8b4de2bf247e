import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.js';
import { createOrganizerEngine } from '../modules/organizer/engines.js';
import { evaluate, formatReport, type EvalSet, type Profile } from '../modules/organizer/evaluation.js';
import { ROUTING_PARAMS } from '../modules/organizer/learning/params.js';
import { loadWordVectors } from '../modules/organizer/learning/word-vectors.js';
import { evaluateRouting, formatRoutingReport, type RoutingSet } from '../modules/organizer/routing-evaluation.js';

/**
 * `npm run eval:organizer`: scores the configured engine (ORGANIZER_ENGINE, `local` by default) on
 * the evaluation set in eval/organizer/ and prints the accuracies and every miss.
 * `npm run eval:organizer -- holdout.json` scores the held-out set instead;
 * `npm run eval:organizer -- routing.json` (or `holdout-2.json`, any set of project setups) replays
 * a routing set (the local router and its model).
 */
const root = new URL('../../eval/organizer/', import.meta.url);
const read = async <T>(name: string): Promise<T> => JSON.parse(await readFile(new URL(name, root), 'utf8')) as T;

const name = process.argv[2] ?? 'cases.json';
const set = await read<RoutingSet | EvalSet>(name);
if ('setups' in set) {
  const threshold = process.argv[3] ? Number(process.argv[3]) : ROUTING_PARAMS.threshold;
  process.stdout.write(`${formatRoutingReport(evaluateRouting(set, threshold, await loadWordVectors()), threshold)}\n`);
} else {
  const config = loadConfig();
  const engine = createOrganizerEngine(config.organizer);
  const report = await evaluate(engine, set, await read<Record<string, Profile>>('profiles.json'));
  process.stdout.write(`${formatReport(report)}\n`);
}
