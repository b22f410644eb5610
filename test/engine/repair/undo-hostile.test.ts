/* eslint-disable @typescript-eslint/no-explicit-any -- journal entries are edited as untyped JSON, as an attacker would */
/**
 * Issue 9 item 1: `undo` must not obey a store's journal blindly. The store is hostile input (a
 * volume another user or container can write) and the tool often runs as root. Each attack edits
 * the journal of a real repair (or plants links), then runs undo through the engine and through
 * the session (the pipeline every door uses): it must be refused — naming the problem — and touch
 * nothing: a sha256/stat snapshot of every file outside the store and of the store's own index is
 * the same before and after.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import * as path from 'node:path';
import { applyIndexPlan, planIndexRepair } from '../../../electron/engine/repair/index-actions/index-repair';
import { applyUndo, planUndo } from '../../../electron/engine/repair/undo/undo';
import { RefusedError } from '../../../electron/engine/repair/outcome/errors';
import { JOURNAL_FILE, toolDir } from '../../../electron/engine/repair/journal/journal';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import { tempDir } from './helpers';

const asRoot = process.getuid?.() === 0;

interface World {
  dir: string;
  store: string;
  root: string;
  outside: string;
  /** A root-owned file outside the store the attacks aim at. */
  victim: string;
  /** A root-only file outside the store (0600). */
  secret: string;
  index: string;
  journal: string;
  cleanup(): void;
}

