/* eslint-disable @typescript-eslint/no-explicit-any -- the doors answer untyped JSON */
/**
 * One write path for every door: the same repair-index request, planned and applied through the
 * Electron IPC binding, the loopback HTTP host and the CLI, on the real `index-reset` store (its
 * bucket holds $INDEX 0–11). Without bucket evidence nothing may be called safe; with the listing
 * every door writes exactly 12.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../electron/engine';
import { startHost } from '../../electron/host';
import { bindIpc, type IpcInvokeEventLike } from '../../electron/main/ipc';
import { IPC_REQUEST } from '../../electron/main/channels';
import { rendererLocation } from '../../electron/main/policy';
import { api, fakeRenderer } from '../host/helpers';
import { extractFixture, FIXTURES, tempDir, type Extracted } from '../support/fixtures';

vi.mock('electron', () => {
  throw new Error('doors must not import electron');
});

const ROOT = path.resolve(__dirname, '../..');
const CONFIG = path.join(FIXTURES, 'index-reset', 'fluent-bit.conf');
const LISTING = path.join(FIXTURES, 'index-reset', 's3api-list-objects-v2-after-run2.json');
const BUCKET = 'fb-index-reset';

type Call = (name: string, input: unknown) => Promise<{ ok: boolean; value?: any; error?: any }>;

interface Door {
  name: string;
  open(): Promise<{ call: Call; close(): Promise<void> }>;
}

const doors: Door[] = [
  {
    name: 'Electron IPC',
    async open() {
      const engine = createEngine({ door: 'electron', stateDir: tempDir('sd-ipc-').dir, watch: false });
      const handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
      const mainDir = path.resolve('/opt/store-doctor/out/main');
      const renderer = rendererLocation(mainDir, {});
      const event: IpcInvokeEventLike = { senderFrame: { url: 'app://renderer/index.html', parent: null } };
      const unbind = bindIpc({
        ipcMain: { handle: (c, l) => handlers.set(c, l), removeHandler: (c) => handlers.delete(c) },
        engine,
        renderer,
        pickPath: async () => null,
      });
      return {
        call: async (name, input) => (await handlers.get(IPC_REQUEST)!(event, name, input, undefined)) as any,
        close: async () => {
          unbind();
          await engine.dispose();
        },
      };
    },
  },
  {
    name: 'HTTP host',
    async open() {
      const engine = createEngine({ door: 'host', stateDir: tempDir('sd-host-').dir, watch: false });
      const host = await startHost({ engine, rendererDir: fakeRenderer() });
      return {
        call: async (name, input) => (await api(host.port, host.token, name, input)).json(),
        close: async () => {
          await host.close();
          await engine.dispose();
        },
      };
    },
  },
];

let fx: Extracted | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});
const seqFile = (root: string) => path.join(root, 'sequence', 'index_metadata', 'seq_index_0');

describe.each(doors)('repair-index through the $name door', (door) => {
  it('without bucket evidence: no safe index, the plan is refused, nothing is written', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
    const d = await door.open();
    try {
      const opened = await d.call('store.open', { path: fx.storeDir });
      expect(opened.ok).toBe(true);
      const storeId = opened.value.storeId;
      expect((await d.call('config.load', { storeId, path: CONFIG })).ok).toBe(true);
      const diag = await d.call('diagnose.run', { storeId });
      expect(diag.value.outputs[0].safeNextIndex).toBeNull();
      const plan = await d.call('repair.plan', { storeId, action: 'repair-index' });
      expect(plan.ok).toBe(true);
      expect(plan.value.refusals.map((r: any) => r.reason).join(' ')).toMatch(/bucket evidence/i);
      expect(plan.value.summary).not.toMatch(/\b0\b/);
      const apply = await d.call('repair.apply', { storeId, planId: plan.value.planId, confirm: BUCKET });
      expect(apply.ok).toBe(false);
      expect(apply.error.code).toBe('refused');
      expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
    } finally {
      await d.close();
    }
  });

  it('with the listing: the reviewed plan writes exactly 12', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
    const d = await door.open();
    try {
      const storeId = (await d.call('store.open', { path: fx.storeDir })).value.storeId;
      await d.call('config.load', { storeId, path: CONFIG });
      const imported = await d.call('evidence.importOffline', { storeId, documents: [{ name: 'listing.json', text: readFileSync(LISTING, 'utf8') }] });
      expect(imported.ok).toBe(true);
      const diag = await d.call('diagnose.run', { storeId });
      expect(diag.value.outputs[0].safeNextIndex).toBe(12);
      const plan = await d.call('repair.plan', { storeId, action: 'repair-index' });
      expect(plan.value.refusals).toEqual([]);
      expect(plan.value.planId).toMatch(/^plan-/);
      expect(plan.value.steps.at(-1)).toMatchObject({ kind: 'write-file', target: seqFile(fx.root), after: '12' });
      const apply = await d.call('repair.apply', { storeId, planId: plan.value.planId, confirm: BUCKET });
      expect(apply.ok).toBe(true);
      expect(apply.value).toMatchObject({ applied: true, verified: true });
      expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('12');
      // a plan is applied once
      const again = await d.call('repair.apply', { storeId, planId: plan.value.planId, confirm: BUCKET });
      expect(again.ok).toBe(false);
    } finally {
      await d.close();
    }
  });
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/store-doctor.cjs'), ...args], { cwd: ROOT, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

describe('repair-index through the CLI door', { timeout: 120_000 }, () => {
  it('without bucket evidence: diagnose says the safe index is unknown, repair-index refuses (exit 5)', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
    const diag = await cli(['diagnose', fx.storeDir, '--config', CONFIG, '--json']);
    expect(JSON.parse(diag.stdout).outputs[0].safeNextIndex).toBeNull();
    const r = await cli(['repair-index', fx.storeDir, '--config', CONFIG, '--apply', '--json']);
    expect(r.code).toBe(5);
    expect(
      JSON.parse(r.stdout)
        .plan.refusals.map((x: any) => x.reason)
        .join(' '),
    ).toMatch(/bucket evidence/i);
    expect(existsSync(path.join(fx.root, 'sequence'))).toBe(false);
  });

  it('with the listing: writes exactly 12', async () => {
    fx = extractFixture('index-reset', 'store-after-run2.tar.gz', BUCKET);
    const r = await cli(['repair-index', fx.storeDir, '--config', CONFIG, '--listing', LISTING, '--apply', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).result).toMatchObject({ applied: true, verified: true });
    expect(readFileSync(seqFile(fx.root), 'latin1')).toBe('12');
  });
});
