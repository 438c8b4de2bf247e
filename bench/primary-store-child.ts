/**
 * Forked by primary-store-roundtrip.ts: times consume() calls of the primary store (a cluster
 * worker's rate-limit counters) one after another, and sends the sorted samples back.
 */
import { connectToPrimary } from '../src/cluster/primary-channel.js';
import { createPrimaryStore } from '../src/modules/limits/primary-store.js';

const CALLS = Number(process.argv[2] ?? 20_000);
const channel = connectToPrimary();
const store = createPrimaryStore(channel);
const samples = new Float64Array(CALLS);
for (let i = 0; i < CALLS; i += 1) {
  const specs = [
    { key: `rl:{u:user-${i % 1000}}:m`, limit: 1e9, ttlMs: 120_000 },
    { key: `rl:{u:user-${i % 1000}}:d`, limit: 1e9, ttlMs: 172_800_000 },
  ];
  const start = process.hrtime.bigint();
  await store.consume(specs);
  samples[i] = Number(process.hrtime.bigint() - start) / 1000;
}
channel.close();
process.send?.({ samples: Array.from(samples.sort()) }, () => process.disconnect());