let w: World | null = null;
afterEach(() => {
  w?.cleanup();
  w = null;
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A store with one real repair (seq_index_0: 7 → 20) in its journal, and files outside it. */
async function world(): Promise<World> {
  const t = tempDir('sd-hostile-');
  const store = path.join(t.dir, 'store');
  const root = path.join(store, 'bucket');
  const index = path.join(root, 'sequence', 'index_metadata', 'seq_index_0');
  mkdirSync(path.dirname(index), { recursive: true });
  mkdirSync(path.join(root, 'emitter.0'));
  writeFileSync(index, '7', { mode: 0o644 });
  const outside = path.join(t.dir, 'outside');
  mkdirSync(path.join(outside, 'empty'), { recursive: true });
  const victim = path.join(outside, 'victim');
  const secret = path.join(outside, 'secret');
  writeFileSync(victim, 'precious', { mode: 0o644 });
  writeFileSync(secret, 'root-only', { mode: 0o600 });
  const plan = await planIndexRepair({ storePath: store, rootPath: root, outputId: 0, safeNextIndex: 20, skipProcessCheck: true });
  const r = await applyIndexPlan(plan, { skipProcessCheck: true });
  expect(r.verified).toBe(true);
  expect(readFileSync(index, 'latin1')).toBe('20');
  return { dir: t.dir, store, root, outside, victim, secret, index, journal: path.join(toolDir(root), JOURNAL_FILE), cleanup: t.cleanup };
}

/** sha256 + stat of every entry under `dirs` (not following links). */
function snapshot(dirs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string) => {
    const st = lstatSync(p);
    const body = st.isFile() ? sha(readFileSync(p)) : st.isSymbolicLink() ? 'link' : 'dir';
    out[p] = `${body} ${st.mode.toString(8)} ${st.uid}:${st.gid} ${st.size} ${st.ino} ${st.mtimeMs}`;
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(path.join(p, n));
  };
  for (const d of dirs) if (existsSync(d)) walk(d);
  return out;
}

function readJournal(file: string): any[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** Edit the newest action entry of the journal (as an attacker with write access to the store would). */
function tamper(x: World, edit: (entry: any) => void): void {
  const lines = readJournal(x.journal);
  const entry = [...lines].reverse().find((l) => l.type === 'action');
  edit(entry);
  writeFileSync(x.journal, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

const fileChange = (e: any) => e.changes.find((c: any) => c.kind === 'file');

/** Undo through the engine must be refused naming `why`; nothing may change anywhere. */
async function expectRefusedEverywhere(x: World, why: RegExp): Promise<void> {
  const watched = [x.outside, x.index, path.dirname(x.index)];
  const before = snapshot(watched);
  const plan = await planUndo(x.store, { skipProcessCheck: true });
  expect(plan.refusals.map((r) => r.reason).join('\n')).toMatch(why);
  expect(plan.refusals.some((r) => !r.forceable && why.test(r.reason))).toBe(true);
  const err = await applyUndo(plan, { force: true, skipProcessCheck: true }).catch((e: Error) => e);
  expect(err).toBeInstanceOf(RefusedError);
  expect(snapshot(watched)).toEqual(before);

  // the session (every door's pipeline): planned with force, applying is refused
  const e = createEngine({ door: 'cli', stateDir: path.join(x.dir, 'state'), watch: false });
  try {
    const opened = await dispatchRequest(e, 'store.open', { path: x.store });
    expect(opened.ok).toBe(true);
    const planned = await dispatchRequest(e, 'repair.plan', { storeId: (opened as any).value.storeId, action: 'undo', force: true });
    expect(planned.ok).toBe(true);
    const p = (planned as any).value;
    const applied = await dispatchRequest(e, 'repair.apply', { storeId: (opened as any).value.storeId, planId: p.planId, confirm: p.confirm ?? 'bucket' });
    expect(applied.ok).toBe(false);
    expect((applied as any).error.code).toBe('refused');
  } finally {
    await e.dispose();
  }
  expect(snapshot(watched)).toEqual(before);
}

describe.skipIf(!asRoot)('undo refuses a hostile journal and touches nothing (run as root)', () => {
  it('an entry whose file lies outside the root (attacker bytes over a root file, made setuid root)', async () => {
    w = await world();
    const x = w;
    const b = path.join(toolDir(x.root), 'backups', 'evil');
    mkdirSync(b, { recursive: true });
    writeFileSync(path.join(b, 'payload'), '#!/bin/sh\nid\n');
    tamper(x, (e) => {
      const c = fileChange(e);
      c.path = x.victim;
      c.before = { exists: true, backup: 'backups/evil/payload', size: 12, sha256: sha(Buffer.from('#!/bin/sh\nid\n')), mode: 0o4755, uid: 0, gid: 0 };
    });
    await expectRefusedEverywhere(x, /outside/);
  });

  it('a path that leaves the root with ..', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => (fileChange(e).path = `${x.root}/sequence/../../../outside/victim`));
    await expectRefusedEverywhere(x, /\.\.|outside|normal/);
  });

  it('a backup path with .. (copies a root-only file into the store)', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => {
      const c = fileChange(e);
      c.before.backup = `backups/${e.id}/../../../../outside/secret`;
      c.before.size = 9;
      c.before.sha256 = sha(Buffer.from('root-only'));
    });
    await expectRefusedEverywhere(x, /backup/);
  });

  it('an absolute backup path', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => {
      const c = fileChange(e);
      c.before.backup = x.secret;
      c.before.size = 9;
      c.before.sha256 = sha(Buffer.from('root-only'));
    });
    await expectRefusedEverywhere(x, /backup/);
  });

  it('a backup of another action (not in backups/<this id>/)', async () => {
    w = await world();
    const x = w;
    const other = path.join(toolDir(x.root), 'backups', 'other');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, '0-seq_index_0'), '7');
    tamper(x, (e) => (fileChange(e).before.backup = 'backups/other/0-seq_index_0'));
    await expectRefusedEverywhere(x, /backup/);
  });

  it('a backup whose bytes are not the ones recorded', async () => {
    w = await world();
    const x = w;
    const lines = readJournal(x.journal);
    const c = fileChange(lines.find((l) => l.type === 'action'));
    writeFileSync(path.join(toolDir(x.root), c.before.backup), '8');
    await expectRefusedEverywhere(x, /backup.*(sha256|bytes|size)/);
  });

  it('mode 04755 (setuid) on a file in the root', async () => {
    w = await world();
    tamper(w, (e) => (fileChange(e).before.mode = 0o4755));
    await expectRefusedEverywhere(w, /setuid|setgid|sticky|mode/);
  });

  it('an owner the tool did not record (foreign uid/gid)', async () => {
    w = await world();
    tamper(w, (e) => Object.assign(fileChange(e).before, { uid: 4242, gid: 4242 }));
    await expectRefusedEverywhere(w, /owner/);
  });

  it('a move whose target is outside the root (moves a root file into the store)', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => e.changes.push({ kind: 'move', from: path.join(x.root, 'emitter.0', 'stolen'), to: x.victim }));
    await expectRefusedEverywhere(x, /outside/);
  });

  it('a move back to a place outside the root', async () => {
    w = await world();
    const x = w;
    writeFileSync(path.join(x.root, 'emitter.0', 'chunk.flb'), 'data');
    tamper(x, (e) => e.changes.push({ kind: 'move', from: path.join(x.outside, 'planted'), to: path.join(x.root, 'emitter.0', 'chunk.flb') }));
    await expectRefusedEverywhere(x, /outside/);
  });

  it('an mkdir outside the root (undo would remove a folder there)', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => e.changes.unshift({ kind: 'mkdir', path: path.join(x.outside, 'empty') }));
    await expectRefusedEverywhere(x, /outside/);
    expect(existsSync(path.join(x.outside, 'empty'))).toBe(true);
  });

  it('an entry that names another root than the journal it is in', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => {
      e.rootPath = x.outside;
      fileChange(e).path = x.victim;
    });
    await expectRefusedEverywhere(x, /root/);
  });

  it('an entry of an unknown shape (extra field, wrong type)', async () => {
    w = await world();
    tamper(w, (e) => {
      e.runAs = 'root';
      fileChange(e).before.size = '7';
    });
    await expectRefusedEverywhere(w, /journal.*(line|entry)/);
  });

  it('a symlinked journal', async () => {
    w = await world();
    const x = w;
    const moved = path.join(x.outside, 'journal.jsonl');
    renameSync(x.journal, moved);
    symlinkSync(moved, x.journal);
    await expectRefusedEverywhere(x, /symlink/);
  });

  it('a hard-linked journal (a second name for a file elsewhere)', async () => {
    w = await world();
    const x = w;
    const other = path.join(x.outside, 'journal-copy');
    linkSync(x.journal, other);
    await expectRefusedEverywhere(x, /link/);
  });

  it('a symlinked .store-doctor', async () => {
    w = await world();
    const x = w;
    const moved = path.join(x.outside, 'sd');
    renameSync(toolDir(x.root), moved);
    symlinkSync(moved, toolDir(x.root));
    await expectRefusedEverywhere(x, /symlink/);
  });

  it('a journal owned by another user than the caller, root or the root folder owner', async () => {
    w = await world();
    chownSync(w.journal, 4242, 4242);
    await expectRefusedEverywhere(w, /owned by/);
  });

  it('a .store-doctor writable by others', async () => {
    w = await world();
    chmodSync(toolDir(w.root), 0o777);
    await expectRefusedEverywhere(w, /writable by/);
  });

  it('a symlinked path component inside the root (sequence/ now leads outside)', async () => {
    w = await world();
    const x = w;
    // what the attacker prepares outside: a tree that looks like the journal's after-state
    const fake = path.join(x.outside, 'seq');
    mkdirSync(path.join(fake, 'index_metadata'), { recursive: true });
    writeFileSync(path.join(fake, 'index_metadata', 'seq_index_0'), '20');
    rmSync(path.join(x.root, 'sequence'), { recursive: true });
    symlinkSync(fake, path.join(x.root, 'sequence'));
    await expectRefusedEverywhere(x, /symlink/);
    expect(readFileSync(path.join(fake, 'index_metadata', 'seq_index_0'), 'latin1')).toBe('20');
  });
});

