/** A temp folder per test file for generated Fluent Bit configs: `write(rel, text)` returns the path. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export function tempConfigTree(prefix: string): { dir: () => string; write: (rel: string, text: string) => Promise<string> } {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    write: async (rel, text) => {
      const p = path.join(dir, rel);
      await mkdir(path.dirname(p), { recursive: true });
      await writeFile(p, text);
      return p;
    },
  };
}
