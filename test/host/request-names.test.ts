/**
 * The loopback host serves every contract request, including the ones whose namespace is camel-cased
 * (`storagePath.*`): a name the pattern missed was answered 404 "no such request", so the app in a
 * browser could not show a storage.path. A name outside the contract is still refused.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine';
import { startHost, type RunningHost } from '../../electron/host';
import { api, fakeRenderer, tempDir } from './helpers';

let host: RunningHost;

beforeAll(async () => {
  const engine = createEngine({ door: 'host', stateDir: tempDir('sd-state-'), watch: false });
  host = await startHost({ engine, rendererDir: fakeRenderer() });
});
afterAll(async () => {
  await host.close();
  await host.engine.dispose();
});

describe('loopback host: request names', () => {
  it('answers storagePath.open on a real storage.path, and refuses unknown names', async () => {
    const dir = tempDir('sd-host-sp-');
    execFileSync('tar', ['-xzf', path.resolve(__dirname, '../fixtures/storage-path/v5.1.1/kill-checksum-on/store.tar.gz'), '-C', dir]);
    const r = await api(host.port, host.token, 'storagePath.open', { path: path.join(dir, 'store') });
    expect(r.status, r.text).toBe(200);
    expect(r.json().value).toMatchObject({ kind: 'storage-path', totals: { chunks: 2 } });
    expect((await api(host.port, host.token, 'storagePath.nothing', {})).json().ok).toBe(false);
  });
});
