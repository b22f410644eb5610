/* eslint-disable @typescript-eslint/no-explicit-any -- reads untyped replies */
/**
 * The live watch judges a change by its path relative to the store: a store under a
 * dot-directory (`/var/lib/.snapshots/…`, `~/.local/…`) must still report Fluent Bit's writes
 * during and right after a repair.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, dispatchRequest } from '../../../electron/engine';
import type { Engine, EventPayloads } from '../../../shared/contract';
import { FIXTURES, tempDir } from '../../support/fixtures';

let engine: Engine | null = null;
let cleanup: (() => void) | null = null;
afterEach(async () => {
  await engine?.dispose();
  cleanup?.();
});

async function ok(name: string, input: unknown): Promise<any> {
  const r = await dispatchRequest(engine!, name, input);
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value;
}

describe('live watch under a dot-directory', () => {
  it('reports a chunk written into a data stream right after a repair', async () => {
    const t = tempDir('sd-dotwatch-');
    cleanup = t.cleanup;
    const base = path.join(t.dir, '.snapshots', 'node-1');
    fs.mkdirSync(base, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(FIXTURES, 'index-reset', 'store-after-run2.tar.gz'), '-C', base]);
    const storeDir = path.join(base, 'store');
    engine = createEngine({ door: 'host', stateDir: tempDir('sd-state-').dir, watch: true });
    const events: EventPayloads['store.changed'][] = [];
    engine.onEvent('store.changed', (e) => events.push(e));
    const { storeId, report } = await ok('store.open', { path: storeDir });
    await ok('config.load', { storeId, path: path.join(FIXTURES, 'index-reset', 'fluent-bit.conf') });
    const listing = fs.readFileSync(path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run2.json'), 'utf8');
    await ok('evidence.importOffline', { storeId, documents: [{ name: 'l.json', text: listing }] });
    const plan = await ok('repair.plan', { storeId, action: 'repair-index' });
    await ok('repair.apply', { storeId, planId: plan.planId, confirm: 'fb-index-reset' });
    // Fluent Bit starts and writes a chunk into a new stream of the root
    const stream = path.join(report.roots[0].path, '2026-12-01T10:00:00');
    fs.mkdirSync(stream);
    fs.writeFileSync(path.join(stream, '123-456'), Buffer.alloc(4096));
    const deadline = Date.now() + 5000;
    while (!events.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(events.length).toBeGreaterThan(0);
    expect(events.flatMap((e) => e.paths).some((p) => p.includes('2026-12-01T10:00:00'))).toBe(true);
    const listed = await ok('store.list', {});
    expect(listed.stores[0].changedSinceScan ?? true).toBe(true);
  });
});
