/**
 * Salvage of chosen chunks (`storagePath.salvagePlan` with `chunks`, what the app's Chunks view
 * asks for one chunk) through both app doors — the loopback host over HTTP and the Electron IPC
 * binding — onto the one session planner the CLI uses: on a real storage.path (Fluent Bit 5.1.1
 * killed with storage.checksum on; record counts from measurements.json) and on a store_dir bucket
 * root with two chunks the S3 output rejects; only the named chunk is planned, written and undone.
 * Also `store.storage` of a store whose config sets a storage.path: its backlog per input.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- tests read untyped JSON replies */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine';
import { encodeChunk } from '../../electron/engine/chunk';
import { startHost, type RunningHost } from '../../electron/host';
import { bindIpc, type IpcInvokeEventLike } from '../../electron/main/ipc';
import { IPC_REQUEST } from '../../electron/main/channels';
import { rendererLocation } from '../../electron/main/policy';
import type { Engine } from '../../shared/contract';
import { api, fakeRenderer, FIXTURES, tempDir } from './helpers';
import { measuredRun, STORAGE_PATH_FIXTURES } from '../support/storage-path-measured';

const SP = STORAGE_PATH_FIXTURES;
const KIND = path.join(SP, 'v5.1.1', 'kill-checksum-on');
const measured = measuredRun('5.1.1', 'kill-checksum-on');
const [first, second] = measured['checksum-on'].formatCheckFailed;
const recordsOf = (chunk: string) => measured.chunks.find((c) => c.chunk === chunk)!.records;

type Call = (name: string, input: unknown) => Promise<any>;

let host: RunningHost;
let ipcEngine: Engine;
let unbind: () => void;
const doors: Record<string, Call> = {};

beforeAll(async () => {
  host = await startHost({ engine: createEngine({ door: 'host', stateDir: tempDir('sd-state-'), watch: false }), rendererDir: fakeRenderer() });
  doors.host = async (name, input) => (await api(host.port, host.token, name, input)).json();
  ipcEngine = createEngine({ door: 'electron', demoDir: tempDir('sd-no-demo-'), stateDir: tempDir('sd-ipc-'), watch: false });
  const handlers = new Map<string, (e: IpcInvokeEventLike, ...a: unknown[]) => unknown>();
  unbind = bindIpc({
    ipcMain: { handle: (c, l) => void handlers.set(c, l), removeHandler: (c) => void handlers.delete(c) },
    engine: ipcEngine,
    renderer: rendererLocation(path.resolve('/opt/store-doctor/out/main'), {}),
    pickPath: async () => null,
  });
  const trusted: IpcInvokeEventLike = { senderFrame: { url: 'app://renderer/index.html', parent: null } };
  doors.ipc = async (name, input) => handlers.get(IPC_REQUEST)!(trusted, name, input);
});
afterAll(async () => {
  unbind();
  await ipcEngine.dispose();
  await host.close();
  await host.engine.dispose();
});

