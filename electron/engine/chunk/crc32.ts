/**
 * CRC-32 (IEEE 802.3, the zlib one) as chunkio computes it (docs/fluent-bit-store-format.md#chunk-header): reflected poly 0xEDB88320,
 * init and xor-out 0xFFFFFFFF. Uses Node's native `zlib.crc32` when present, a table otherwise.
 * Incremental: pass the previous result as `value` to continue over the next piece.
 */
import * as zlib from 'node:zlib';

type Crc32Fn = (data: Uint8Array, value?: number) => number;

let table: Uint32Array | null = null;

function tableCrc32(data: Uint8Array, value = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as unknown as { crc32?: Crc32Fn }).crc32;

/** CRC-32 of `data`, continuing from `value` (0 to start). Always an unsigned 32-bit number. */
export function crc32(data: Uint8Array, value = 0): number {
  return native ? native(data, value) >>> 0 : tableCrc32(data, value);
}

/** The portable implementation, exported so tests can check it against the native one. */
export const crc32Table: Crc32Fn = tableCrc32;

export function crcHex(value: number): string {
  if (value === 0) return '00000000'; // the usual field: one shared string
  return (value >>> 0).toString(16).padStart(8, '0');
}
