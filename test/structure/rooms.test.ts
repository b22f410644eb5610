/**
 * Issue 19 item 2: `electron/engine/repair/` is a house of rooms. Each room is a folder with an
 * `index.ts`, its only entry: a source file outside a room (another room, the rest of the engine,
 * the doors) imports the room's `index.ts`, never one of its other files — `import type` too. The
 * files directly in `repair/` are the orchestration room (planning, apply), whose entry is
 * `repair/index.ts`. Rooms are layered: each may import only the rooms listed below it here, so a
 * new dependency between rooms is a deliberate change of this list. Tests may open a room's
 * files (they test its insides); the rule holds for electron/, shared/ and renderer/src/.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

const ROOT = path.resolve(__dirname, '../..');
const REPAIR = path.join(ROOT, 'electron/engine/repair');
const DIRS = ['electron', 'shared', 'renderer/src'];

/** Each room and the rooms it may import ('' is the orchestration room, repair/ itself). */
const ROOMS: Record<string, string[]> = {
  outcome: [],
  write: ['outcome'],
  journal: ['outcome', 'write'],
  preconditions: ['outcome', 'write', 'journal'],
  shadow: ['outcome', 'write'],
  'index-actions': ['outcome', 'write', 'journal', 'preconditions', 'shadow'],
  undo: ['outcome', 'write', 'journal', 'preconditions', 'shadow', 'index-actions'],
  bucket: ['outcome', 'write', 'journal', 'preconditions', 'index-actions'],
  salvage: ['outcome', 'write', 'journal', 'preconditions'],
  actions: ['outcome', 'write', 'journal', 'preconditions', 'shadow', 'index-actions', 'undo', 'bucket', 'salvage'],
  '': ['outcome', 'write', 'journal', 'preconditions', 'shadow', 'index-actions', 'undo', 'bucket', 'salvage', 'actions'],
};

/** Every import or re-export specifier of `text`, type-only ones included, with dynamic imports. */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  return out;
}

function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [`${base}.ts`, `${base}.tsx`, base, path.join(base, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** The room of a file under repair/ ('' for repair/ itself), null outside it. */
export function roomOf(file: string, repair = REPAIR): string | null {
  const rel = path.relative(repair, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : '';
}

/** The rule for one import edge: null when allowed, else why not. */
export function edgeProblem(from: string, to: string, repair = REPAIR, rooms = ROOMS): string | null {
  const rt = roomOf(to, repair);
  if (rt === null) return null;
  const rf = roomOf(from, repair);
  if (rf === rt) return null;
  const entry = rt === '' ? path.join(repair, 'index.ts') : path.join(repair, rt, 'index.ts');
  if (to !== entry) return `imports ${path.relative(repair, to)}, not the room's entry ${path.relative(repair, entry)}`;
  if (rf !== null && !(rooms[rf] ?? []).includes(rt)) return `room ${rf || '(orchestration)'} may not import room ${rt || '(orchestration)'}`;
  return null;
}

describe('repair/ is rooms, each entered only through its index.ts', () => {
  it('every folder of repair/ is a listed room with an index.ts, and every listed room exists', () => {
    const folders = readdirSync(REPAIR).filter((n) => statSync(path.join(REPAIR, n)).isDirectory());
    expect(folders.sort()).toEqual(Object.keys(ROOMS).filter(Boolean).sort());
    for (const f of folders) expect(existsSync(path.join(REPAIR, f, 'index.ts')), `${f}/index.ts`).toBe(true);
    for (const f of folders)
      expect(
        readdirSync(path.join(REPAIR, f)).filter((n) => statSync(path.join(REPAIR, f, n)).isDirectory()),
        f,
      ).toEqual([]);
  });

  it('no source file enters a room except through its index.ts, and rooms import only the rooms below them', () => {
    const bad: string[] = [];
    for (const f of DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d)))) {
      for (const spec of specifiers(readFileSync(f, 'utf8'))) {
        const to = resolve(f, spec);
        const problem = to && edgeProblem(f, to);
        if (problem) bad.push(`${path.relative(ROOT, f)} → '${spec}': ${problem}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the rule sees each kind of violation', () => {
    const r = '/x/repair';
    expect(edgeProblem('/x/session/a.ts', '/x/repair/write/atomic.ts', r)).toMatch(/not the room's entry write\/index.ts/);
    expect(edgeProblem('/x/session/a.ts', '/x/repair/write/index.ts', r)).toBeNull();
    expect(edgeProblem('/x/session/a.ts', '/x/repair/apply.ts', r)).toMatch(/not the room's entry index.ts/);
    expect(edgeProblem('/x/repair/write/a.ts', '/x/repair/write/b.ts', r)).toBeNull();
    expect(edgeProblem('/x/repair/write/a.ts', '/x/repair/journal/index.ts', r)).toMatch(/room write may not import room journal/);
    expect(edgeProblem('/x/repair/write/a.ts', '/x/repair/index.ts', r)).toMatch(/may not import room \(orchestration\)/);
    expect(edgeProblem('/x/repair/apply.ts', '/x/repair/bucket/replay-run.ts', r)).toMatch(/not the room's entry/);
    expect(specifiers(`import type { A } from './a';\nexport { b } from "../b";\nconst c = await import('./c');`)).toEqual(['./a', '../b', './c']);
  });
});
