/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * One true thing per fact (issue 12, item 5): the Inspector and the scan say the same fate of a
 * chunk; an overwrite risk's label agrees with its analysis; SHARED_STORE_ROOT is one card; a
 * NO_EVIDENCE finding names its output; a truncated archive is STORE_UNREADABLE, not
 * CHUNK_DAMAGED; index actions are not planned for an output without $INDEX.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import { diagnose } from '../../../electron/engine/diagnose';
import { parseFluentBitConfig } from '../../../electron/engine/fluentbit';
import type { Engine } from '../../../shared/contract';
import { extractFixture, FIXTURES, tempDir } from '../../support/fixtures';
import { evidence, report, root, seq } from '../diagnose/build-report';

const engines: Engine[] = [];
const cleanups: (() => void)[] = [];
function newEngine(): Engine {
  const e = createEngine({ door: 'host', watch: false });
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

const conf = (text: string) => parseFluentBitConfig(text, { fileName: '/etc/fb/fluent-bit.conf', env: {} });

describe('one fact, one sentence', () => {
  it('the Inspector gives a truncated chunk the same fate as the scan (its stream holds a valid sibling)', async () => {
    const x = extractFixture('crash-during-run', 'store-after-crash.tar.gz');
    cleanups.push(x.cleanup);
    const e = newEngine();
    const opened0 = await ok(e, 'store.open', { path: x.storeDir });
    const r0 = opened0.report.roots[0];
    const stream = r0.streams.find((s: any) => s.kind === 'data' && s.chunks.length >= 2);
    const victim = stream.chunks[0];
    const file = path.join(r0.path, victim.path);
    fs.truncateSync(file, 100); // header + part of the content: "truncated"
    const opened = await ok(e, 'store.rescan', { storeId: opened0.storeId });
    const scanned = opened.report.roots[0].streams.find((s: any) => s.name === stream.name).chunks.find((c: any) => c.path === victim.path);
    expect(scanned.status).toBe('truncated');
    expect(scanned.fluentBitAction).toMatch(/left on disk while its stream holds a valid chunk/);
    const inspected = await ok(e, 'chunk.inspect', { storeId: opened.storeId, rootPath: r0.path, chunkPath: victim.path });
    expect(inspected.chunk.fluentBitAction).toBe(scanned.fluentBitAction);
  });

  it('an overwrite risk says "same tag, at any time" where its analysis says the tag distinguishes keys', async () => {
    const config = await conf('[OUTPUT]\n    name s3\n    bucket b\n    s3_key_format /$TAG/$INDEX\n');
    const keys: [string, string][] = [0, 1, 2].map((i) => [`app.web/${i}`, `2026-11-29T1${i}:00:00Z`]);
    const d = diagnose({ report: report(root('b')), config, evidence: { 0: evidence(keys) }, at: new Date('2026-11-29T20:00:00Z') });
    const o = d.outputs[0];
    expect(o.collision).toMatchObject({ risk: 'always', riskText: 'same tag, at any time' });
    expect(o.collision.explanation).toMatch(/with the same tag/);
    const risk = o.findings.find((f) => f.code === 'OVERWRITE_RISK')!;
    expect(risk.summary).toContain('(same tag, at any time)');
    expect(risk.summary).not.toContain('(always)');
  });

  it('SHARED_STORE_ROOT is one finding for the outputs that share a root, and still shown for one of them alone', async () => {
    const config = await conf(
      '[OUTPUT]\n    name s3\n    bucket b\n    store_dir /data/store\n    s3_key_format /a/%Y/%m/%d/$INDEX\n' +
        '[OUTPUT]\n    name s3\n    bucket b\n    store_dir /data/store\n    alias appstatus\n    s3_key_format /status/$UUID.json\n',
    );
    const rep = report(root('b', { seqIndex: [seq(0, 1)] }));
    const all = diagnose({ report: rep, config, evidence: {} });
    const shared = [...all.storeFindings, ...all.outputs.flatMap((o) => o.findings)].filter((f) => f.code === 'SHARED_STORE_ROOT');
    expect(shared).toHaveLength(1);
    expect(shared[0].data).toEqual({ outputs: [0, 1] });
    const alone = diagnose({ report: rep, config, evidence: {}, outputId: 1 });
    expect(alone.outputs[0].findings.map((f) => f.code)).toContain('SHARED_STORE_ROOT');
    // NO_EVIDENCE names its output, and for an output without $INDEX says nothing about $INDEX
    const noEv = all.outputs.map((o) => o.findings.find((f) => f.code === 'NO_EVIDENCE')!);
    expect(noEv[0].summary).toMatch(/^s3\.0 \(id 0\): no bucket evidence for b: the highest \$INDEX used/);
    expect(noEv[1].summary).toMatch(/^appstatus \(id 1\): no bucket evidence for b/);
    expect(noEv[1].summary).not.toContain('$INDEX');
  });

  it('a truncated archive is STORE_UNREADABLE; the entry it cuts is unreadable, not a damaged chunk', async () => {
    const t = tempDir('sd-trunc-');
    cleanups.push(t.cleanup);
    const src = fs.readFileSync(path.join(FIXTURES, 'index-reset', 'store-during-run2.tar.gz'));
    const file = path.join(t.dir, 'cut.tar.gz');
    fs.writeFileSync(file, src.subarray(0, Math.floor(src.length * 0.6)));
    const e = newEngine();
    const opened = await ok(e, 'store.open', { path: file });
    const chunks = opened.report.roots.flatMap((r: any) => r.streams.flatMap((s: any) => s.chunks));
    const cut = chunks.filter((c: any) => c.status !== 'ok');
    expect(cut.length).toBeGreaterThan(0);
    for (const c of cut) {
      expect(c.status).toBe('unreadable');
      expect(c.message).toMatch(/the archive ends inside this file/);
      expect(c.fluentBitAction).toMatch(/^unknown: the archive ends inside this file/);
    }
    const d = await ok(e, 'diagnose.run', { storeId: opened.storeId });
    const codes = [...d.storeFindings, ...d.outputs.flatMap((o: any) => o.findings)].map((f: any) => f.code);
    expect(codes).toContain('STORE_UNREADABLE');
    expect(codes).not.toContain('CHUNK_DAMAGED');
  });

  it('repair-index and restore-index are refused for an output whose key format has no $INDEX', async () => {
    const x = extractFixture('index-reset', 'store-during-run2.tar.gz');
    cleanups.push(x.cleanup);
    const e = newEngine();
    const opened = await ok(e, 'store.open', { path: x.storeDir });
    const bucket = opened.report.roots[0].bucket;
    const text =
      `[OUTPUT]\n    name s3\n    bucket ${bucket}\n    store_dir ${x.storeDir}\n    s3_key_format /$TAG/%Y/%m/%d/%H_%M_%S-$INDEX\n` +
      `[OUTPUT]\n    name s3\n    bucket ${bucket}\n    store_dir ${x.storeDir}\n    alias status\n    s3_key_format /status/$UUID.json\n`;
    await ok(e, 'config.load', { storeId: opened.storeId, document: { name: 'fluent-bit.conf', text } });
    for (const action of ['repair-index', 'restore-index']) {
      const r = await dispatchRequest(e, 'repair.plan', { storeId: opened.storeId, action, outputId: 1 });
      expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
      expect((r as any).error.message).toMatch(/status has no \$INDEX in its s3_key_format/);
    }
    const plan = await ok(e, 'repair.plan', { storeId: opened.storeId, action: 'repair-index', outputId: 0, value: 12 });
    expect(plan.confirm).toBe(`${bucket}/s3.0`);
  });
});
