import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openJournalAppender, toolDir } from '../../../electron/engine/repair/journal/journal';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('openJournalAppender', () => {
  it('appends made while a write is under way share the next write: every line once, in call order, written when its call resolves', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sd-appender-'));
    const file = path.join(toolDir(dir), 'test.jsonl');
    const jw = await openJournalAppender(file);
    const read = () =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { n: number }).n);
    const seen: number[][] = [];
    const calls = Array.from({ length: 50 }, (_, n) =>
      jw.append([{ n }], { sync: n % 10 === 0 }).then(() => {
        const lines = read();
        seen.push(lines);
        expect(lines).toContain(n);
      }),
    );
    await Promise.all(calls);
    await jw.append([{ n: 50 }, { n: 51 }]);
    await jw.append([]);
    await jw.close();
    expect(read()).toEqual(Array.from({ length: 52 }, (_, n) => n));
    // grouped: fewer writes than calls (the first write goes alone, the rest join groups)
    expect(new Set(seen.map((s) => s.length)).size).toBeLessThan(50);
  });
});
