import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.js';
import { createOrganizerEngine } from '../modules/organizer/engines.js';
import { evaluate, formatReport, type EvalSet, type Profile } from '../modules/organizer/evaluation.js';

/**
 * `npm run eval:organizer`: scores the configured engine (ORGANIZER_ENGINE, `local` by default) on
 * the evaluation set in eval/organizer/ and prints the accuracies and every miss.
 * `npm run eval:organizer -- holdout.json` scores the held-out set instead.
 */
const root = new URL('../../eval/organizer/', import.meta.url);
const read = async <T>(name: string): Promise<T> => JSON.parse(await readFile(new URL(name, root), 'utf8')) as T;

const config = loadConfig();
const engine = createOrganizerEngine(config.organizer);
const report = await evaluate(engine, await read<EvalSet>(process.argv[2] ?? 'cases.json'), await read<Record<string, Profile>>('profiles.json'));
process.stdout.write(`${formatReport(report)}\n`);