const value = async (p: Promise<any>) => {
  const r = await p;
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe.each(['host', 'ipc'])('salvage of one chunk through the %s door', (door) => {
  it('a storage.path: only the named chunk is planned, salvaged (CRC valid after) and undone', async () => {
    const call = doors[door];
    const dir = tempDir('sd-salvage-chunks-');
    execFileSync('tar', ['-xzf', path.join(KIND, 'store.tar.gz'), '-C', dir]);
    const store = path.join(dir, 'store');
    const crcOf = async () =>
      Object.fromEntries(((await value(call('storagePath.open', { path: store }))).streams as any[]).flatMap((s) => s.chunks.map((c: any) => [c.path, c.crc])));
    expect(await crcOf()).toEqual({ [first]: 'invalid', [second]: 'invalid' });
    const plan = await value(call('storagePath.salvagePlan', { path: store, chunks: [path.join(store, first)] }));
    expect(plan.steps.map((s: any) => s.target)).toEqual([path.join(store, first)]);
    expect(plan.details.chunks.map((c: any) => c.records)).toEqual([recordsOf(first)]);
    expect(plan.confirm).toBe('store');
    const result = await value(call('storagePath.salvageApply', { path: store, planId: plan.planId, confirm: 'store' }));
    expect(result).toMatchObject({ action: 'salvage', applied: true, verified: true });
    expect(await crcOf()).toEqual({ [first]: 'valid', [second]: 'invalid' });
    const undo = await value(call('storagePath.undoPlan', { path: store }));
    expect(undo.steps.map((s: any) => s.target)).toEqual([path.join(store, first)]);
    expect(await value(call('storagePath.salvageApply', { path: store, planId: undo.planId, confirm: undo.confirm }))).toMatchObject({
      action: 'undo',
      applied: true,
    });
    expect(await crcOf()).toEqual({ [first]: 'invalid', [second]: 'invalid' });
  });

  it('storagePath.records: the events of a chunk decoded, paged, confined to the opened storage.path', async () => {
    const call = doors[door];
    const dir = tempDir('sd-records-');
    execFileSync('tar', ['-xzf', path.join(KIND, 'store.tar.gz'), '-C', dir]);
    const store = path.join(dir, 'store');
    const refused = await call('storagePath.records', { path: store, chunkPath: first, offset: 0, limit: 10 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } }); // not opened yet
    await value(call('storagePath.open', { path: store }));
    const n = recordsOf(first);
    const page = await value(call('storagePath.records', { path: store, chunkPath: first, offset: 0, limit: 10 }));
    expect(page).toMatchObject({ chunkPath: first, offset: 0, total: n, nextOffset: 10 });
    expect(page.records).toHaveLength(10);
    for (const r of page.records) expect(r).toEqual({ date: expect.any(Number), record: { msg: 'app.a', n: 1 } });
    const last = await value(call('storagePath.records', { path: store, chunkPath: first, offset: n - 1, limit: 10 }));
    expect(last).toMatchObject({ total: n, nextOffset: null, records: [{ record: { msg: 'app.a', n: 1 } }] });
    const escape = await call('storagePath.records', { path: store, chunkPath: '../../etc/passwd', offset: 0, limit: 1 });
    expect(escape.ok).toBe(false);
    const notChunk = await call('storagePath.records', { path: store, chunkPath: 'dummy.0/nothing.flb', offset: 0, limit: 1 });
    expect(notChunk).toMatchObject({ ok: false, error: { message: expect.stringContaining('nothing.flb') } });
  });

  it('a store_dir bucket root: only the named rejected chunk is planned', async () => {
    const call = doors[door];
    const root = path.join(tempDir('sd-salvage-chunks-store-'), 'bucket');
    const stream = path.join(root, '2026-12-06T02:00:00');
    fs.mkdirSync(stream, { recursive: true });
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `{"n":${i}}\n`).join('');
    for (const [name, n] of [
      ['1000-1', 4],
      ['1000-2', 3],
    ] as const) {
      const bad = encodeChunk({ meta: 'app.a', content: lines(n), crc: false });
      bad[0] = 0; // wrong magic: the S3 output rejects it at start
      fs.writeFileSync(path.join(stream, name), bad);
    }
    const { storeId } = await value(call('store.open', { path: root, records: false }));
    const all = await value(call('storagePath.salvagePlan', { path: root }));
    expect(all.steps).toHaveLength(2);
    const one = await value(call('storagePath.salvagePlan', { path: root, chunks: [path.join(stream, '1000-2')] }));
    expect(one.steps.map((s: any) => s.target)).toEqual([path.join(stream, '1000-2')]);
    expect(one.details).toMatchObject({ layout: 'store-dir', chunks: [{ records: 3, cutBytes: 0 }] });
    // Applied with the store open: the result carries the chunk read back, and the session's report has it (no rescan):
    // the storage summary (made from the report) counts it in the backlog Fluent Bit uploads.
    const backlog = async () => {
      const st = await value(call('store.storage', { storeId }));
      return st.backlog.reduce((n: number, b: any) => n + b.chunks, 0) + st.backlogUnknownAge.chunks;
    };
    expect(await backlog()).toBe(0);
    const applied = await value(call('storagePath.salvageApply', { path: root, planId: one.planId, confirm: 'bucket' }));
    expect(applied).toMatchObject({ applied: true, verified: true });
    expect(applied.storeUpdate).toHaveLength(1);
    const inspect = async (name: string) =>
      (await value(call('chunk.inspect', { storeId, rootPath: root, chunkPath: `${path.basename(stream)}/${name}` }))).chunk;
    expect(await inspect('1000-2')).toMatchObject({ status: 'ok', records: 3 });
    expect((await inspect('1000-1')).status).toBe('bad-magic');
    expect(await backlog()).toBe(1);
    const none = await value(call('storagePath.salvagePlan', { path: root, chunks: [path.join(stream, 'nothing')] }));
    expect(none.steps).toEqual([]);
    expect(none.summary).toMatch(/no chunk of those named/);
  });

  it("a store_dir opened through a symbolic link: the salvage is still the open store's own write", async () => {
    const call = doors[door];
    const root = path.join(tempDir('sd-salvage-chunks-link-'), 'bucket');
    const stream = path.join(root, '2026-12-06T02:00:00');
    fs.mkdirSync(stream, { recursive: true });
    const bad = encodeChunk({ meta: 'app.a', content: '{"n":0}\n{"n":1}\n', crc: false });
    bad[0] = 0; // wrong magic: the S3 output rejects it at start
    fs.writeFileSync(path.join(stream, '1000-1'), bad);
    const link = `${root}-link`;
    fs.symlinkSync(root, link);
    await value(call('store.open', { path: link, records: false }));
    const plan = await value(call('storagePath.salvagePlan', { path: link }));
    expect(plan.steps).toHaveLength(1);
    const applied = await value(call('storagePath.salvageApply', { path: link, planId: plan.planId, confirm: plan.confirm }));
    expect(applied).toMatchObject({ applied: true, verified: true });
    expect(applied.storeUpdate).toHaveLength(1); // read back into the store opened through the link
  });
});

