import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.js';
import { createOrganizerEngine } from '../modules/organizer/engines.js';
import { evaluate, formatReport, type EvalSet, type Profile } from '../modules/organizer/evaluation.js';
import { ROUTING_PARAMS } from '../modules/organizer/learning/params.js';
import { loadWordVectors } from '../modules/organizer/learning/word-vectors.js';
import type { MeaningSpace } from '../modules/organizer/learning/semantic.js';
import { loadSentenceEncoder, sentenceKey, sentenceSpaceOf } from '../modules/organizer/learning/sentence-vectors.js';
import { evaluateRouting, formatRoutingReport, type RoutingSet } from '../modules/organizer/routing-evaluation.js';

/**
 * `npm run eval:organizer`: scores the configured engine (ORGANIZER_ENGINE, `local` by default) on
 * the evaluation set in eval/organizer/ and prints the accuracies and every miss.
 * `npm run eval:organizer -- holdout.json` scores the held-out set instead;
 * `npm run eval:organizer -- routing.json` (or `holdout-2.json`, any set of project setups) replays
 * a routing set (the local router and its model). The sentence encoder is used when it is
 * installed, as by the server (ORGANIZER_SENTENCE_ENCODER=off: the word vectors alone).
 */
const root = new URL('../../eval/organizer/', import.meta.url);
const read = async <T>(name: string): Promise<T> => JSON.parse(await readFile(new URL(name, root), 'utf8')) as T;

/** Every text of a routing set through the sentence encoder at once (the replay itself is synchronous); undefined without it. */
async function encodeSet(set: RoutingSet, use: boolean): Promise<MeaningSpace | undefined> {
  const encoder = use ? await loadSentenceEncoder() : undefined;
  if (!encoder) return undefined;
  const texts = set.setups.flatMap((s) => [...Object.keys(s.projects), ...Object.values(s.projects).flat(), ...[...s.stream, ...s.test].map(([text]) => text)]);
  const keys = [...new Set(texts.map(sentenceKey))].filter((k) => k.length > 0);
  const vectors = await encoder.encode(keys);
  return sentenceSpaceOf(new Map(keys.map((k, i) => [k, vectors[i]!])));
}

const name = process.argv[2] ?? 'cases.json';
const set = await read<RoutingSet | EvalSet>(name);
const config = loadConfig();
if ('setups' in set) {
  const threshold = process.argv[3] ? Number(process.argv[3]) : ROUTING_PARAMS.threshold;
  process.stdout.write(
    `${formatRoutingReport(evaluateRouting(set, threshold, await loadWordVectors(), await encodeSet(set, config.organizer.sentenceEncoder !== false)), threshold)}\n`,
  );
} else {
  const engine = createOrganizerEngine(config.organizer);
  const report = await evaluate(engine, set, await read<Record<string, Profile>>('profiles.json'), {
    sentenceEncoder: config.organizer.sentenceEncoder !== false,
  });
  process.stdout.write(`${formatReport(report)}\n`);
}
