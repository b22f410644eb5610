import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { planProtectIndex, applyProtectPlan, markerBytes, MARKER_NAME } from '../../../electron/engine/repair/index-actions/protect';
import { planRestoreIndex, applyRestorePlan } from '../../../electron/engine/repair/index-actions/restore';
import { planIndexRepair, applyIndexPlan } from '../../../electron/engine/repair/index-actions/index-repair';
import { undoLast } from '../../../electron/engine/repair/undo/undo';
import { RefusedError } from '../../../electron/engine/repair/outcome/errors';
import { decodeChunkHeader } from '../../../electron/engine/chunk';
import { scanStore } from '../../../electron/engine/store/scan';
import { extractFixture, tempDir, type Extracted } from './helpers';

let fx: Extracted | null = null;
let sh: ReturnType<typeof tempDir> | null = null;
afterEach(() => {
  fx?.cleanup();
  sh?.cleanup();
  fx = null;
  sh = null;
});
const seqFile = (root: string) => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');

describe('marker chunk', () => {
  it('is a valid empty chunk: C1 00, CRC 0, content length 0, meta store-doctor-marker, 4096 bytes', () => {
    const b = markerBytes();
    expect(b.length).toBe(4096);
    const h = decodeChunkHeader(b, b.length);
    expect(h.status).toBe('ok');
    expect(h.contentLength).toBe(0);
    expect(h.crcField).toBe('00000000');
    expect(b.subarray(24, 24 + h.metaLength!).toString()).toBe('store-doctor-marker');
    expect(b.subarray(24 + h.metaLength!).every((x) => x === 0)).toBe(true);
  });

  it('is written into sequence/ (mode 0600), registered by the scanner, keeps the folder; undo removes it', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const before = await scanStore(fx.storeDir);
    expect(before.roots[0].sequence.deletedOnGracefulStop).toBe(true);
    const plan = await planProtectIndex({
      storePath: fx.storeDir,
      rootPath: fx.root,
      method: 'marker',
      outputsOnRoot: [{ id: 0, displayName: 's3.0', hasIndex: true }],
      skipProcessCheck: true,
    });
    expect(plan.refusals).toEqual([]);
    const r = await applyProtectPlan(plan, { skipProcessCheck: true });
    expect(r.verified).toBe(true);
    const marker = path.join(fx.root, 'sequence', MARKER_NAME);
    expect(readFileSync(marker).equals(markerBytes())).toBe(true);
    expect(statSync(marker).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.join(fx.root, 'sequence')).sort()).toEqual(['index_metadata', MARKER_NAME]);
    const after = await scanStore(fx.storeDir);
    expect(after.roots[0].sequence.markerChunks).toEqual([MARKER_NAME]);
    expect(after.roots[0].sequence.deletedOnGracefulStop).toBe(false);
    await undoLast(fx.storeDir, { skipProcessCheck: true });
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('6');
  });

  it('is refused when another S3 output sharing the root has no $INDEX (it would upload the marker), even with force', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    const plan = await planProtectIndex({
      storePath: fx.storeDir,
      rootPath: fx.root,
      method: 'marker',
      outputsOnRoot: [
        { id: 0, displayName: 's3.0', hasIndex: true },
        { id: 1, displayName: 'appstatus', hasIndex: false },
      ],
      skipProcessCheck: true,
    });
    expect(plan.refusals).toHaveLength(1);
    expect(plan.refusals[0].forceable).toBe(false);
    expect(plan.refusals[0].reason).toMatch(/appstatus.*0-byte object.*verified with Fluent Bit 5\.0\.9/);
    // operator text names no internal document sections
    expect(plan.refusals[0].reason).not.toMatch(/§|spec/);
    await expect(applyProtectPlan(plan, { force: true, skipProcessCheck: true })).rejects.toBeInstanceOf(RefusedError);
    expect(existsSync(path.join(fx.root, 'sequence', MARKER_NAME))).toBe(false);
  });
});

describe('shadow copy + restore-index (pre-start hook)', () => {
  it('copies the index outside the store; after a graceful stop deleted sequence/, restore puts the highest value back', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sh = tempDir('sd-shadow-');
    const shadowDir = path.join(sh.dir, 'shadow');
    const p = await planProtectIndex({ storePath: fx.storeDir, rootPath: fx.root, method: 'shadow', outputsOnRoot: null, shadowDir });
    expect(p.refusals).toEqual([]);
    await applyProtectPlan(p);
    expect(readFileSync(path.join(shadowDir, 'seq_index_0'), 'latin1')).toBe('6');

    // graceful stop on unpatched Fluent Bit: sequence/ is gone
    rmSync(path.join(fx.root, 'sequence'), { recursive: true });
    // a shadow taken while Fluent Bit ran may be behind its exit flush: without bucket evidence it is refused
    const unsure = await planRestoreIndex({ storePath: fx.storeDir, rootPath: fx.root, outputIds: [0], shadowDir, skipProcessCheck: true });
    expect(unsure.refusals).toEqual([{ reason: expect.stringMatching(/not known to be final/), forceable: true }]);
    await expect(applyRestorePlan(unsure, { skipProcessCheck: true })).rejects.toThrow(/not known to be final/);
    expect(existsSync(seqFile(fx.root))).toBe(false);
    // a final shadow value (taken after the exit flush, as the guard keeps it) is restored
    const r = await planRestoreIndex({ storePath: fx.storeDir, rootPath: fx.root, outputIds: [0], shadowDir, shadowFinal: true, skipProcessCheck: true });
    expect(r.refusals).toEqual([]);
    expect(r.why.join('\n')).toMatch(/shadow 6 \(final\), disk missing/);
    await applyRestorePlan(r, { skipProcessCheck: true });
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('6');

    // bucket evidence above the shadow wins; a disk value below the shadow never lowers it
    const r2 = await planRestoreIndex({
      storePath: fx.storeDir,
      rootPath: fx.root,
      outputIds: [0],
      shadowDir,
      bucketSafe: new Map([[0, 9]]),
      skipProcessCheck: true,
    });
    await applyRestorePlan(r2, { skipProcessCheck: true });
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('9');
    const again = await planRestoreIndex({ storePath: fx.storeDir, rootPath: fx.root, outputIds: [0], shadowDir, skipProcessCheck: true });
    expect(again.summary).toMatch(/Nothing to restore/);
  });

  it('never lowers the shadow: a reset disk value is reported, not copied', async () => {
    fx = extractFixture('crash-during-run', 'store-after-crash.tar.gz', 'fb-crash');
    sh = tempDir('sd-shadow-');
    const shadowDir = path.join(sh.dir, 'shadow');
    await applyProtectPlan(await planProtectIndex({ storePath: fx.root, rootPath: fx.root, method: 'shadow', outputsOnRoot: null, shadowDir }));
    await applyIndexPlan(
      await planIndexRepair({ storePath: fx.root, rootPath: fx.root, outputId: 0, safeNextIndex: 0, value: 2, force: true, skipProcessCheck: true }),
      { force: true, skipProcessCheck: true },
    );
    const p = await planProtectIndex({ storePath: fx.root, rootPath: fx.root, method: 'shadow', outputsOnRoot: null, shadowDir });
    expect(p.steps).toEqual([]);
    expect(p.warnings.join('\n')).toMatch(/below the shadow copy \(6\)/);
    expect(readFileSync(path.join(shadowDir, 'seq_index_0'), 'latin1')).toBe('6');
  });
});
