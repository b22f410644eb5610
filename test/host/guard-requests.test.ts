/**
 * guard.start / guard.status / guard.stop through the loopback host (the same dispatch as Electron
 * IPC and the CLI): validated like every request, refused where a guard cannot run, and a guard
 * started on an opened live store restores `sequence/` after a graceful-stop deletion.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine';
import { startHost, type RunningHost } from '../../electron/host';
import { crashFixtureConfig, until } from '../support/wait';
import { api, extractFixture, fakeRenderer, tempDir } from './helpers';

let host: RunningHost;
let stateDir: string;

beforeAll(async () => {
  stateDir = tempDir('sd-state-');
  // the live watch on, as in the app: the deletion being restored is a change the session has not scanned
  const engine = createEngine({ door: 'host', stateDir, watch: true });
  host = await startHost({ engine, rendererDir: fakeRenderer() });
});
afterAll(async () => {
  await host.close();
  await host.engine.dispose();
});

const call = async (name: string, input: unknown) => (await api(host.port, host.token, name, input)).json();
const seqFile = (root: string) => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');

describe('loopback host: the guard requests', () => {
  it('validates its input like every request: unknown fields, a missing or unknown store', async () => {
    expect((await call('guard.start', { storeId: 'x', stateDir: '/tmp' })).error.code).toBe('invalid-input');
    expect((await call('guard.status', {})).error.code).toBe('invalid-input');
    expect((await call('guard.start', { storeId: 'nope' })).error.code).toBe('not-found');
  });

  it('refuses to guard a store without its config; then guards it and restores sequence/ after a graceful-stop deletion', async () => {
    const storeDir = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const root = path.join(storeDir, 'fb-crash');
    const opened = (await call('store.open', { path: storeDir })).value;
    const storeId = opened.storeId as string;
    expect((await call('guard.status', { storeId })).value).toMatchObject({ running: false, state: 'off', roots: [] });
    const refused = await call('guard.start', { storeId });
    expect(refused.error).toMatchObject({ code: 'refused', message: expect.stringMatching(/load the Fluent Bit config first/) });
    expect((await call('config.load', { storeId, path: crashFixtureConfig(storeDir, path.join(tempDir('sd-conf-'), 'fb.conf')) })).ok).toBe(true);

    const started = (await call('guard.start', { storeId })).value;
    expect(started).toMatchObject({ running: true, state: 'watching', restores: 0 });
    expect(started.stateDir.startsWith(path.join(stateDir, 'guard') + path.sep)).toBe(true);
    // no process uses the root: the value on disk is kept, final
    expect(started.roots).toEqual([
      {
        bucket: 'fb-crash',
        rootPath: root,
        phase: 'watching',
        problem: null,
        outputs: [{ id: 0, displayName: expect.any(String), kept: 6, final: true, restores: 0 }],
        lastRestoreAt: null,
      },
    ]);
    // starting again is the same guard
    expect((await call('guard.start', { storeId })).value.startedAt).toBe(started.startedAt);

    rmSync(path.join(root, 'sequence'), { recursive: true }); // as Fluent Bit's graceful stop does
    const after = await until('the restore', async () => {
      const s = (await call('guard.status', { storeId })).value;
      return s.restores === 1 && s.state === 'watching' ? s : null;
    });
    expect(readFileSync(seqFile(root), 'latin1')).toBe('6');
    expect(after.roots[0].outputs[0]).toMatchObject({ kept: 6, final: true, restores: 1 });
    expect(after.messages.some((m: string) => /restored seq_index_0 of fb-crash/.test(m))).toBe(true);
    // the restore is a repair: journalled in the store
    expect(existsSync(path.join(root, '.store-doctor', 'journal.jsonl'))).toBe(true);

    const stopped = (await call('guard.stop', { storeId })).value;
    expect(stopped).toMatchObject({ running: false, restores: 1 });
    expect((await call('guard.status', { storeId })).value.state).toBe('off');
  });

  it('a store closed stops its guard', async () => {
    const storeDir = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const storeId = (await call('store.open', { path: storeDir })).value.storeId as string;
    await call('config.load', { storeId, path: crashFixtureConfig(storeDir, path.join(tempDir('sd-conf-'), 'fb.conf')) });
    expect((await call('guard.start', { storeId })).value.running).toBe(true);
    expect((await call('store.close', { storeId })).value).toEqual({ closed: true });
    expect((await call('guard.status', { storeId })).error.code).toBe('not-found');
  });
});
