import { describe, expect, it } from 'vitest';
import { diffSnapshots, type TreeSnapshot } from '../../../electron/engine/repair/preconditions/write-check';

/** The rule as written: a path is ignored when it is an expected path, one of its folders, or inside one. */
function reference(before: TreeSnapshot, after: TreeSnapshot, expected: string[]): string[] {
  const ignore = (p: string) => expected.some((e) => e === p || e.startsWith(p + '/') || p.startsWith(e + '/'));
  const changed: string[] = [];
  for (const [p, v] of before) if (after.get(p) !== v && !ignore(p)) changed.push(p);
  for (const p of after.keys()) if (!before.has(p) && !ignore(p)) changed.push(p);
  return changed;
}

describe('diffSnapshots', () => {
  it('names exactly the changed paths outside the expected ones, their folders and what is inside them (generated trees)', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const names = ['a', 'b', 'ab', 'a.flb', 'b.flb', 'c'];
    const randomPath = () => Array.from({ length: 1 + rnd(4) }, () => names[rnd(names.length)]).join('/');
    let differences = 0;
    for (let trial = 0; trial < 300; trial++) {
      const before: TreeSnapshot = new Map();
      const after: TreeSnapshot = new Map();
      for (let i = 0; i < 30; i++) {
        const p = randomPath();
        const v = `f:${rnd(3)}:1`;
        if (rnd(4)) before.set(p, v);
        if (rnd(4)) after.set(p, rnd(3) ? v : `f:9:2`);
      }
      const expected = Array.from({ length: rnd(6) }, randomPath);
      const want = reference(before, after, expected);
      expect(diffSnapshots(before, after, expected)).toEqual(want);
      differences += want.length;
    }
    expect(differences).toBeGreaterThan(20); // the cases do change things
  });

  it('a path that only shares a name prefix with an expected one is not ignored', () => {
    const before: TreeSnapshot = new Map([
      ['s', 'd:0:1'],
      ['s/a.flb', 'f:1:1'],
      ['s/a.flb2', 'f:1:1'],
      ['s2', 'd:0:1'],
    ]);
    const after: TreeSnapshot = new Map([['s', 'd:0:2']]);
    expect(diffSnapshots(before, after, ['s/a.flb'])).toEqual(['s/a.flb2', 's2']);
  });
});
