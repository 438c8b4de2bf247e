import { deflateSync } from 'node:zlib';

/*
 * The app icon (a white tick on the accent colour, in a rounded square), drawn at its first request into
 * PNGs, since installable web apps need raster icons of 192 and 512 pixels and the build has no
 * copy step for binary files. Maskable: the tick stays inside the safe central 80 %.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Distance from point p to the segment a–b. */
function toSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const [dx, dy] = [bx - ax, by - ay];
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

const ACCENT = [0x24, 0x51, 0xb7];

/** An RGBA PNG of the icon at `size` pixels, anti-aliased by coverage of the tick's stroke. */
export function iconPng(size: number): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  const stroke = size * 0.09;
  for (let y = 0; y < size; y += 1) {
    const row = y * (size * 4 + 1);
    raw[row] = 0;
    for (let x = 0; x < size; x += 1) {
      const [u, v] = [(x + 0.5) / size, (y + 0.5) / size];
      const d = Math.min(toSegment(u, v, 0.28, 0.52, 0.43, 0.67), toSegment(u, v, 0.43, 0.67, 0.73, 0.35)) * size;
      const tick = Math.max(0, Math.min(1, stroke - d + 0.5));
      const i = row + 1 + x * 4;
      for (let c = 0; c < 3; c += 1) raw[i + c] = Math.round(ACCENT[c]! * (1 - tick) + 255 * tick);
      raw[i + 3] = 255;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const ICON_SIZES = [192, 512] as const;
