/**
 * Issue 9 item 9 (wrong root): when the configured bucket has no root in the store, no repair
 * falls back to the only other root — repair-index wrote that root's index (3 → 18) and reported
 * success. Every door plans through the session: refused, naming the bucket and the roots found,
 * and nothing is written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

describe('a configured bucket with no root in the store', () => {
  it.each(['repair-index', 'protect-index', 'restore-index'] as const)(
    '%s is refused, naming the bucket and the roots found; the other root is untouched',
    async (action) => {
      t = tempDir('sd-wrong-root-');
      const g = await generateStore(path.join(t.dir, 'store'), {
        roots: [
          {
            bucket: 'other',
            streams: [{ name: '2026-01-01T00:00:00', chunks: [{ name: '1-1.flb', meta: 'app', content: jsonLines(3) }] }],
            seqIndex: { '0': '3' },
          },
        ],
      });
      const conf = path.join(t.dir, 'fluent-bit.conf');
      writeFileSync(conf, `[OUTPUT]\n    name s3\n    match *\n    bucket wanted\n    store_dir ${g.storeDir}\n    s3_key_format /logs/$TAG/$INDEX\n`);
      e = createEngine({ door: 'cli', watch: false });
      const opened = await dispatchRequest(e, 'store.open', { path: g.storeDir });
      if (!opened.ok) throw new Error(JSON.stringify(opened.error));
      const storeId = (opened.value as { storeId: string }).storeId;
      const loaded = await dispatchRequest(e, 'config.load', { storeId, path: conf });
      expect(loaded.ok).toBe(true);
      const seqFile = path.join(g.roots.other, 'sequence', 'index_metadata', 'seq_index_0');
      const r = await dispatchRequest(e, 'repair.plan', { storeId, action, outputId: 0, ...(action === 'repair-index' ? { value: 18, force: true } : {}) });
      const refusals = r.ok ? (r.value as { refusals: { reason: string }[] }).refusals : null;
      const text = refusals ? refusals.map((x) => x.reason).join('\n') : r.ok ? '' : r.error.message;
      expect(refusals !== null && refusals.length === 0, `${action} must not plan on another bucket's root`).toBe(false);
      expect(text).toMatch(/no root for bucket wanted .*roots found: other/);
      expect(readFileSync(seqFile, 'utf8')).toBe('3');
    },
  );
});
