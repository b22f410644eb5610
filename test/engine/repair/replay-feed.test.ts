import { describe, expect, it } from 'vitest';
import { drainPool, Feed } from '../../../electron/engine/repair/bucket/replay-prepare';

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('Feed (the prepared chunks handed to the upload pool)', () => {
  it('below(n) waits until the takers have left at most n items; close lets a waiting producer go', async () => {
    const feed = new Feed<number>();
    feed.push(1, 2, 3, 4);
    let room = false;
    const waiting = feed.below(2).then(() => (room = true));
    await turn();
    expect(room).toBe(false);
    expect(await feed.take()).toBe(1);
    await turn();
    expect(room).toBe(false); // 3 left
    expect(await feed.take()).toBe(2);
    await waiting; // 2 left
    expect(room).toBe(true);
    let released = false;
    const stuck = feed.below(0).then(() => (released = true));
    await turn();
    expect(released).toBe(false);
    feed.close();
    await stuck;
    expect(await feed.take()).toBe(3); // what was queued is still taken after close
    expect(await feed.take()).toBe(4);
    expect(await feed.take()).toBeUndefined();
  });

  it('a producer that reads ahead by a bound never holds more than the bound plus one batch', async () => {
    const feed = new Feed<number>();
    let most = 0;
    const producer = (async () => {
      for (let b = 0; b < 20; b++) {
        await feed.below(8);
        feed.push(...Array.from({ length: 5 }, (_, i) => b * 5 + i));
      }
      feed.close();
    })();
    const seen: number[] = [];
    await drainPool(feed, 3, async (n) => {
      most = Math.max(most, (feed as unknown as { items: number[] }).items.length);
      seen.push(n);
      await turn();
    });
    await producer;
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(most).toBeLessThanOrEqual(8 + 5);
  });
});