describe.skipIf(!asRoot)('a planted link never makes a root-run repair write elsewhere', () => {
  it('a symlinked journal: the repair is refused and the link target gets no line', async () => {
    w = await world();
    const x = w;
    rmSync(x.journal);
    symlinkSync(x.victim, x.journal);
    const before = snapshot([x.outside]);
    const plan = await planIndexRepair({ storePath: x.store, rootPath: x.root, outputId: 0, safeNextIndex: 30, skipProcessCheck: true });
    const err = await applyIndexPlan(plan, { skipProcessCheck: true }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/symlink/);
    expect(snapshot([x.outside])).toEqual(before);
    expect(readFileSync(x.victim, 'utf8')).toBe('precious');
    expect(readFileSync(x.index, 'latin1')).toBe('20');
  });

  it('a symlinked .store-doctor: the repair is refused, nothing is written through it', async () => {
    w = await world();
    const x = w;
    rmSync(toolDir(x.root), { recursive: true });
    symlinkSync(path.join(x.outside, 'empty'), toolDir(x.root));
    const before = snapshot([x.outside]);
    const plan = await planIndexRepair({ storePath: x.store, rootPath: x.root, outputId: 0, safeNextIndex: 30, skipProcessCheck: true });
    const err = await applyIndexPlan(plan, { skipProcessCheck: true }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/symlink/);
    expect(snapshot([x.outside])).toEqual(before);
    expect(readFileSync(x.index, 'latin1')).toBe('20');
  });
});

