/**
 * `startHost({ openPath, openInBackground })` (what `serve <path>` uses): the URL is handed out
 * before the store is open, and API requests made meanwhile wait for it, so the page sees the
 * store as opened; a store that cannot be opened rejects `opened` and requests still answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../electron/host';
import { api, extractFixture, fakeRenderer, tempDir } from './helpers';

let host: RunningHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

describe('loopback host: opening the first store in the background', () => {
  it('hands out the URL at once; a request made meanwhile sees the store opened', async () => {
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    host = await startHost({ rendererDir: fakeRenderer(), stateDir: tempDir('sd-state-'), openPath: store, openInBackground: true });
    expect(host.storeId).toBeNull();
    const listed = (await api(host.port, host.token, 'store.list', {})).json();
    expect(listed.ok).toBe(true);
    expect(listed.value.stores).toHaveLength(1);
    expect(listed.value.stores[0].report.source.path).toBe(store);
    expect(await host.opened).toBe(listed.value.stores[0].storeId);
  });

  it('a path that is not a store rejects `opened` with its error; requests still answer', async () => {
    const file = path.join(tempDir('sd-bg-'), 'notes.txt');
    fs.writeFileSync(file, 'not a store\n');
    host = await startHost({ rendererDir: fakeRenderer(), stateDir: tempDir('sd-state-'), openPath: file, openInBackground: true });
    await expect(host.opened).rejects.toThrow(`${file}: not a store`);
    const listed = (await api(host.port, host.token, 'store.list', {})).json();
    expect(listed).toEqual({ ok: true, value: { stores: [] } });
  });

  it('without openInBackground the store is open when startHost returns', async () => {
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    host = await startHost({ rendererDir: fakeRenderer(), stateDir: tempDir('sd-state-'), openPath: store });
    expect(host.storeId).toMatch(/.+/);
    expect(await host.opened).toBe(host.storeId);
  });
});
