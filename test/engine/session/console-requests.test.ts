/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * The requests the app's console views use: a writable demo copy (then a real repair, the
 * history of it, undo), where the data sits, the annotated chunk layout, adding offline evidence,
 * the plan's own writes and process check, and saved connections.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import type { Engine } from '../../../shared/contract';
import { FIXTURES, tempDir } from '../../support/fixtures';

const DEMO_DIR = path.resolve(__dirname, '..', '..', '..', 'demo');
const engines: Engine[] = [];
const cleanups: (() => void)[] = [];
function newEngine(stateDir?: string): Engine {
  const e = createEngine({ door: 'host', demoDir: DEMO_DIR, stateDir, watch: false });
  engines.push(e);
  return e;
}
afterAll(async () => {
  for (const e of engines) await e.dispose();
  for (const c of cleanups) c();
});

async function ok(e: Engine, name: string, input: unknown): Promise<any> {
  const r = await dispatchRequest(e, name, input);
  if (!r.ok) throw new Error(`${name} failed: ${JSON.stringify(r.error)}`);
  return r.value;
}

describe('store.openDemoCopy, history.list', () => {
  it('copies the demo into a temp folder, repairs it, lists the action in the history, undoes it, and removes the copy on close', async () => {
    const e = newEngine();
    const demo = await ok(e, 'store.openDemoCopy', {});
    expect(demo.copy.path.startsWith(fs.realpathSync(os.tmpdir())) || demo.copy.path.startsWith(os.tmpdir())).toBe(true);
    expect(path.basename(path.dirname(demo.copy.path))).toMatch(/^store-doctor-demo-/);
    expect(demo.copy.from).toBe(path.join(DEMO_DIR, 'store-during-run2.tar.gz'));
    expect(demo.report.source.kind).toBe('store_dir');
    expect(demo.config.outputs[0].s3.bucket).toBe('fb-index-reset');
    expect(demo.evidence.objects).toHaveLength(24);
    const root = demo.report.roots[0];
    const seqFile = path.join(root.path, 'sequence', 'index_metadata', 'seq_index_0');
    expect(fs.readFileSync(seqFile, 'utf8')).toBe('9');
    expect(await ok(e, 'history.list', { storeId: demo.storeId })).toEqual({ entries: [], journals: [], note: null });

    const plan = await ok(e, 'repair.plan', { storeId: demo.storeId, action: 'repair-index', outputId: 0 });
    expect(plan.refusals).toEqual([]);
    expect(plan.steps[0]).toMatchObject({ kind: 'write-file', before: '9', after: '12' });
    // Store Doctor's own writes are part of the plan, and so is the process check
    expect(plan.bookkeeping.map((s: any) => [s.kind, path.relative(root.path, s.target)])).toEqual([
      ['mkdir', '.store-doctor'],
      ['append-journal', '.store-doctor/journal.jsonl'],
      ['backup', '.store-doctor/backups/<action id>'],
    ]);
    expect(plan.bookkeeping[2].target.endsWith(path.sep)).toBe(true);
    expect(plan.bookkeeping[2].description).toContain('sequence/index_metadata/seq_index_0');
    expect(plan.processCheck).toMatchObject({ checked: true, processes: [] });
    expect(plan.processCheck.text).toMatch(
      /^No process uses this root: none of the \d+ processes in \/proc has a file or folder of it open or mapped, or its working directory there \(checked by device and inode\)\.$/,
    );

    const applied = await ok(e, 'repair.apply', { storeId: demo.storeId, planId: plan.planId, confirm: plan.confirm });
    expect(applied).toMatchObject({ applied: true, verified: true });
    expect(fs.readFileSync(seqFile, 'utf8')).toBe('12');
    const h1 = await ok(e, 'history.list', { storeId: demo.storeId });
    expect(h1.journals).toEqual([path.join(root.path, '.store-doctor', 'journal.jsonl')]);
    expect(h1.entries).toHaveLength(1);
    expect(h1.entries[0]).toMatchObject({
      id: applied.undoId,
      action: 'repair-index',
      rootPath: root.path,
      result: 'verified',
      uid: null,
      undo: { state: 'next', at: null },
      changes: 1,
    });
    expect(h1.entries[0].summary).toMatch(/12/);

    // putting 9 back is below the listed index 11 (issue 18): refused unless forced
    const refused = await ok(e, 'repair.plan', { storeId: demo.storeId, action: 'undo' });
    expect(refused.refusals.map((r: any) => r.forceable)).toEqual([true]);
    expect(refused.details.atRisk[0]).toMatchObject({ outputId: 0, restored: '9', highestIndex: 11 });
    const undo = await ok(e, 'repair.plan', { storeId: demo.storeId, action: 'undo', force: true });
    expect(undo.bookkeeping.map((s: any) => s.kind)).toEqual(['append-journal']);
    await ok(e, 'repair.apply', { storeId: demo.storeId, planId: undo.planId, confirm: undo.confirm });
    expect(fs.readFileSync(seqFile, 'utf8')).toBe('9');
    const h2 = await ok(e, 'history.list', { storeId: demo.storeId });
    expect(h2.entries[0].undo).toMatchObject({ state: 'undone', at: expect.any(String) });

    await ok(e, 'store.close', { storeId: demo.storeId });
    expect(fs.existsSync(path.dirname(demo.copy.path))).toBe(false);
  });

  it('an archive has no history to read, and says why', async () => {
    const e = newEngine();
    const demo = await ok(e, 'store.openDemo', {});
    const h = await ok(e, 'history.list', { storeId: demo.storeId });
    expect(h.entries).toEqual([]);
    expect(h.note).toMatch(/archive is read-only/);
    // and a plan on it has no own writes and no process check: it is refused
    const plan = await ok(e, 'repair.plan', { storeId: demo.storeId, action: 'repair-index', outputId: 0 });
    expect(plan.refusals[0].forceable).toBe(false);
    expect(plan.bookkeeping).toEqual([]);
    expect(plan.processCheck).toBeUndefined();
  });
});