describe('store.storage of a store whose config sets a storage.path', () => {
  it('carries the backlog per input and the chunks Fluent Bit will reject', async () => {
    const dir = tempDir('sd-storage-sp-');
    execFileSync('tar', ['-xzf', path.join(KIND, 'store.tar.gz'), '-C', dir]);
    const store = path.join(dir, 'store');
    const scen = path.join(FIXTURES, 'index-reset');
    const conf = path.join(dir, 'fluent-bit.conf');
    fs.writeFileSync(
      conf,
      fs.readFileSync(path.join(scen, 'fluent-bit.conf'), 'utf8').replace('[SERVICE]', `[SERVICE]\n    storage.path ${store}\n    storage.checksum on`),
    );
    const opened = await value(doors.host('store.open', { path: path.join(scen, 'store-during-run2.tar.gz') }));
    const plain = await value(doors.host('store.storage', { storeId: opened.storeId }));
    expect(plain.storagePath).toBeUndefined();
    await value(doors.host('config.load', { storeId: opened.storeId, path: conf }));
    const summary = await value(doors.host('store.storage', { storeId: opened.storeId }));
    expect(summary.storagePath).toMatchObject({ path: store, checksum: true, error: null });
    expect(summary.storagePath.inputs.map((i: any) => [i.input, i.chunks, i.records, i.rejected, i.rejectedRecords])).toEqual([
      ['dummy.0', 1, recordsOf(first), 1, recordsOf(first)],
      ['dummy.1', 1, recordsOf(second), 1, recordsOf(second)],
    ]);
  });
});
