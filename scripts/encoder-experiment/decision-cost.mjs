// Cost of a local decision with the sentence encoder (worker thread) vs the word vectors alone, after
// `npm run build`: `nice -n 15 node scripts/encoder-experiment/decision-cost.mjs`. Wall times on a
// shared machine; the main thread's longest stall is what other requests feel.
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { emptyModel } from '../../dist/modules/organizer/learning/routing-model.js';
import { seedModel } from '../../dist/modules/organizer/learning/seed.js';
import { decideLoaded } from '../../dist/modules/organizer/local/local-engine.js';

let last = performance.now();
let worst = 0;
const timer = setInterval(() => {
  const now = performance.now();
  worst = Math.max(worst, now - last);
  last = now;
}, 1);
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(1);
const mb = () => (process.memoryUsage().rss / 1048576).toFixed(0);

const routing = JSON.parse(readFileSync(new URL('../../eval/organizer/routing.json', import.meta.url), 'utf8'));
const words = [
  ...new Set(
    routing.setups.flatMap((s) =>
      [...s.stream, ...s.test]
        .map(([t]) => t)
        .join(' ')
        .split(' '),
    ),
  ),
];
function user(projects) {
  const contexts = Object.entries(projects).map(([name, titles]) => ({ id: name, name, is_default: name === 'Inbox', titles }));
  const model = emptyModel();
  seedModel(model, contexts);
  return { contexts, model };
}
const setup = routing.setups[0];
const fresh = user(setup.projects);
// A heavy user: 2,000 titles over 8 projects, made of the routing set's words.
let seed = 1;
const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
const heavy = user(
  Object.fromEntries(
    ['Inbox', ...Array.from({ length: 7 }, (_, i) => `P${i}`)].map((p) => [
      p,
      Array.from({ length: 250 }, () => Array.from({ length: 3 + Math.floor(rand() * 5) }, () => words[Math.floor(rand() * words.length)]).join(' ')),
    ]),
  ),
);
const captures = setup.test.map(([t]) => t);
const decide = (u, title, sentenceEncoder) =>
  decideLoaded({ title, content_md: null, now: new Date('2026-11-26T10:00:00Z'), timezone: 'UTC', projects: u.contexts, model: u.model }, { sentenceEncoder });

async function phase(name, f) {
  await new Promise((r) => setTimeout(r, 20));
  worst = 0;
  last = performance.now();
  const t = performance.now();
  await f();
  console.log(`${name}: ${(performance.now() - t).toFixed(0)} ms, main thread's longest stall ${worst.toFixed(0)} ms, rss ${mb()} MB`);
}
console.log(`rss at start ${mb()} MB`);
await phase('first organize, word vectors only (loads them)', () => decide(fresh, captures[0], false));
await phase('first organize with the encoder (starts the worker, loads the model)', () => decide(fresh, captures[0], true));
for (const [label, u] of [
  ['new user', fresh],
  ['heavy user (2,000 titles)', heavy],
]) {
  await phase(`${label}: first decision with the encoder (encodes the latest titles)`, () => decide(u, captures[1], true));
  for (const enc of [false, true]) {
    const times = [];
    let stall = 0;
    for (const c of captures.slice(2, 14)) {
      worst = 0;
      last = performance.now();
      const t = performance.now();
      await decide(u, c, enc);
      times.push(performance.now() - t);
      stall = Math.max(stall, worst);
    }
    console.log(
      `${label}, ${enc ? 'encoder' : 'word vectors'}: decision median ${med(times)} ms (min ${Math.min(...times).toFixed(1)}), longest stall ${stall.toFixed(0)} ms`,
    );
  }
}
console.log(`rss at end ${mb()} MB`);
clearInterval(timer);
