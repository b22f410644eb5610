/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * createEngine on the real Fluent Bit fixtures: open (folder and archive), inspect a chunk, page
 * its records, the demo with its config and listing, diagnosis, report export, recent stores,
 * close, cancel, and live watch blocking writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import type { Engine, EventPayloads } from '../../../shared/contract';
import { extractFixture, FIXTURES, tempDir } from '../../host/helpers';

const DEMO_DIR = path.resolve(__dirname, '..', '..', '..', 'demo');
const engines: Engine[] = [];
function newEngine(opts: Partial<Parameters<typeof createEngine>[0]> = {}): Engine {
  const e = createEngine({ door: 'host', demoDir: DEMO_DIR, stateDir: tempDir('sd-engine-state-'), watch: false, ...opts });
  engines.push(e);
  return e;
}
afterAll(async () => {
  for (const e of engines) await e.dispose();
});

async function ok(e: Engine, name: string, input: unknown, taskId?: string): Promise<any> {
  const r = await dispatchRequest(e, name, input, { taskId });
  if (!r.ok) throw new Error(`${name} failed: ${JSON.stringify(r.error)}`);
  return r.value;
}

describe('createEngine on real stores', () => {
  it('opens an extracted store_dir, inspects a chunk and pages its records', async () => {
    const e = newEngine();
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const opened = await ok(e, 'store.open', { path: store });
    expect(opened.report.source.kind).toBe('store_dir');
    const root = opened.report.roots[0];
    const chunks = root.streams.filter((s: any) => s.kind === 'data').flatMap((s: any) => s.chunks);
    expect(chunks.length).toBe(3);
    expect(chunks.reduce((n: number, c: any) => n + c.records, 0)).toBe(804);
    const big = chunks.reduce((a: any, b: any) => (b.records > a.records ? b : a));

    const inspected = await ok(e, 'chunk.inspect', { storeId: opened.storeId, rootPath: root.path, chunkPath: big.path });
    expect(inspected.chunk).toMatchObject({ path: big.path, status: big.status, records: big.records });
    expect(inspected.headerHex.replace(/\s/g, '').slice(0, 4).toLowerCase()).toBe('c100');

    const first = await ok(e, 'chunk.records', { storeId: opened.storeId, rootPath: root.path, chunkPath: big.path, offset: 0, limit: 10 });
    expect(first.records).toHaveLength(10);
    expect(first.nextOffset).toBe(10);
    const last = await ok(e, 'chunk.records', { storeId: opened.storeId, rootPath: root.path, chunkPath: big.path, offset: big.records - 2, limit: 10 });
    expect(last.records).toHaveLength(2);
    expect(last.nextOffset).toBeNull();
    expect(e.isPathInOpenedStores(root.path)).toBe(true);
    expect(e.isPathInOpenedStores(path.dirname(store))).toBe(false);
  });

  it('opens an archive in place and reads a chunk from inside it', async () => {
    const e = newEngine();
    const archive = path.join(FIXTURES, 'index-reset', 'store-during-run2.tar.gz');
    const opened = await ok(e, 'store.open', { path: archive });
    expect(opened.report.source.kind).toBe('archive');
    const root = opened.report.roots[0];
    expect(root.path).toContain('!/');
    expect(e.isPathInOpenedStores(root.path)).toBe(true);
    const chunk = root.streams.find((s: any) => s.kind === 'data').chunks[0];
    const page = await ok(e, 'chunk.records', { storeId: opened.storeId, rootPath: root.path, chunkPath: chunk.path, offset: 0, limit: 5 });
    expect(page.records.length).toBeGreaterThan(0);
    expect(page.records[0]).toHaveProperty('svc');
    // Archives are read-only: a repair is refused before anything is planned.
    const plan = await ok(e, 'repair.plan', { storeId: opened.storeId, action: 'repair-index', value: 12 });
    expect(plan.refusals.map((x: any) => x.reason).join(' ')).toMatch(/archive/);
    const r = await dispatchRequest(e, 'repair.apply', { storeId: opened.storeId, planId: plan.planId, confirm: 'fb-index-reset' });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
  });

  it('opens the built-in demo with its config and listing, and diagnoses the index reset', async () => {
    const e = newEngine();
    expect((await ok(e, 'app.info', {})).demoAvailable).toBe(true);
    const demo = await ok(e, 'store.openDemo', {});
    expect(demo.config.outputs[0].s3.bucket).toBe('fb-index-reset');
    expect(demo.evidence.objects).toHaveLength(24);
    const d = await ok(e, 'diagnose.run', { storeId: demo.storeId });
    const out = d.outputs[0];
    expect(out.persistedNextIndex).toBe(9);
    expect(out.highestIndexInBucket).toBe(11);
    expect(out.safeNextIndex).toBe(12);
    expect(out.resets).toHaveLength(1);
    expect(out.findings.map((f: any) => f.code)).toEqual(expect.arrayContaining(['INDEX_BEHIND_BUCKET', 'INDEX_REUSED']));
    // Opening the demo again returns the same session.
    expect((await ok(e, 'store.openDemo', {})).storeId).toBe(demo.storeId);
    expect((await ok(e, 'store.list', {})).stores.map((s: any) => s.storeId)).toEqual([demo.storeId]);
    // The demo is not a "recent store".
    expect((await ok(e, 'store.recent', {})).recent).toEqual([]);
  });

  it('exports the report as JSON and as a Markdown support summary', async () => {
    const e = newEngine();
    const demo = await ok(e, 'store.openDemo', {});
    const json = await ok(e, 'report.export', { storeId: demo.storeId, format: 'json' });
    expect(json.mimeType).toBe('application/json');
    expect(json.fileName).toMatch(/^store-doctor-store-during-run2-.*\.json$/);
    const doc = JSON.parse(json.text);
    expect(doc.report.roots[0].bucket).toBe('fb-index-reset');
    expect(doc.diagnosis.outputs[0].safeNextIndex).toBe(12);
    const md = await ok(e, 'report.export', { storeId: demo.storeId, format: 'markdown' });
    expect(md.mimeType).toBe('text/markdown');
    expect(md.text).toMatch(/^# Store Doctor report: store-during-run2\.tar\.gz/);
    expect(md.text).toContain('`INDEX_BEHIND_BUCKET`');
    expect(md.text).toContain('**Action:**');
    expect(md.text).toContain('`seq_index_0`: 9');
    expect(md.text).toMatch(/\| 2026-11-29T18:33:42 \| data \| 3 \|/);
    expect(md.text).toMatch(/\| s3\.0 \(id 0\) \| fb-index-reset \|.*\| 9 \| 11 \| 12 \| 1 \|/);
  });

  it('imports a Fluent Bit config as a document and an offline listing for an output', async () => {
    const e = newEngine();
    const archive = path.join(FIXTURES, 'index-reset', 'store-during-run2.tar.gz');
    const opened = await ok(e, 'store.open', { path: archive });
    const text = fs.readFileSync(path.join(FIXTURES, 'index-reset', 'fluent-bit.conf'), 'utf8');
    const config = await ok(e, 'config.load', { storeId: opened.storeId, document: { name: 'fluent-bit.conf', text } });
    expect(config.outputs[0].s3.s3KeyFormat).toBe('/$TAG/%Y/%m/%d/%H_%M_%S-$INDEX');
    const listing = fs.readFileSync(path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run1.json'), 'utf8');
    const ev = await ok(e, 'evidence.importOffline', { storeId: opened.storeId, outputId: 0, documents: [{ name: 'after-run1.json', text: listing }] });
    expect(ev.objects).toHaveLength(12);
    const d = await ok(e, 'diagnose.run', { storeId: opened.storeId });
    expect(d.outputs[0].highestIndexInBucket).toBe(11);
    const bad = await dispatchRequest(e, 'evidence.importOffline', { storeId: opened.storeId, documents: [{ name: 'broken.json', text: '{"Contents": 5' }] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect((bad as any).error.message).toContain('broken.json');
  });

  it('remembers recent stores across engines and forgets a closed store', async () => {
    const stateDir = tempDir('sd-recent-');
    const e1 = newEngine({ stateDir });
    const store = extractFixture('multipart-inflight', 'store-after-crash.tar.gz');
    const opened = await ok(e1, 'store.open', { path: store });
    const root = opened.report.roots[0];
    expect((await ok(e1, 'store.close', { storeId: opened.storeId })).closed).toBe(true);
    expect(e1.isPathInOpenedStores(root.path)).toBe(false);
    const r = await dispatchRequest(e1, 'chunk.inspect', { storeId: opened.storeId, rootPath: root.path, chunkPath: 'a/b' });
    expect(r).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const e2 = newEngine({ stateDir });
    expect((await ok(e2, 'store.recent', {})).recent).toEqual([{ path: store, openedAt: expect.any(String) }]);
    fs.writeFileSync(path.join(stateDir, 'recent-stores.json'), '{broken');
    expect((await ok(e2, 'store.recent', {})).recent).toEqual([]);
  });

  it('reports a missing store as not-found with the file name', async () => {
    const e = newEngine();
    const r = await dispatchRequest(e, 'store.open', { path: '/no/such/store_dir' });
    expect(r).toMatchObject({ ok: false, error: { code: 'not-found', file: '/no/such/store_dir' } });
    expect((await dispatchRequest(e, 'store.rescan', { storeId: 'store-nope' })) as any).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });
});

describe('tasks', () => {
  it('cancels a running scan with task.cancel', async () => {
    const e = newEngine();
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const root = fs.readdirSync(store)[0];
    const stream = fs.readdirSync(path.join(store, root)).find((n) => /^\d{4}-/.test(n))!;
    const streamDir = path.join(store, root, stream);
    const sample = fs
      .readdirSync(streamDir)
      .map((n) => path.join(streamDir, n))
      .sort((a, b) => fs.statSync(a).size - fs.statSync(b).size)[0];
    const bytes = fs.readFileSync(sample);
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(streamDir, `${1000 + i}-1234567890`), bytes);
    let cancelled: Promise<unknown> | null = null;
    const off = e.onEvent('progress', (p) => {
      if (p.taskId === 'big-scan' && !cancelled) cancelled = dispatchRequest(e, 'task.cancel', { taskId: 'big-scan' });
    });
    const r = await dispatchRequest(e, 'store.open', { path: store }, { taskId: 'big-scan' });
    off();
    expect(await cancelled).toEqual({ ok: true, value: { cancelled: true } });
    expect(r).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect((await dispatchRequest(e, 'task.cancel', { taskId: 'big-scan' })) as any).toEqual({ ok: true, value: { cancelled: false } });
  });
});

describe('live watch', () => {
  it('emits store.changed when Fluent Bit writes, refuses repair.apply until a rescan, then repairs and undoes', async () => {
    const e = newEngine({ watch: true });
    const store = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    const opened = await ok(e, 'store.open', { path: store });
    const bucket = opened.report.roots[0].bucket;
    const changes: EventPayloads['store.changed'][] = [];
    e.onEvent('store.changed', (c) => changes.push(c));
    await new Promise((r) => setTimeout(r, 300)); // let the watcher settle
    const stream = opened.report.roots[0].streams.find((s: any) => s.kind === 'data');
    const newChunk = path.join(opened.report.roots[0].path, stream.name, '99999-1');
    fs.writeFileSync(newChunk, Buffer.alloc(4096));
    await expect.poll(() => changes.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(changes[0].storeId).toBe(opened.storeId);

    const early = await ok(e, 'repair.plan', { storeId: opened.storeId, action: 'repair-index', value: 100 });
    const refused = await dispatchRequest(e, 'repair.apply', { storeId: opened.storeId, planId: early.planId, confirm: bucket });
    expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect((refused as any).error.message).toMatch(/changed/);

    fs.unlinkSync(newChunk);
    await new Promise((r) => setTimeout(r, 400));
    await ok(e, 'store.rescan', { storeId: opened.storeId });
    const plan = await ok(e, 'repair.plan', { storeId: opened.storeId, action: 'repair-index', value: 100 });
    expect(plan.steps.length).toBeGreaterThan(0);
    const wrongConfirm = await dispatchRequest(e, 'repair.apply', { storeId: opened.storeId, planId: plan.planId, confirm: 'not-the-bucket' });
    expect(wrongConfirm).toMatchObject({ ok: false, error: { code: 'refused' } });

    const before = changes.length;
    const applied = await ok(e, 'repair.apply', { storeId: opened.storeId, planId: plan.planId, confirm: bucket });
    expect(applied.applied).toBe(true);
    const seqFile = path.join(opened.report.roots[0].path, 'sequence', 'index_metadata', 'seq_index_0');
    expect(fs.readFileSync(seqFile, 'utf8')).toBe('100');
    await new Promise((r) => setTimeout(r, 600));
    expect(changes.length).toBe(before); // our own write is not "the store changed"
    const undoPlan = await ok(e, 'repair.plan', { storeId: opened.storeId, action: 'undo' });
    const undone = await ok(e, 'repair.apply', { storeId: opened.storeId, planId: undoPlan.planId, confirm: bucket });
    expect(undone.applied).toBe(true);
    expect(fs.readFileSync(seqFile, 'utf8')).toBe('6');
  });
});