describe('store.storage', () => {
  it('sums bytes on disk and records by stream kind and tag, and the backlog by age at the scan time', async () => {
    const e = newEngine();
    const demo = await ok(e, 'store.openDemo', {});
    const chunks = demo.report.roots[0].streams.flatMap((s: any) => s.chunks.map((c: any) => ({ ...c, kind: s.kind })));
    const st = await ok(e, 'store.storage', { storeId: demo.storeId });
    expect(st.at).toBe(demo.report.scannedAt);
    const data = chunks.filter((c: any) => c.kind === 'data');
    expect(st.byKind.find((k: any) => k.kind === 'data')).toEqual({
      kind: 'data',
      chunks: data.length,
      bytes: data.reduce((a: number, c: any) => a + c.fileSize, 0),
      records: data.reduce((a: number, c: any) => a + c.records, 0),
    });
    expect(st.byTag.reduce((a: number, t: any) => a + t.chunks, 0)).toBe(data.length);
    expect(st.backlog.map((b: any) => b.label)).toEqual(['under 1 hour', '1–6 hours', '6–24 hours', '1–7 days', 'over 7 days']);
    expect(st.backlog.reduce((a: number, b: any) => a + b.chunks, 0) + st.backlogUnknownAge.chunks).toBe(data.length);
    expect(st.recordsKnown).toBe(true);
  });
});

