/** The streaming JSON writer is byte-identical to JSON.stringify(v, null, 2) + '\n' and honours backpressure. */
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPieces, writeJson } from '../../electron/cli/json-stream';

class Sink extends Writable {
  text = '';
  writes = 0;
  constructor() {
    super({ highWaterMark: 1024, decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, cb: () => void) {
    this.text += chunk.toString();
    this.writes++;
    setImmediate(cb);
  }
}

describe('json-stream', () => {
  it('matches JSON.stringify for arbitrary JSON-ish values (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect([...jsonPieces(v)].join('')).toBe(JSON.stringify(v, null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('handles undefined, functions, toJSON and empty containers like JSON.stringify', () => {
    const v = { a: undefined, b: () => 1, c: [undefined, () => 2, 3], d: new Date(0), e: {}, f: [], g: null, h: 'x"\n' };
    expect([...jsonPieces(v)].join('')).toBe(JSON.stringify(v, null, 2));
  });

  it('writes a large report in many chunks, waiting for drain, with the same bytes', async () => {
    const big = { roots: Array.from({ length: 3000 }, (_, i) => ({ name: `chunk-${i}`, size: i * 4096, tag: 'app.web', records: i, ok: i % 2 === 0 })) };
    const sink = new Sink();
    await writeJson(sink, big);
    expect(sink.text).toBe(JSON.stringify(big, null, 2) + '\n');
    expect(sink.writes).toBeGreaterThan(2);
  });
});