describe.skipIf(!asRoot)('owners and modes the undo restores', () => {
  it('a planted setuid index file loses the bit when a repair rewrites it (never kept, never restored)', async () => {
    w = await world();
    const x = w;
    chmodSync(x.index, 0o4755);
    const plan = await planIndexRepair({ storePath: x.store, rootPath: x.root, outputId: 0, safeNextIndex: 30, skipProcessCheck: true });
    await applyIndexPlan(plan, { skipProcessCheck: true });
    expect(lstatSync(x.index).mode & 0o7777).toBe(0o755);
    const undo = await planUndo(x.store, { skipProcessCheck: true });
    expect(undo.refusals.some((r) => /setuid/.test(r.reason))).toBe(true); // the recorded 4755 is never put back
    expect(lstatSync(x.index).mode & 0o7000).toBe(0);
  });

  it('restores the owner recorded when it is the root folder owner (the Fluent Bit user)', async () => {
    w = await world();
    const x = w;
    // a root owned by the Fluent Bit user; its index too
    chownSync(x.root, 1234, 1234);
    chownSync(x.index, 1234, 1234);
    const plan = await planIndexRepair({ storePath: x.store, rootPath: x.root, outputId: 0, safeNextIndex: 30, skipProcessCheck: true });
    await applyIndexPlan(plan, { skipProcessCheck: true });
    chownSync(x.index, 4321, 4321); // someone changed the owner (not the bytes)
    const undo = await planUndo(x.store, { skipProcessCheck: true });
    expect(undo.refusals).toEqual([]);
    await applyUndo(undo, { skipProcessCheck: true });
    const st = lstatSync(x.index);
    expect([readFileSync(x.index, 'latin1'), st.uid, st.gid, st.mode & 0o7777]).toEqual(['20', 1234, 1234, 0o644]);
  });

  it('never restores setuid/setgid/sticky bits, even from a genuine-looking entry', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => (fileChange(e).before.mode = 0o2644));
    const undo = await planUndo(x.store, { skipProcessCheck: true });
    expect(undo.refusals.some((r) => !r.forceable && /setgid/.test(r.reason))).toBe(true);
    expect(readFileSync(x.index, 'latin1')).toBe('20');
    expect(lstatSync(x.index).mode & 0o7000).toBe(0);
  });
});

