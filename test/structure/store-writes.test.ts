/**
 * Issue 17: every write into a store goes through the one anchored primitive
 * (electron/engine/repair/write/anchor.ts and the functions of repair/write/atomic.ts and move.ts built on it). This
 * fails when engine code calls a path-based file-system write itself — writeFile, appendFile,
 * rename, link, symlink, unlink, mkdir, rmdir, rm, chmod, chown, copyFile, cp, utimes, truncate,
 * createWriteStream, or open with a write flag — or imports one of them by name from node:fs.
 * The few engine files that write outside any store (the app's own settings, a demo copy in a
 * fresh temp folder) are listed with the reason.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

const ROOT = path.resolve(__dirname, '../..');
const ENGINE = path.join(ROOT, 'electron/engine');

/** The primitive itself. */
const PRIMITIVE = new Set(['repair/write/anchor.ts', 'repair/write/atomic.ts', 'repair/write/move.ts']);
/** Writes that never touch a store, and why. */
const NOT_A_STORE: Record<string, string> = {
  'session/recent.ts': "the app's list of recent stores, in its own user-data folder",
  'session/connections.ts': "the app's saved S3 connections, in its own user-data folder",
  'session/demo-copy.ts': 'extracts the bundled demo store into a fresh temp folder it made',
  'session/handlers-console.ts': 'removes the temp copy of a demo store it made',
};

const WRITES =
  'writeFile|writeFileSync|appendFile|appendFileSync|rename|renameSync|link|linkSync|symlink|symlinkSync|unlink|unlinkSync|mkdir|mkdirSync|mkdtemp|mkdtempSync|rmdir|rmdirSync|rm|rmSync|chmod|chmodSync|lchmod|chown|chownSync|lchown|copyFile|copyFileSync|cp|cpSync|utimes|utimesSync|lutimes|truncate|truncateSync|createWriteStream';
/** `fs.rename(`, `fsp.unlink(`, `fs.promises.mkdir(`, `promises.rm(` … (any name bound to node:fs). */
const CALL = new RegExp(`\\b(?:fs|fsp|promises|fsPromises)\\.(?:promises\\.)?(${WRITES})\\s*\\(`, 'g');
/** `import { writeFile } from 'node:fs/promises'` and the like. */
const NAMED = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"](?:node:)?fs(?:/promises)?['"]`, 'g');
/** An open whose flags write: 'w', 'a', 'r+', 'wx' … or O_WRONLY / O_RDWR / O_CREAT / O_APPEND / O_TRUNC. */
const OPEN = /\b(?:fs|fsp|promises)\.(?:promises\.)?open(?:Sync)?\s*\(([^;]*)/g;
const WRITE_FLAGS = /['"](?:[wa]x?\+?|r\+|rs\+)['"]|O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC|APPEND_FLAGS/;

/** Each file-system write of `text`, as "line: call". */
export function writesIn(text: string): string[] {
  const found: string[] = [];
  const lineOf = (i: number) => text.slice(0, i).split('\n').length;
  for (const m of text.matchAll(CALL)) found.push(`${lineOf(m.index!)}: ${m[1]}(`);
  for (const m of text.matchAll(NAMED)) {
    const names = m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]);
    for (const n of names) if (new RegExp(`^(?:${WRITES})$`).test(n)) found.push(`${lineOf(m.index!)}: import { ${n} }`);
  }
  for (const m of text.matchAll(OPEN)) if (WRITE_FLAGS.test(m[1])) found.push(`${lineOf(m.index!)}: open(${m[1].slice(0, 60)}`);
  return found;
}

describe('store writes go through the anchored primitive (repair/write/anchor.ts)', () => {
  it('no engine file outside the primitive writes by path itself', () => {
    const offenders: string[] = [];
    for (const f of sourceFiles(ENGINE)) {
      const rel = path.relative(ENGINE, f).split(path.sep).join('/');
      if (PRIMITIVE.has(rel) || rel in NOT_A_STORE) continue;
      for (const w of writesIn(readFileSync(f, 'utf8'))) offenders.push(`electron/engine/${rel}:${w}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the listed exceptions still exist and still write (the list stays exact)', () => {
    for (const rel of Object.keys(NOT_A_STORE)) expect(writesIn(readFileSync(path.join(ENGINE, rel), 'utf8')).length, rel).toBeGreaterThan(0);
  });

  it('the check sees each kind of write', () => {
    expect(writesIn(`await fsp.rename(a, b);`)).toEqual(['1: rename(']);
    expect(writesIn(`fs.promises.mkdir(d)`)).toEqual(['1: mkdir(']);
    expect(writesIn(`import { writeFile as w, stat } from 'node:fs/promises';`)).toEqual(['1: import { writeFile }']);
    expect(writesIn(`const fh = await fsp.open(p, fsc.O_WRONLY | fsc.O_CREAT);`)).toHaveLength(1);
    expect(writesIn(`const fh = await fsp.open(p, 'r');`)).toEqual([]);
    expect(writesIn(`fs.unlinkSync(p); fs.createWriteStream(p)`)).toEqual(['1: unlinkSync(', '1: createWriteStream(']);
  });
});
