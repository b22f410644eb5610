/**
 * Writes a value as JSON to a stream piece by piece, byte-identical to
 * `JSON.stringify(value, null, 2) + '\n'`, without building the whole text in memory: a scan of a
 * 100,000-chunk store is ~60 MB of JSON, which as one string (plus its UTF-16 copy in the stream
 * buffer) would cost several hundred MB. Honours backpressure.
 */
import type { Writable } from 'node:stream';

const FLUSH_AT = 1 << 16;

/** Yields the JSON text of `value` in pieces (same rules as JSON.stringify with indent 2). */
export function* jsonPieces(value: unknown, indent = '', key = ''): Generator<string> {
  let v = value;
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  if (v === null || typeof v !== 'object') {
    // Leaves (and undefined/functions, which the caller filters) are exactly JSON.stringify's.
    yield JSON.stringify(v) ?? 'null';
    return;
  }
  const inner = indent + '  ';
  if (isSmall(v, 3)) {
    // One JSON.stringify per small subtree (a chunk entry), re-indented: the same text, far
    // fewer pieces. Strings never hold a raw newline in JSON, so only structure lines move.
    const text = JSON.stringify(v, null, 2);
    yield indent ? text.replace(/\n/g, '\n' + indent) : text;
    return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return void (yield '[]');
    yield '[\n';
    for (let i = 0; i < v.length; i++) {
      yield inner;
      const item = v[i];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonPieces(item, inner, String(i));
      yield i < v.length - 1 ? ',\n' : '\n';
    }
    yield indent + ']';
    return;
  }
  const entries = Object.keys(v).filter((k) => {
    const x = (v as Record<string, unknown>)[k];
    return x !== undefined && typeof x !== 'function' && typeof x !== 'symbol';
  });
  if (entries.length === 0) return void (yield '{}');
  yield '{\n';
  for (let i = 0; i < entries.length; i++) {
    const k = entries[i];
    yield `${inner}${JSON.stringify(k)}: `;
    yield* jsonPieces((v as Record<string, unknown>)[k], inner, k);
    yield i < entries.length - 1 ? ',\n' : '\n';
  }
  yield indent + '}';
}

/** A subtree small enough to stringify in one go: no array longer than 64 within `depth` levels. */
function isSmall(v: object, depth: number): boolean {
  if (depth === 0) return false;
  const values = Array.isArray(v) ? v : Object.values(v);
  if (Array.isArray(v) && v.length > 64) return false;
  for (const x of values) if (x !== null && typeof x === 'object' && !isSmall(x as object, depth - 1)) return false;
  return true;
}

/** Streams `value` as pretty JSON plus a newline to `out`, waiting for 'drain' when the stream asks. */
export async function writeJson(out: Writable, value: unknown): Promise<void> {
  let buf = '';
  const flush = async () => {
    if (!buf) return;
    const ok = out.write(buf);
    buf = '';
    if (!ok) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  for (const piece of jsonPieces(value)) {
    buf += piece;
    if (buf.length >= FLUSH_AT) await flush();
  }
  buf += '\n';
  await flush();
}