describe('a symlinked bucket root (Fluent Bit follows it): writes resolve it once and stay in the folder it named', () => {
  const FIX = path.resolve(__dirname, '../../fixtures/fluent-bit-real/index-reset');
  const BUCKET = 'fb-index-reset';

  /** The index-reset store with its root moved to `real-a` and `store/fb-index-reset` a link to it; `real-b` a copy. */
  function linkedStore() {
    const t = tempDir('sd-linkroot-');
    execFileSync('tar', ['-xzf', path.join(FIX, 'store-after-run2.tar.gz'), '-C', t.dir]);
    const store = path.join(t.dir, 'store');
    const a = path.join(t.dir, 'real-a');
    const b = path.join(t.dir, 'real-b');
    renameSync(path.join(store, BUCKET), a);
    mkdirSync(path.join(a, '2026-01-01T00:00:00')); // a stream folder: the scanner follows a link to a folder that looks like a root
    execFileSync('cp', ['-a', a, b]);
    symlinkSync('../real-a', path.join(store, BUCKET));
    return { t, store, link: path.join(store, BUCKET), a, b };
  }

  async function session(store: string, stateDir: string) {
    const e = createEngine({ door: 'cli', stateDir, watch: false });
    const call = async (name: string, input: unknown): Promise<any> => dispatchRequest(e, name, input);
    const storeId = (await call('store.open', { path: store })).value.storeId;
    await call('config.load', { storeId, path: path.join(FIX, 'fluent-bit.conf') });
    const imp = await call('evidence.importOffline', {
      storeId,
      documents: [{ name: 'listing.json', text: readFileSync(path.join(FIX, 's3api-list-objects-v2-after-run2.json'), 'utf8') }],
    });
    expect(imp.ok).toBe(true);
    await call('diagnose.run', { storeId });
    return { e, call, storeId };
  }

  it('repair-index through the link writes into the resolved folder, journals it there, and undo puts it back', async () => {
    const s = linkedStore();
    const x = await session(s.store, path.join(s.t.dir, 'state'));
    try {
      const plan = await x.call('repair.plan', { storeId: x.storeId, action: 'repair-index' });
      expect(plan.value.refusals).toEqual([]);
      const applied = await x.call('repair.apply', { storeId: x.storeId, planId: plan.value.planId, confirm: BUCKET });
      expect(applied.ok).toBe(true);
      expect(readFileSync(path.join(s.a, 'sequence', 'index_metadata', 'seq_index_0'), 'latin1')).toBe('12');
      expect(existsSync(path.join(s.b, 'sequence'))).toBe(false);
      const entry = readJournal(path.join(s.a, '.store-doctor', JOURNAL_FILE)).find((l) => l.type === 'action');
      expect(entry.rootPath).toBe(s.a);
      expect(fileChange(entry).path).toBe(path.join(s.a, 'sequence', 'index_metadata', 'seq_index_0'));
      // the undo brings the reset back below the listed index 11 (issue 18): refused unless forced
      const refused = await x.call('repair.plan', { storeId: x.storeId, action: 'undo' });
      expect(refused.value.refusals.map((r: { forceable: boolean }) => r.forceable)).toEqual([true]);
      expect(refused.value.refusals[0].reason).toMatch(/leaves seq_index_0 missing again .* \$INDEX 11 is already used/);
      const undo = await x.call('repair.plan', { storeId: x.storeId, action: 'undo', force: true });
      const undone = await x.call('repair.apply', { storeId: x.storeId, planId: undo.value.planId, confirm: undo.value.confirm });
      expect(undone.ok).toBe(true);
      expect(existsSync(path.join(s.a, 'sequence'))).toBe(false);
    } finally {
      await x.e.dispose();
      s.t.cleanup();
    }
  });

  it('a link swapped to another folder after the plan was made: the apply is refused and neither folder is written', async () => {
    const s = linkedStore();
    const x = await session(s.store, path.join(s.t.dir, 'state'));
    try {
      const plan = await x.call('repair.plan', { storeId: x.storeId, action: 'repair-index' });
      expect(plan.value.refusals).toEqual([]);
      rmSync(s.link);
      symlinkSync('../real-b', s.link);
      const applied = await x.call('repair.apply', { storeId: x.storeId, planId: plan.value.planId, confirm: BUCKET });
      expect(applied.ok).toBe(false);
      expect(applied.error.code).toBe('refused');
      expect(applied.error.message).toMatch(/stale/);
      expect(existsSync(path.join(s.a, 'sequence'))).toBe(false);
      expect(existsSync(path.join(s.b, 'sequence'))).toBe(false);
      expect(existsSync(path.join(s.b, '.store-doctor'))).toBe(false);
    } finally {
      await x.e.dispose();
      s.t.cleanup();
    }
  });
});

describe.skipIf(!asRoot)('through the CLI', { timeout: 120_000 }, () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, [path.resolve(__dirname, '../../../bin/store-doctor.cjs'), ...args], { encoding: 'utf8', timeout: 90_000 });

  it('undo --apply of an entry outside the root, and of a symlinked journal: exit 5, nothing touched', async () => {
    w = await world();
    const x = w;
    tamper(x, (e) => (fileChange(e).path = x.victim));
    const before = snapshot([x.outside, x.index]);
    const r = cli(['undo', x.store, '--apply', '--force']);
    expect(r.status, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/outside the root/);
    expect(snapshot([x.outside, x.index])).toEqual(before);

    const moved = path.join(x.outside, 'journal.jsonl');
    renameSync(x.journal, moved);
    symlinkSync(moved, x.journal);
    const before2 = snapshot([x.outside, x.index]);
    const r2 = cli(['undo', x.store, '--apply', '--force']);
    expect(r2.status, r2.stderr).toBe(5);
    expect(r2.stderr).toMatch(/symlink/);
    expect(snapshot([x.outside, x.index])).toEqual(before2);
  });
});
