/**
 * A writable copy of the built-in demo store: its archive extracted into a new private temp
 * folder (`<tmp>/store-doctor-demo-XXXXXX`), so Repair, Protect and Undo can be tried on real
 * Fluent Bit data without touching anything else. Only folders and regular files are extracted,
 * at their place inside the folder (no absolute path, no `..`, no link); the copy is removed when
 * its store is closed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { EngineError } from './errors';

/** The demo is small; anything bigger is not the demo. */
const MAX_BYTES = 64 * 1024 * 1024;

function safeParts(name: string): string[] | null {
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (name.startsWith('/') || parts.some((p) => p === '..' || p.includes('\0'))) return null;
  return parts;
}

/** Extract `archive` (.tar or .tar.gz) into a new temp folder; returns the folder. */
export async function extractDemoCopy(archive: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-doctor-demo-'));
  const extract = tar.extract();
  let total = 0;
  const done = (async () => {
    for await (const entry of extract) {
      const h = entry.header;
      const parts = safeParts(h.name);
      if (!parts || parts.length === 0 || (h.type !== 'file' && h.type !== 'directory')) {
        entry.resume();
        continue;
      }
      const target = path.join(dir, ...parts);
      if (h.type === 'directory') {
        fs.mkdirSync(target, { recursive: true, mode: 0o755 });
        entry.resume();
        continue;
      }
      total += h.size ?? 0;
      if (total > MAX_BYTES) throw new EngineError('failed', `the demo archive is larger than ${MAX_BYTES} bytes: not the built-in demo`, archive);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
      await pipeline(entry, fs.createWriteStream(target, { flags: 'wx', mode: (h.mode ?? 0o644) & 0o644 }));
      if (h.mtime) fs.utimesSync(target, h.mtime, h.mtime);
    }
  })();
  try {
    const input = fs.createReadStream(archive);
    const head = Buffer.alloc(2);
    const fd = fs.openSync(archive, 'r');
    try {
      fs.readSync(fd, head, 0, 2, 0);
    } finally {
      fs.closeSync(fd);
    }
    const gz = head[0] === 0x1f && head[1] === 0x8b;
    await Promise.all([pipeline(gz ? input.pipe(zlib.createGunzip()) : input, extract), done]);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    if (err instanceof EngineError) throw err;
    throw new EngineError('failed', `could not copy the demo store from ${archive}: ${(err as Error).message}`, archive);
  }
  return dir;
}
