/**
 * storage.path salvage with the real binaries: a buffer left by SIGKILL (checksum on: stale CRCs;
 * a torn last record; checksum off then on: zero CRCs) is rejected at the next start ("format check
 * failed") and its records never delivered; after `store-doctor salvage --apply` the same binary
 * delivers every kept record exactly once (counted on a stdout json_lines output), rejects nothing,
 * and leaves no chunk behind. Undo puts back the exact bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expect, it } from 'vitest';
import { chunkFiles, makeBuffer, recordsIn, restart, type BufferKind } from './support/engine-buffer';
import { describeCli, runCli } from './support/cli';
import { startFluentBit } from './support/process';
import { forEachFluentBit } from './support/suite';

async function scenario(bin: string, kind: BufferKind) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'sd-sp-fb-'));
  try {
    await makeBuffer(bin, work, kind);
    const store = path.join(work, 'store');
    const files = chunkFiles(store);
    expect(files.length).toBeGreaterThanOrEqual(2);
    if (kind === 'kill-checksum-on') {
      // A Fluent Bit that rejected every chunk holds nothing open there, yet uses the folder: refused.
      const config = path.join(work, 'running.conf');
      writeFileSync(config, `[SERVICE]\n    Flush 1\n    storage.path ${store}\n    storage.checksum on\n[OUTPUT]\n    Name stdout\n    Match *\n`);
      const fb = startFluentBit({ bin, config, logFile: path.join(work, 'running.log'), env: {} });
      await fb.waitFor(/format check failed/, { count: files.length });
      const refused = await runCli(['salvage', store, '--apply']);
      await fb.stop('SIGTERM');
      expect(refused.code, describeCli(refused)).toBe(5);
      expect(refused.stdout + refused.stderr).toMatch(new RegExp(`Fluent Bit process ${fb.pid} .*whose storage.path is this folder`));
      expect(recordsIn(store)).toBeGreaterThan(0);
    }
    const plan = await runCli(['salvage', store, '--json']);
    expect(plan.code, describeCli(plan)).toBe(0);
    const planned = JSON.parse(plan.stdout) as {
      report: { totals: { records: number; rejected: number; torn: number } };
      plan: { steps: unknown[]; details: { chunks: { records: number; cutBytes: number }[] } };
    };
    const kept = recordsIn(store);
    expect(planned.report.totals.records).toBe(kept);
    expect(planned.report.totals.rejected).toBe(files.length); // every chunk: stale or zero CRC
    expect(planned.plan.details.chunks.reduce((n, c) => n + c.records, 0)).toBe(kept);
    expect(planned.plan.details.chunks.filter((c) => c.cutBytes > 0).length).toBe(kind === 'torn-last-record' ? 1 : 0);
    const before = Object.fromEntries(files.map((f) => [f, readFileSync(path.join(store, f))]));

    const applied = await runCli(['salvage', store, '--apply', '--json']);
    expect(applied.code, describeCli(applied)).toBe(0);
    expect((JSON.parse(applied.stdout) as { result: { verified: boolean } }).result.verified).toBe(true);
    expect(recordsIn(store)).toBe(kept);

    // undo restores the exact bytes; salvage again for the restart
    const undo = await runCli(['salvage', store, '--undo', '--apply']);
    expect(undo.code, describeCli(undo)).toBe(0);
    for (const f of files) expect(readFileSync(path.join(store, f)).equals(before[f])).toBe(true);
    expect((await runCli(['salvage', store, '--apply'])).code).toBe(0);

    const r = await restart(bin, work, store, true, kept);
    expect(r.formatCheckFailed).toEqual([]);
    expect(r.delivered).toBe(kept);
    expect(r.unique).toBe(kept);
    expect(r.left).toEqual([]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

forEachFluentBit('storage.path salvage', (fb) => {
  it('SIGKILL with storage.checksum on: after salvage every record exactly once, nothing rejected', () => scenario(fb.path, 'kill-checksum-on'));
  it('torn last record (checksum off, restarted with it on): the torn record is cut, the rest delivered once', () => scenario(fb.path, 'torn-last-record'));
});
