/**
 * The CLI reaches the engine through `electron/engine/index.ts` only (createEngine, dispatchRequest
 * and the few door helpers it declares), as docs/DESIGN.md says. The guard door is the exception
 * while its state machine moves into the engine (issue 19, the guard-engine branch): its files are
 * listed here and leave the list when they stop reaching in; nothing may be added.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'electron/cli');
const ENGINE = path.join(ROOT, 'electron/engine');
const GUARD_DOOR_MOVING = ['electron/cli/guard/', 'electron/cli/commands/guard.ts'];

const SPEC = /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

function engineImports(): { file: string; target: string }[] {
  const out: { file: string; target: string }[] = [];
  for (const f of sourceFiles(CLI)) {
    for (const m of readFileSync(f, 'utf8').matchAll(SPEC)) {
      const target = path.relative(ENGINE, path.resolve(path.dirname(f), m[1] ?? m[2]));
      if (target.startsWith('..') || path.isAbsolute(target)) continue;
      out.push({ file: path.relative(ROOT, f), target: target || 'index' });
    }
  }
  return out;
}

describe('the CLI door', () => {
  it('imports the engine through its index (cli/session.ts does)', () => {
    expect(engineImports()).toContainEqual({ file: 'electron/cli/session.ts', target: 'index' });
  });

  it('imports nothing else of the engine, outside the guard door being moved', () => {
    const bad = engineImports()
      .filter((i) => i.target !== 'index' && i.target !== 'index.ts')
      .filter((i) => !GUARD_DOOR_MOVING.some((g) => i.file.startsWith(g)))
      .map((i) => `${i.file} -> engine/${i.target}`);
    expect(bad).toEqual([]);
  });
});
