/**
 * `store-doctor salvage` on a real buffer (Fluent Bit 5.0.9, SIGKILL with checksum on, from
 * test/fixtures/storage-path): dry run, --apply, --undo --apply, and the tar refused — every --json
 * document conforms to docs/salvage.schema.json's zod schema; exit codes 0 and 5.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { salvageDocumentSchema } from '../../shared/json-schemas/storage-path';

const BIN = path.resolve(__dirname, '../../bin/store-doctor.cjs');
const TAR = path.resolve(__dirname, '../fixtures/storage-path/v5.0.9/kill-checksum-on/store.tar.gz');
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-cli-salvage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('store-doctor salvage', () => {
  it('plans, applies, undoes; refuses the tar; every --json conforms', () => {
    execFileSync('tar', ['-xzf', TAR, '-C', dir]);
    const store = path.join(dir, 'store');
    const files = ['dummy.0', 'dummy.1'].map((s) => path.join(store, s, execFileSync('ls', [path.join(store, s)], { encoding: 'utf8' }).trim()));
    const before = files.map((f) => readFileSync(f));
    const docs: unknown[] = [];
    const dry = cli('salvage', store, '--json');
    expect(dry.status, dry.stderr).toBe(0);
    docs.push(JSON.parse(dry.stdout));
    expect(JSON.parse(dry.stdout).plan.steps).toHaveLength(2);
    expect(files.map((f) => readFileSync(f).equals(before[files.indexOf(f)]))).toEqual([true, true]); // dry run writes nothing
    const applied = cli('salvage', store, '--apply', '--json');
    expect(applied.status, applied.stderr).toBe(0);
    docs.push(JSON.parse(applied.stdout));
    expect(JSON.parse(applied.stdout).result).toMatchObject({ action: 'salvage', applied: true, verified: true });
    const undo = cli('salvage', store, '--undo', '--apply', '--json');
    expect(undo.status, undo.stderr).toBe(0);
    docs.push(JSON.parse(undo.stdout));
    expect(files.map((f, i) => readFileSync(f).equals(before[i]))).toEqual([true, true]);
    const tar = cli('salvage', TAR, '--json');
    expect(tar.status).toBe(5);
    docs.push(JSON.parse(tar.stdout));
    expect(JSON.parse(tar.stdout).plan.refusals[0].reason).toMatch(/inside an archive/);
    for (const d of docs) expect(salvageDocumentSchema.safeParse(d).success).toBe(true);
  });
});
