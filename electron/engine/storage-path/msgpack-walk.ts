/**
 * Where one msgpack object ends, without decoding it: the boundaries of the events in a chunk, so a
 * torn last event is found and cut exactly (values are decoded with @msgpack/msgpack). Iterative and
 * bounded (a hostile chunk cannot recurse or allocate).
 */

/** End offset of the object starting at `pos`; `-1` when the buffer ends inside it; `-2` for a byte no msgpack object starts with. */
export function skipObject(b: Uint8Array, pos: number): number {
  let pending = 1; // objects still to skip
  let p = pos;
  const n = b.length;
  const need = (k: number): boolean => p + k <= n;
  while (pending > 0) {
    if (p >= n) return -1;
    const t = b[p++];
    pending--;
    let len = 0;
    let items = 0;
    if (t <= 0x7f || t >= 0xe0 || t === 0xc0 || t === 0xc2 || t === 0xc3) continue;
    if (t >= 0x80 && t <= 0x8f) items = (t & 0x0f) * 2;
    else if (t >= 0x90 && t <= 0x9f) items = t & 0x0f;
    else if (t >= 0xa0 && t <= 0xbf) len = t & 0x1f;
    else if (t === 0xc1) return -2;
    else if (t === 0xc4 || t === 0xd9) {
      if (!need(1)) return -1;
      len = b[p++];
    } else if (t === 0xc5 || t === 0xda) {
      if (!need(2)) return -1;
      len = (b[p] << 8) | b[p + 1];
      p += 2;
    } else if (t === 0xc6 || t === 0xdb) {
      if (!need(4)) return -1;
      len = ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
      p += 4;
    } else if (t === 0xc7 || t === 0xc8 || t === 0xc9) {
      const w = t === 0xc7 ? 1 : t === 0xc8 ? 2 : 4;
      if (!need(w)) return -1;
      len = w === 1 ? b[p] : w === 2 ? (b[p] << 8) | b[p + 1] : ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
      len += 1; // the ext type byte
      p += w;
    } else if (t === 0xca) len = 4;
    else if (t === 0xcb) len = 8;
    else if (t === 0xcc || t === 0xd0) len = 1;
    else if (t === 0xcd || t === 0xd1) len = 2;
    else if (t === 0xce || t === 0xd2) len = 4;
    else if (t === 0xcf || t === 0xd3) len = 8;
    else if (t >= 0xd4 && t <= 0xd8) len = 1 + [1, 2, 4, 8, 16][t - 0xd4];
    else if (t === 0xdc || t === 0xde) {
      if (!need(2)) return -1;
      items = (b[p] << 8) | b[p + 1];
      if (t === 0xde) items *= 2;
      p += 2;
    } else if (t === 0xdd || t === 0xdf) {
      if (!need(4)) return -1;
      items = ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
      if (t === 0xdf) items *= 2;
      p += 4;
    }
    if (len) {
      if (!need(len)) return -1;
      p += len;
    }
    // Every element needs at least one byte: more than the buffer holds is a torn (or lying) container.
    if (items > n - p) return -1;
    pending += items;
  }
  return p;
}
