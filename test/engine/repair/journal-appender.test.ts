import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, promises as fsp, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openJournalAppender, toolDir } from '../../../electron/engine/repair/journal/journal';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('openJournalAppender', () => {
  it('every line once, in call order, written when its call resolves', async () => {
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
    expect(seen).toHaveLength(50);
  });

  it('a write is never held back by an fsync under way; a synced append waits for an fsync that started after its write', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sd-appender-'));
    const file = path.join(toolDir(dir), 'test.jsonl');
    const jw = await openJournalAppender(file);
    // every fsync of a FileHandle from here on waits until the test lets it go
    const proto = Object.getPrototypeOf(await fsp.open(file, 'r').then(async (h) => (await h.close(), h))) as { sync: () => Promise<void> };
    const realSync = proto.sync;
    const pending: (() => void)[] = [];
    let started = 0;
    proto.sync = function (this: unknown) {
      started++;
      return new Promise<void>((resolve) => pending.push(resolve)).then(() => realSync.call(this));
    };
    try {
      const events: string[] = [];
      const first = jw.append([{ n: 0 }]).then(() => events.push('synced 0'));
      await vi.waitFor(() => expect(started).toBe(1)); // the write of 0 is done, its fsync under way
      await jw.append([{ n: 1 }], { sync: false }); // resolves while that fsync still runs
      expect(readFileSync(file, 'utf8')).toContain('"n":1');
      const second = jw.append([{ n: 2 }]).then(() => events.push('synced 2'));
      await new Promise((r) => setImmediate(r));
      expect(started).toBe(1); // 2's fsync starts only after the one under way, which may predate its write
      pending.shift()!();
      await first;
      await vi.waitFor(() => expect(started).toBe(2));
      expect(events).toEqual(['synced 0']);
      pending.shift()!();
      await second;
      expect(events).toEqual(['synced 0', 'synced 2']);
    } finally {
      proto.sync = realSync;
      for (const p of pending) p();
    }
    await jw.close();
  });
});
