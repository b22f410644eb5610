/**
 * Issue 22 item 3: the shadow folder of protect-index / restore-index can be chosen in the app as on
 * the command line — the same `repair.plan` request through every door, the plan names the folder.
 * A relative folder is refused at every door (the CLI resolves --shadow-dir first).
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import type { Engine } from '../../../shared/contract';
import { generateStore, jsonLines } from '../../fixtures/store-gen';
import { tempDir } from '../../support/fixtures';

let e: Engine | null = null;
let t: ReturnType<typeof tempDir> | null = null;
afterEach(async () => {
  await e?.dispose();
  t?.cleanup();
  e = null;
  t = null;
});

describe('the shadow folder through every door', () => {
  it.each(['host', 'electron', 'cli'] as const)('%s: protect-index --method shadow plans into the folder given; a relative one is refused', async (door) => {
    t = tempDir('sd-shadow-door-');
    const g = await generateStore(path.join(t.dir, 'store'), {
      roots: [
        {
          bucket: 'logs',
          streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1.flb', meta: 'app', content: jsonLines(3) }] }],
          seqIndex: { '0': '3' },
        },
      ],
    });
    const conf = path.join(t.dir, 'fluent-bit.conf');
    writeFileSync(conf, `[OUTPUT]\n    name s3\n    match *\n    bucket logs\n    store_dir ${g.storeDir}\n    s3_key_format /logs/$TAG/$INDEX\n`);
    e = createEngine({ door, watch: false });
    const opened = await dispatchRequest(e, 'store.open', { path: g.storeDir });
    if (!opened.ok) throw new Error(JSON.stringify(opened.error));
    const storeId = (opened.value as { storeId: string }).storeId;
    expect((await dispatchRequest(e, 'config.load', { storeId, path: conf })).ok).toBe(true);
    const shadowDir = path.join(t.dir, 'my-shadow');
    const r = await dispatchRequest(e, 'repair.plan', { storeId, action: 'protect-index', outputId: 0, method: 'shadow', shadowDir });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    const plan = r.value as { details?: { kind: string; shadowDir: string }; steps: { target: string }[] };
    expect(plan.details).toMatchObject({ kind: 'protect-shadow', shadowDir });
    expect(plan.steps.some((s) => s.target.startsWith(shadowDir))).toBe(true);
    const relative = await dispatchRequest(e, 'repair.plan', { storeId, action: 'protect-index', outputId: 0, method: 'shadow', shadowDir: 'rel/shadow' });
    expect(relative).toEqual({ ok: false, error: { code: 'invalid-input', message: 'shadow folder "rel/shadow": not an absolute path' } });
  });
});