describe('chunk.inspect layout', () => {
  it('annotates magic, CRC, lengths and the tag of a real chunk', async () => {
    const e = newEngine();
    const demo = await ok(e, 'store.openDemo', {});
    const root = demo.report.roots[0];
    const c = root.streams.find((s: any) => s.kind === 'data').chunks[0];
    const r = await ok(e, 'chunk.inspect', { storeId: demo.storeId, rootPath: root.path, chunkPath: c.path });
    const byName = Object.fromEntries(r.layout.map((f: any) => [f.name, f]));
    expect(byName.magic).toMatchObject({ offset: 0, length: 2, hex: 'c100', value: 'C1 00', ok: true });
    expect(byName['CRC-32']).toMatchObject({ offset: 2, length: 4, ok: true });
    expect(byName['content length L']).toMatchObject({ offset: 10, length: 4, value: `${c.contentLengthField} bytes` });
    expect(byName['metadata length M']).toMatchObject({ offset: 22, value: `${c.metaLength} bytes` });
    expect(byName.metadata).toMatchObject({ offset: 24, length: c.metaLength, value: c.tag, hex: Buffer.from(c.tag).toString('hex') });
    expect(byName.content).toMatchObject({ offset: 24 + c.metaLength, value: `${c.contentLength} bytes` });
  });
});

describe('evidence.importOffline add', () => {
  it('keeps the listing when versions are added, and replaces without add', async () => {
    const e = newEngine();
    const opened = await ok(e, 'store.open', { path: path.join(FIXTURES, 'index-reset', 'store-during-run2.tar.gz') });
    const text = fs.readFileSync(path.join(FIXTURES, 'index-reset', 'fluent-bit.conf'), 'utf8');
    await ok(e, 'config.load', { storeId: opened.storeId, document: { name: 'fluent-bit.conf', text } });
    const listing = fs.readFileSync(path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2.json'), 'utf8');
    const versions = JSON.stringify({
      Versions: [{ Key: 'app.web/x-0', VersionId: 'v1', IsLatest: true, LastModified: '2026-11-29T18:00:00Z', Size: 1, ETag: '"e"' }],
    });
    const a = await ok(e, 'evidence.importOffline', { storeId: opened.storeId, outputId: 0, documents: [{ name: 'listing.json', text: listing }] });
    expect(a.versions).toBeNull();
    const b = await ok(e, 'evidence.importOffline', {
      storeId: opened.storeId,
      outputId: 0,
      documents: [{ name: 'versions.json', text: versions }],
      add: true,
    });
    expect(b.objects.length).toBe(a.objects.length);
    expect(b.versions).toHaveLength(1);
    const d = await ok(e, 'diagnose.run', { storeId: opened.storeId });
    expect(d.checks.outputs[0]).toMatchObject({ listing: 'complete', versions: true });
    const c = await ok(e, 'evidence.importOffline', { storeId: opened.storeId, outputId: 0, documents: [{ name: 'versions.json', text: versions }] });
    // without add the listing is replaced: only what the versions file says is current is left
    expect(c.objects.map((o: any) => o.key)).toEqual(['app.web/x-0']);
  });
});

describe('connection.save / list / forget', () => {
  it('keeps connections per bucket in the state dir, across engines, and never takes a secret', async () => {
    const state = tempDir('sd-conn-');
    cleanups.push(state.cleanup);
    const e1 = newEngine(state.dir);
    await ok(e1, 'connection.save', { bucket: 'logs', connection: { endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', pathStyle: true } });
    await ok(e1, 'connection.save', { bucket: 'other', connection: { profile: 'ops' } });
    const e2 = newEngine(state.dir);
    const list = (await ok(e2, 'connection.list', {})).connections;
    expect(list.map((c: any) => [c.bucket, c.connection])).toEqual([
      ['other', { profile: 'ops' }],
      ['logs', { endpoint: 'http://127.0.0.1:9000', region: 'eu-west-1', pathStyle: true }],
    ]);
    const secret = await dispatchRequest(e2, 'connection.save', { bucket: 'logs', connection: { secretAccessKey: 'x' } });
    expect(secret).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(JSON.parse(fs.readFileSync(path.join(state.dir, 'connections.json'), 'utf8')).connections).toHaveLength(2);
    expect((await ok(e2, 'connection.forget', { bucket: 'logs' })).forgotten).toBe(true);
    expect((await ok(e2, 'connection.forget', { bucket: 'logs' })).forgotten).toBe(false);
    expect((await ok(e1, 'connection.list', {})).connections.map((c: any) => c.bucket)).toEqual(['other']);
  });
});
