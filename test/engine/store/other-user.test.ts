/**
 * Issue 9 item 13: Store Doctor run as another user than Fluent Bit's.
 * - What it cannot read has its own status `unreadable` (EACCES) — not `empty` for a seq_index
 *   (no CRITICAL "repair" finding), not `too-short` for a chunk — and says to run as Fluent
 *   Bit's user or root; an index_metadata/ it cannot list is not a "missing" index.
 * - Streams are not judged "not writable" because the current user cannot write them.
 * - Files it creates in a store take the owner of the root they are in.
 * The reads run in a child process under another uid (setpriv); the test itself runs as root.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreReport } from '../../../shared/model';
import { planIndexRepair, applyIndexPlan } from '../../../electron/engine/repair/index-actions/index-repair';
import { planProtectIndex, applyProtectPlan } from '../../../electron/engine/repair/index-actions/protect';
import { generateStore, jsonLines } from '../../fixtures/generate';

const BIN = path.join(__dirname, '../../../bin/store-doctor.cjs');
const OTHER = 12345;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;

let tmp: string;
let store: string;
let root: string;

/** Run the CLI as uid/gid 12345 (no supplementary groups). */
function asOther(...args: string[]) {
  const r = spawnSync('setpriv', [`--reuid=${OTHER}`, `--regid=${OTHER}`, '--clear-groups', process.execPath, BIN, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, HOME: tmp, XDG_STATE_HOME: path.join(tmp, 'state') },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-other-user-'));
  fs.chmodSync(tmp, 0o755);
  const g = await generateStore(path.join(tmp, 'store'), {
    roots: [
      {
        bucket: 'b',
        streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1', meta: 'app', content: jsonLines(3) }] }],
        seqIndex: { '0': '42' },
      },
    ],
  });
  store = g.storeDir;
  root = g.roots.b;
  // As Fluent Bit leaves them: chunks 0600, index_metadata 0700, seq_index 0644 here (readable) unless a test says so.
  fs.chmodSync(path.join(root, 'sequence'), 0o755);
  fs.chmodSync(path.join(root, 'sequence', 'index_metadata'), 0o755);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!isRoot || !hasSetpriv)('as another user than the owner of the store', () => {
  it('an unreadable seq_index is `unreadable` (EACCES), diagnose has no CRITICAL and recommends no repair', () => {
    fs.chmodSync(path.join(root, 'sequence', 'index_metadata', 'seq_index_0'), 0o600);
    const scan = asOther('scan', store, '--json');
    const report = JSON.parse(scan.out) as StoreReport;
    const seq = report.roots[0].seqIndex[0];
    expect(seq).toMatchObject({ fileName: 'seq_index_0', status: 'unreadable', value: null });
    expect(seq.message).toMatch(/permission denied \(EACCES\): run Store Doctor as the user Fluent Bit runs as, or as root/);
    const d = asOther('diagnose', store, '--json');
    const findings = JSON.parse(d.out).outputs[0].findings as { code: string; severity: string; action: string }[];
    expect(findings.map((f) => f.severity)).not.toContain('critical');
    const notRead = findings.find((f) => f.code === 'INDEX_FILE_NOT_READ');
    expect(notRead).toMatchObject({ severity: 'warning' });
    expect(notRead!.action).toMatch(/as the user Fluent Bit runs as, or as root/);
    expect(findings.map((f) => f.code)).not.toContain('INDEX_FILE_UNREADABLE');
    expect(findings.map((f) => f.code)).not.toContain('INDEX_FILE_MISSING');
  });

  it('an index_metadata/ it cannot list is not a missing index', () => {
    fs.chmodSync(path.join(root, 'sequence', 'index_metadata'), 0o700);
    const report = JSON.parse(asOther('scan', store, '--json').out) as StoreReport;
    expect(report.roots[0].sequence.indexMetadataError).toMatch(/index_metadata: permission denied/);
    const findings = JSON.parse(asOther('diagnose', store, '--config', writeConfig(), '--json').out).outputs[0].findings as {
      code: string;
      severity: string;
    }[];
    expect(findings.map((f) => f.code)).not.toContain('INDEX_FILE_MISSING');
    expect(findings.find((f) => f.code === 'INDEX_FILE_NOT_READ')?.severity).toBe('warning');
  });

  it('an unreadable chunk is `unreadable`, not `too-short`; a stream it cannot write is not "not writable"', () => {
    const report = JSON.parse(asOther('scan', store, '--json').out) as StoreReport;
    const s = report.roots[0].streams.find((x) => x.kind === 'data')!;
    expect(s.chunks[0]).toMatchObject({ name: '1-1', status: 'unreadable' });
    expect(s.chunks[0].message).toMatch(/permission denied \(EACCES\)/);
    expect(s.chunks[0].fluentBitAction).toMatch(/unknown/);
    expect(s.fateOnGracefulStop).toMatch(/unknown/);
    expect(s.writable).toBeNull();
    expect(report.roots[0].totals.damaged).toBe(0);
    const text = asOther('scan', store).out;
    expect(text).not.toContain('not writable: Fluent Bit skips this stream');
    expect(text).toMatch(/not writable by this user/);
  });
});

function writeConfig(): string {
  const f = path.join(tmp, 'fluent-bit.conf');
  fs.writeFileSync(f, `[OUTPUT]\n    name s3\n    bucket b\n    store_dir ${store}\n    s3_key_format /$TAG/$INDEX\n`);
  fs.chmodSync(f, 0o644);
  return f;
}

describe.skipIf(!isRoot)('files the tool creates take the owner of the root', () => {
  it('repair-index: .store-doctor/, journal, backups, sequence dirs and the index file', async () => {
    fs.rmSync(path.join(root, 'sequence'), { recursive: true });
    fs.mkdirSync(path.join(root, 'sequence', 'index_metadata'), { recursive: true });
    fs.writeFileSync(path.join(root, 'sequence', 'index_metadata', 'seq_index_0'), '3');
    spawnSync('chown', ['-R', `${OTHER}:${OTHER + 1}`, root]);
    fs.rmSync(path.join(root, 'sequence'), { recursive: true });
    fs.mkdirSync(path.join(root, 'sequence'));
    fs.chownSync(path.join(root, 'sequence'), OTHER, OTHER + 1);
    const plan = await planIndexRepair({ storePath: root, rootPath: root, outputId: 0, safeNextIndex: 7, skipProcessCheck: true });
    await applyIndexPlan(plan, { skipProcessCheck: true });
    // a second action with a backup (the file now exists)
    const plan2 = await planIndexRepair({ storePath: root, rootPath: root, outputId: 0, safeNextIndex: 9, skipProcessCheck: true });
    await applyIndexPlan(plan2, { skipProcessCheck: true });
    const tool = path.join(root, '.store-doctor');
    const backups = fs.readdirSync(path.join(tool, 'backups'));
    const created = [
      tool,
      path.join(tool, 'journal.jsonl'),
      path.join(tool, 'backups'),
      path.join(tool, 'backups', backups[0]),
      ...fs.readdirSync(path.join(tool, 'backups', backups[0])).map((f) => path.join(tool, 'backups', backups[0], f)),
      path.join(root, 'sequence', 'index_metadata'),
      path.join(root, 'sequence', 'index_metadata', 'seq_index_0'),
    ];
    expect(created.length).toBeGreaterThan(6);
    for (const p of created) {
      const st = fs.statSync(p);
      expect([st.uid, st.gid], p).toEqual([OTHER, OTHER + 1]);
    }
  });

  it('protect-index marker: the marker chunk and sequence/', async () => {
    spawnSync('chown', ['-R', `${OTHER}:${OTHER + 1}`, root]);
    fs.rmSync(path.join(root, 'sequence'), { recursive: true });
    const plan = await planProtectIndex({ storePath: root, rootPath: root, method: 'marker', outputsOnRoot: [], skipProcessCheck: true });
    await applyProtectPlan(plan, { skipProcessCheck: true });
    for (const p of [path.join(root, 'sequence'), path.join(root, 'sequence', 'store-doctor-marker'), path.join(root, '.store-doctor', 'journal.jsonl')]) {
      const st = fs.statSync(p);
      expect([st.uid, st.gid], p).toEqual([OTHER, OTHER + 1]);
    }
  });
});
