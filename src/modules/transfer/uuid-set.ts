/**
 * A set of UUIDs kept as their 128 bits in one typed array (open addressing, linear probing): 32
 * bytes a UUID at most, outside the JavaScript heap, where a Set of 36-character strings took
 * about 90 on it. The Todoist import keeps one id per task of the file (decision 0108): on the
 * heap, each 100,000 rows held 9 MB more, which the collector multiplied into RSS.
 *
 * Only for UUIDs whose second 32-bit word is never zero (version 1 to 8, whose version digit sits
 * in it): an all-zero word marks an empty slot.
 */
export class UuidSet {
  private slots = new Uint32Array(4 * 1024);
  private count = 0;

  /** Adds the id; answers false when it was there already. */
  add(uuid: string): boolean {
    const words = wordsOf(uuid);
    if (words[1] === 0) throw new Error(`not a versioned UUID: ${uuid}`);
    if ((this.count + 1) * 2 > this.slots.length / 4) this.grow();
    if (!place(this.slots, words)) return false;
    this.count += 1;
    return true;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 4) if (old[i + 1] !== 0) place(this.slots, old.subarray(i, i + 4));
  }
}

function wordsOf(uuid: string): Uint32Array {
  const hex = uuid.replaceAll('-', '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`not a UUID: ${uuid}`);
  const words = new Uint32Array(4);
  for (let w = 0; w < 4; w += 1) words[w] = Number.parseInt(hex.slice(w * 8, w * 8 + 8), 16);
  return words;
}

/** Puts the four words in their slot; false if they are there already. The table has a free slot. */
function place(slots: Uint32Array, words: Uint32Array): boolean {
  const mask = slots.length / 4 - 1;
  // The first word of a hashed (v3/v5) or random (v4) UUID is already uniform.
  for (let slot = words[0]! & mask; ; slot = (slot + 1) & mask) {
    const at = slot * 4;
    if (slots[at + 1] === 0) {
      slots.set(words, at);
      return true;
    }
    if (slots[at] === words[0] && slots[at + 1] === words[1] && slots[at + 2] === words[2] && slots[at + 3] === words[3]) return false;
  }
}
